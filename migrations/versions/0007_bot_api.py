"""bot API: auth_tokens.scope ("bot" tokens of bot accounts) and challenges

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: Union[str, Sequence[str], None] = "0006"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("auth_tokens") as b:
        b.add_column(sa.Column("scope", sa.String(length=16), nullable=True))
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("challenger_id", sa.Integer(), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("scenario", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("side", sa.String(length=16), nullable=False),
        sa.Column("mode", sa.String(length=8), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=True),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("decided_at", TZ, nullable=True),
        sa.ForeignKeyConstraint(["challenger_id"], ["users.id"], name=op.f("fk_challenges_challenger_id_users"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["target_id"], ["users.id"], name=op.f("fk_challenges_target_id_users"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_challenges_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
    )
    op.create_index(op.f("ix_challenges_challenger_id"), "challenges", ["challenger_id"], unique=False)
    op.create_index(op.f("ix_challenges_target_id"), "challenges", ["target_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_challenges_target_id"), table_name="challenges")
    op.drop_index(op.f("ix_challenges_challenger_id"), table_name="challenges")
    op.drop_table("challenges")
    with op.batch_alter_table("auth_tokens") as b:
        b.drop_column("scope")
