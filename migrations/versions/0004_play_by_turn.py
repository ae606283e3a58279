"""play by turn: notices, outbox (mail and webhooks), mail preferences, webhooks, game
clocks, vacations, standing battle orders

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: Union[str, Sequence[str], None] = "0003"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("read_at", TZ, nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_notices_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notices")),
    )
    op.create_index(op.f("ix_notices_user_id"), "notices", ["user_id"], unique=False)
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=8), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("game_seq", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("recipient", sa.String(length=1000), nullable=False),
        sa.Column("subject", sa.String(length=300), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("payload", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", TZ, nullable=False),
        sa.Column("claimed_at", TZ, nullable=True),
        sa.Column("last_error", sa.String(length=1000), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("sent_at", TZ, nullable=True),
        sa.Column("dedupe", sa.String(length=120), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_outbox_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
        sa.UniqueConstraint("dedupe", name=op.f("uq_outbox_dedupe")),
    )
    op.create_index(op.f("ix_outbox_user_id"), "outbox", ["user_id"], unique=False)
    op.create_index(op.f("ix_outbox_status"), "outbox", ["status"], unique=False)
    op.create_index(op.f("ix_outbox_next_attempt_at"), "outbox", ["next_attempt_at"], unique=False)
    op.create_table(
        "mail_prefs",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(length=8), nullable=False),
        sa.Column("verified_email", sa.String(length=254), nullable=True),
        sa.Column("verified_at", TZ, nullable=True),
        sa.Column("last_digest_at", TZ, nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_mail_prefs_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_mail_prefs")),
    )
    op.create_table(
        "webhooks",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("url", sa.String(length=1000), nullable=False),
        sa.Column("json_key", sa.String(length=64), nullable=False),
        sa.Column("prefix", sa.String(length=200), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("last_error", sa.String(length=1000), nullable=True),
        sa.Column("last_error_at", TZ, nullable=True),
        sa.Column("last_ok_at", TZ, nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_webhooks_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_webhooks")),
    )
    op.create_table(
        "game_clocks",
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("days", sa.Integer(), nullable=True),
        sa.Column("side", sa.String(length=16), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("since", TZ, nullable=True),
        sa.Column("extra_seconds", sa.Integer(), nullable=False),
        sa.Column("reminded_at", TZ, nullable=True),
        sa.Column("expired_at", TZ, nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_game_clocks_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_clocks")),
    )
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("starts_at", TZ, nullable=False),
        sa.Column("ends_at", TZ, nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_vacations_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vacations")),
    )
    op.create_index(op.f("ix_vacations_user_id"), "vacations", ["user_id"], unique=False)
    op.create_table(
        "standing_orders",
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("orders", sa.JSON(), nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_standing_orders_game_id_games"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_standing_orders_user_id_users"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_standing_orders")),
    )


def downgrade() -> None:
    op.drop_table("standing_orders")
    op.drop_index(op.f("ix_vacations_user_id"), table_name="vacations")
    op.drop_table("vacations")
    op.drop_table("game_clocks")
    op.drop_table("webhooks")
    op.drop_table("mail_prefs")
    op.drop_index(op.f("ix_outbox_next_attempt_at"), table_name="outbox")
    op.drop_index(op.f("ix_outbox_status"), table_name="outbox")
    op.drop_index(op.f("ix_outbox_user_id"), table_name="outbox")
    op.drop_table("outbox")
    op.drop_index(op.f("ix_notices_user_id"), table_name="notices")
    op.drop_table("notices")
