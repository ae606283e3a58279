"""per-game chat messages (players' and spectators' channels)

Revision ID: 0002_chat
Revises: 0001
Create Date: 2026-11-30
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0002_chat"
down_revision: Union[str, Sequence[str], None] = "0001"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=32), nullable=False),
        sa.Column("body", sa.String(length=500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_chat_messages_game_id_games")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_chat_messages_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    op.create_index(op.f("ix_chat_messages_game_id"), "chat_messages", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_chat_messages_game_id"), table_name="chat_messages")
    op.drop_table("chat_messages")
