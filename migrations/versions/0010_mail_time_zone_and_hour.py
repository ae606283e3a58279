"""mail time zone and digest hour: mails give deadlines in the reader's time zone, and
the daily digest comes at the hour the reader chose (in that zone)

Revision ID: 0010_mail_time_zone_and_hour
Revises: 0009
Create Date: 2026-12-02
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0010_mail_time_zone_and_hour"
down_revision: Union[str, Sequence[str], None] = "0009"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("mail_prefs") as b:
        b.add_column(sa.Column("time_zone", sa.String(length=64), nullable=False, server_default="UTC"))
        b.add_column(sa.Column("digest_hour", sa.Integer(), nullable=False, server_default="8"))


def downgrade() -> None:
    with op.batch_alter_table("mail_prefs") as b:
        b.drop_column("digest_hour")
        b.drop_column("time_zone")
