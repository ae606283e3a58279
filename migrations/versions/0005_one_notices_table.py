"""one notices table: the in-site notices of disputes and administrators' decisions
(site_notices) move into notices, which already held every other in-site notice

Until now a dispute or decision wrote its notice twice: a site_notices row and, through
the mail pipeline, a notices row with the same user, kind, game and text. Rows that have
such a twin are not copied again (a twin takes over the read mark); the others are.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: Union[str, Sequence[str], None] = "0004"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TZ = sa.DateTime(timezone=True)
SITE_KINDS = ("admin_", "dispute_")


def _notices() -> sa.Table:
    return sa.table("notices", sa.column("id", sa.Integer), sa.column("user_id", sa.Integer),
                    sa.column("game_id", sa.String), sa.column("kind", sa.String), sa.column("text", sa.Text),
                    sa.column("seq", sa.Integer), sa.column("created_at", TZ), sa.column("read_at", TZ))


def _site_notices() -> sa.Table:
    return sa.table("site_notices", sa.column("id", sa.Integer), sa.column("user_id", sa.Integer),
                    sa.column("game_id", sa.String), sa.column("kind", sa.String), sa.column("text", sa.String),
                    sa.column("created_at", TZ), sa.column("read_at", TZ))


def _twin_key(row) -> tuple:
    # site_notices kept at most 1000 characters of the text
    return row.user_id, row.game_id, row.kind, (row.text or "")[:1000]


def upgrade() -> None:
    conn = op.get_bind()
    notices, site = _notices(), _site_notices()
    twins: dict[tuple, list] = {}
    for n in conn.execute(sa.select(notices.c.id, notices.c.user_id, notices.c.game_id, notices.c.kind,
                                    notices.c.text, notices.c.read_at)).all():
        twins.setdefault(_twin_key(n), []).append(n)
    for s in conn.execute(sa.select(site).order_by(site.c.id)).all():
        matches = twins.get(_twin_key(s))
        if matches:
            twin = matches.pop(0)
            if s.read_at is not None and twin.read_at is None:
                conn.execute(sa.update(notices).where(notices.c.id == twin.id).values(read_at=s.read_at))
            continue
        conn.execute(sa.insert(notices).values(user_id=s.user_id, game_id=s.game_id, kind=s.kind, text=s.text,
                                               seq=None, created_at=s.created_at, read_at=s.read_at))
    op.drop_index(op.f("ix_site_notices_user_id"), table_name="site_notices")
    op.drop_table("site_notices")


def downgrade() -> None:
    op.create_table(
        "site_notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("text", sa.String(length=1000), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("read_at", TZ, nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_site_notices_game_id_games")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_site_notices_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_site_notices")),
    )
    op.create_index(op.f("ix_site_notices_user_id"), "site_notices", ["user_id"], unique=False)
    # the notices of disputes and decisions go back to site_notices (and stay in notices,
    # as the mail pipeline had written them there too)
    conn = op.get_bind()
    notices, site = _notices(), _site_notices()
    games = {r[0] for r in conn.execute(sa.text("SELECT id FROM games")).all()}
    for n in conn.execute(sa.select(notices).order_by(notices.c.id)).all():
        if n.kind.startswith(SITE_KINDS) and (n.game_id is None or n.game_id in games):
            conn.execute(sa.insert(site).values(user_id=n.user_id, game_id=n.game_id, kind=n.kind,
                                                text=n.text[:1000], created_at=n.created_at, read_at=n.read_at))
