"""event hash chain, disputes, admin audit log, in-site notices

- game_events.prev_hash and games.chain_head: the tamper-evident hash chain
  (rules_engine/record.py); existing games get their chain computed here, with the
  hash functions of chain version 1 copied below (a migration never imports code that
  may change after it);
- disputes, admin_actions (the audit log), site_notices.

Revision ID: 0003
Revises: 0002_chat
Create Date: 2026-12-01
"""
import hashlib
import json
from datetime import datetime, timezone
from typing import Any, Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: Union[str, Sequence[str], None] = "0002_chat"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("game_events") as b:
        b.add_column(sa.Column("prev_hash", sa.String(length=64), nullable=True))
    with op.batch_alter_table("games") as b:
        b.add_column(sa.Column("chain_head", sa.String(length=64), nullable=True))
    op.create_table(
        "disputes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(length=2000), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resolved_by", sa.Integer(), nullable=True),
        sa.Column("decision", sa.String(length=16), nullable=True),
        sa.Column("decision_seq", sa.Integer(), nullable=True),
        sa.Column("resolution", sa.String(length=2000), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_disputes_game_id_games")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_disputes_user_id_users")),
        sa.ForeignKeyConstraint(["resolved_by"], ["users.id"], name=op.f("fk_disputes_resolved_by_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_disputes")),
    )
    op.create_index(op.f("ix_disputes_game_id"), "disputes", ["game_id"], unique=False)
    op.create_index(op.f("ix_disputes_status"), "disputes", ["status"], unique=False)
    op.create_table(
        "admin_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("admin_id", sa.Integer(), nullable=True),
        sa.Column("admin_username", sa.String(length=32), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("dispute_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=2000), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["admin_id"], ["users.id"], name=op.f("fk_admin_actions_admin_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_actions")),
    )
    op.create_index(op.f("ix_admin_actions_game_id"), "admin_actions", ["game_id"], unique=False)
    op.create_table(
        "site_notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("text", sa.String(length=1000), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_site_notices_game_id_games")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_site_notices_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_site_notices")),
    )
    op.create_index(op.f("ix_site_notices_user_id"), "site_notices", ["user_id"], unique=False)
    _backfill_chains()


_CHAIN_TAG = "ahd-chain/1\n"


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _utc_stamp(dt: Any) -> Any:
    if dt is None or isinstance(dt, str):
        return dt
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def header_hash(game_id: str, header: dict) -> str:
    return hashlib.sha256((_CHAIN_TAG + _canonical({"game_id": game_id, "header": header})).encode("ascii")).hexdigest()


def event_hash(prev: str, event: dict) -> str:
    content = {"seq": event["seq"], "source": event["source"], "type": event["type"], "actor": event.get("actor"),
               "at": _utc_stamp(event.get("at")), "data": event["data"]}
    return hashlib.sha256((prev + "\n" + _canonical(content)).encode("ascii")).hexdigest()


def _backfill_chains() -> None:
    """Chain the events of the games that existed before this migration."""
    conn = op.get_bind()
    games = conn.execute(sa.text("SELECT id, header FROM games")).all()
    for gid, header in games:
        if isinstance(header, str):
            header = json.loads(header)
        h = header_hash(gid, header)
        rows = conn.execute(sa.text("SELECT seq, source, type, actor, payload, created_at FROM game_events "
                                    "WHERE game_id = :g ORDER BY seq"), {"g": gid}).all()
        for seq, source, typ, actor, payload, created_at in rows:
            if isinstance(payload, str):
                payload = json.loads(payload)
            if isinstance(created_at, str):
                created_at = datetime.fromisoformat(created_at)
            conn.execute(sa.text("UPDATE game_events SET prev_hash = :h WHERE game_id = :g AND seq = :s"),
                         {"h": h, "g": gid, "s": seq})
            h = event_hash(h, {"seq": seq, "source": source, "type": typ, "actor": actor, "at": created_at,
                               "data": payload})
        conn.execute(sa.text("UPDATE games SET chain_head = :h WHERE id = :g"), {"h": h, "g": gid})


def downgrade() -> None:
    op.drop_index(op.f("ix_site_notices_user_id"), table_name="site_notices")
    op.drop_table("site_notices")
    op.drop_index(op.f("ix_admin_actions_game_id"), table_name="admin_actions")
    op.drop_table("admin_actions")
    op.drop_index(op.f("ix_disputes_status"), table_name="disputes")
    op.drop_index(op.f("ix_disputes_game_id"), table_name="disputes")
    op.drop_table("disputes")
    with op.batch_alter_table("games") as b:
        b.drop_column("chain_head")
    with op.batch_alter_table("game_events") as b:
        b.drop_column("prev_hash")
