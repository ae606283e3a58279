"""password resets by mail (single-use links, stored hashed) and each login session's
last use (when, and a coarse address) for its owner's list of sessions

Revision ID: 0012_password_resets
Revises: 0011_account_language
Create Date: 2026-12-07
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0012_password_resets"
down_revision: Union[str, Sequence[str], None] = "0011_account_language"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("auth_tokens") as b:
        b.add_column(sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True))
        b.add_column(sa.Column("last_address", sa.String(length=64), nullable=True))
    op.create_table(
        "password_resets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_password_resets_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_password_resets")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_password_resets_token_hash")),
    )
    op.create_index(op.f("ix_password_resets_user_id"), "password_resets", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_password_resets_user_id"), table_name="password_resets")
    op.drop_table("password_resets")
    with op.batch_alter_table("auth_tokens") as b:
        b.drop_column("last_address")
        b.drop_column("last_used_at")
