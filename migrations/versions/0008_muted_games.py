"""muted games: a player's games that send them no mail or webhook call

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: Union[str, Sequence[str], None] = "0007"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "muted_games",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_muted_games_user_id_users"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_muted_games_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "game_id", name=op.f("pk_muted_games")),
    )


def downgrade() -> None:
    op.drop_table("muted_games")
