"""webhook secrets: every delivery is signed; webhooks saved before get a secret here
(their owners see a new one when they replace it in the settings)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""
import secrets
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: Union[str, Sequence[str], None] = "0008"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

webhooks = sa.table("webhooks", sa.column("user_id", sa.Integer()), sa.column("secret", sa.String(64)))


def upgrade() -> None:
    with op.batch_alter_table("webhooks") as b:
        b.add_column(sa.Column("secret", sa.String(length=64), nullable=True))
    conn = op.get_bind()
    for (user_id,) in conn.execute(sa.select(webhooks.c.user_id)).all():
        conn.execute(webhooks.update().where(webhooks.c.user_id == user_id).values(secret=secrets.token_hex(32)))
    with op.batch_alter_table("webhooks") as b:
        b.alter_column("secret", existing_type=sa.String(length=64), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("webhooks") as b:
        b.drop_column("secret")
