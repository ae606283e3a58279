"""account language: the language the site and its mails speak to an account (None: the
browser's choice)

Revision ID: 0011_account_language
Revises: 0009
Create Date: 2026-12-02
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0011_account_language"
down_revision: Union[str, Sequence[str], None] = "0010_mail_time_zone_and_hour"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("users") as b:
        b.add_column(sa.Column("language", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as b:
        b.drop_column("language")
