"""computer seats and ratings: users.kind (person or computer), games.rated, the
players' Glicko-2 ratings and the history of rating changes

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: Union[str, Sequence[str], None] = "0005"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("users") as b:
        b.add_column(sa.Column("kind", sa.String(length=12), server_default="person", nullable=False))
    with op.batch_alter_table("games") as b:
        b.add_column(sa.Column("rated", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table(
        "player_ratings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_player_ratings_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_player_ratings")),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=16), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("deviation_before", sa.Float(), nullable=False),
        sa.Column("volatility_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("deviation_after", sa.Float(), nullable=False),
        sa.Column("volatility_after", sa.Float(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("reversed_at", TZ, nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_rating_changes_user_id_users"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_rating_changes_game_id_games")),
        sa.ForeignKeyConstraint(["opponent_id"], ["users.id"], name=op.f("fk_rating_changes_opponent_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_changes")),
    )
    op.create_index(op.f("ix_rating_changes_user_id"), "rating_changes", ["user_id"], unique=False)
    op.create_index(op.f("ix_rating_changes_game_id"), "rating_changes", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_rating_changes_game_id"), table_name="rating_changes")
    op.drop_index(op.f("ix_rating_changes_user_id"), table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("player_ratings")
    with op.batch_alter_table("games") as b:
        b.drop_column("rated")
    with op.batch_alter_table("users") as b:
        b.drop_column("kind")
