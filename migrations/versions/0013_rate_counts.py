"""the rate limits' counts, shared by every process on the database: one row per limit,
key and fixed window, purged once it can no longer count

Revision ID: 0013_rate_counts
Revises: 0012_password_resets
Create Date: 2026-12-07
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0013_rate_counts"
down_revision: Union[str, Sequence[str], None] = "0012_password_resets"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # Postgres: UNLOGGED, so that counting an event costs no wait for a durable commit
    # (bench/limit_cost.py); a crash of the database server empties the table, which
    # only forgets recent counts
    unlogged = ["UNLOGGED"] if op.get_bind().dialect.name == "postgresql" else []
    op.create_table(
        "rate_counts",
        sa.Column("limit_name", sa.String(length=32), nullable=False),
        sa.Column("subject", sa.String(length=128), nullable=False),
        sa.Column("slot", sa.BigInteger(), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("limit_name", "subject", "slot", name=op.f("pk_rate_counts")),
        prefixes=unlogged,
    )
    op.create_index(op.f("ix_rate_counts_expires_at"), "rate_counts", ["expires_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_rate_counts_expires_at"), table_name="rate_counts")
    op.drop_table("rate_counts")
