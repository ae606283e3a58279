"""Disputes and the administrators' decisions (see docs/disputes.md).

A player of a game opens a dispute pointing at an event (its seq) with a text. Admins
see a queue. An admin may
  - rewind a game in play to an earlier seq: a "rewind" event {to_seq, through_seq,
    back_to, reason, by}; the events after back_to are kept and shown as superseded
    (the fold skips them exactly like a player's undo);
  - adjudicate a result: an "adjudicate" event; the game is finished with that result;
  - annul the game: an "annul" event; the game is finished with no winner;
  - dismiss a dispute (no event: the game does not change).
Every decision needs a written reason, is written to the audit log (who, when, why,
what), and the players are told (a notice, with mail and webhooks as each chose).
Only users with users.is_admin may do any of it (`python -m app make-admin NAME`).
"""
from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import insert, select, update

import rules_engine
from rules_engine.record import fold, rest_points

from ..accounts.auth import current_user
from ..core.clock import iso
from ..core.errors import ApiError, not_found
from ..games.service import GameService
from ..i18n import N_
from ..models import DISPUTE_MAX_TEXT, AdminAction, Dispute, User, table, utcnow
from ..notices.outbox import Notices, NoticeText
from ..notices.words import decisions as said
from ..store import events as store
from ..store.events import T_GAMES, load_game

MAX_TEXT = DISPUTE_MAX_TEXT






T_DISPUTES, T_AUDIT = table(Dispute), table(AdminAction)
router = APIRouter(prefix="/api", tags=["disputes"])


# ----------------------------------------------------------------------------- helpers
def admin_user(request: Request) -> User:
    """The logged-in user if an administrator; everyone else is refused."""
    user = current_user(request)
    if not user.is_admin:
        raise ApiError(403, N_("administrators only"), "admin_only")
    return user


def audit(conn, admin: User | None, action: str, reason: str, game_id: str | None = None,
          dispute_id: int | None = None, detail: dict | None = None) -> None:
    conn.execute(insert(T_AUDIT).values(admin_id=admin.id if admin else None,
                                        admin_username=admin.username if admin else "(command line)",
                                        action=action, game_id=game_id, dispute_id=dispute_id,
                                        reason=reason, detail=detail, created_at=utcnow()))


def _reason(text: str | None) -> str:
    text = (text or "").strip()
    if len(text) < 3:
        raise ApiError(422, N_("an administrator's decision needs a written reason"), "reason_required")
    return text[:MAX_TEXT]


def _dispute_out(r) -> dict:
    return {"id": r.id, "game_id": r.game_id, "user": r.username, "seq": r.seq, "text": r.text,
            "status": r.status, "created_at": iso(r.created_at), "resolved_at": iso(r.resolved_at),
            "decision": r.decision, "decision_seq": r.decision_seq, "resolution": r.resolution}


def _players(game) -> list[int]:
    return [u for u in (game.union_user_id, game.confederate_user_id) if u is not None]


def _admin_ids(s) -> list[int]:
    users = table(User)
    return [r[0] for r in s.execute(select(users.c.id).where(users.c.is_admin.is_(True))).all()]


# ----------------------------------------------------------------------------- decisions
def _after_decision(svc: GameService, notices: Notices, admin: User, gid: str, kind: str, reason: str,
                    dispute_id: int | None, seq: int, detail: dict, text: NoticeText) -> None:
    """Audit row, dispute resolution and the players' notices (one transaction)."""
    with svc.db.write() as s:
        game = load_game(s, gid)
        audit(s, admin, kind, reason, gid, dispute_id, dict(detail, seq=seq))
        if dispute_id is not None:
            s.execute(update(T_DISPUTES).where(T_DISPUTES.c.id == dispute_id, T_DISPUTES.c.game_id == gid)
                      .values(status="resolved", resolved_at=utcnow(), resolved_by=admin.id, decision=kind,
                              decision_seq=seq, resolution=reason))
        notices.notify(s, _players(game), f"admin_{kind}", gid, text)
        s.commit()


def _check_dispute(svc: GameService, gid: str, dispute_id: int | None) -> None:
    if dispute_id is None:
        return
    with svc.db.read() as s:
        row = s.execute(select(T_DISPUTES).where(T_DISPUTES.c.id == dispute_id)).first()
    if row is None or row.game_id != gid:
        raise ApiError(404, N_("no such dispute on this game"), "not_found")


def rewind(svc: GameService, notices: Notices, admin: User, gid: str, back_to: int, reason: str,
           dispute_id: int | None = None) -> dict:
    """Take the game back to how it stood at seq `back_to` (a seq where it rested)."""
    reason = _reason(reason)
    _check_dispute(svc, gid, dispute_id)

    def fn(s, game):
        if game.status != "active":
            raise ApiError(409, N_("only a game in play can be rewound (its seed is revealed once it ends); "
                                   "adjudicate or annul a finished game"), "game_over")
        evs = store.stored_events(s, gid)
        start = next((e["seq"] for e in evs if e["source"] == "server" and e["type"] == "start"), None)
        if not isinstance(back_to, int) or start is None or not (start <= back_to < game.seq):
            raise ApiError(422, N_("seq must be from {start} (the start) to {last}"), "invalid_request",
                           {"start": start, "last": game.seq - 1})
        if back_to not in rest_points(evs):
            raise ApiError(422, N_("seq {seq} is inside a decision: choose the last seq of a decision"),
                           "invalid_request", {"seq": back_to})
        now_f, at_f = fold(evs), fold(evs, upto=back_to)
        if [q for q in now_f.effective_seqs if q <= back_to] != at_f.effective_seqs:
            raise ApiError(409, N_("the state at seq {seq} was itself taken back later; choose another seq"),
                           "invalid_request", {"seq": back_to})
        full = load_game(s, gid)
        if full is None:
            raise not_found()
        g2 = rules_engine.replay(full.header, at_f.effective, seed=full.seed)
        payload = {"to_seq": back_to + 1, "through_seq": game.seq, "back_to": back_to, "reason": reason,
                   "by": admin.username, "dispute_id": dispute_id}
        # a single legal choice where the game now stands is applied at once, as after a move
        recs = [("server", "rewind", None, payload)] + (svc.automate(game, g2) if svc.automate else [])
        updates: dict = {"to_act": g2.to_act}
        if g2.result is not None:
            updates.update(status="finished", result=g2.result, finished_at=utcnow(), to_act=None)
        out = svc.append(s, game, recs, updates,
                         {"kind": "rewind", "user_id": admin.id, "body": {"back_to": back_to}})
        svc.drop_cache(gid)
        entry = svc.state(s, game)
        svc.publish(game, entry, out)
        return {"seq": game.seq, "event": out[0].out(), "to_act": game.to_act, "status": game.status}

    res = svc.run_command(gid, fn)
    _after_decision(svc, notices, admin, gid, "rewind", reason, dispute_id, res["seq"], {"back_to": back_to},
                    said.rewound(gid, admin.username, back_to, reason))
    return res


def _finish(svc: GameService, admin: User, gid: str, kind: str, result: dict, reason: str,
            dispute_id: int | None, allowed: tuple[str, ...]) -> dict:
    _check_dispute(svc, gid, dispute_id)

    def fn(s, game):
        if game.status not in allowed:
            raise ApiError(409, N_("a game that is {status} cannot be given a result"), "game_over",
                           {"status": game.status})
        if (game.result or {}).get("annulled"):
            if kind == "annul":
                raise ApiError(409, N_("this game is already annulled"), "already_annulled")
            raise ApiError(409, N_("this game was annulled: it has no result to change"), "game_over")
        entry = svc.state(s, game) if game.status != "open" else None
        payload = {"result": result, "reason": reason, "by": admin.username, "dispute_id": dispute_id,
                   "previous_status": game.status, "previous_result": game.result}
        out = svc.append(s, game, [("server", kind, None, payload)],
                          {"status": "finished", "result": result, "to_act": None,
                           "finished_at": game.finished_at or utcnow()},
                          {"kind": kind, "user_id": admin.id, "body": {"result": result}})
        if entry is not None:
            entry.seq = game.seq
        svc.publish(game, entry, out)
        return {"seq": game.seq, "event": out[0].out(), "status": game.status, "result": result}
    return svc.run_command(gid, fn)


def adjudicate(svc: GameService, notices: Notices, admin: User, gid: str, winner: str | None, reason: str,
               dispute_id: int | None = None) -> dict:
    reason = _reason(reason)
    if winner not in ("union", "confederate", None):
        raise ApiError(422, N_("winner must be union, confederate or null (a draw)"), "invalid_request")
    result = {"winner": winner, "reason": f"adjudicated by an administrator: {reason}", "adjudicated": True}
    # only a game in play: a result once given (by play or by a decision) is changed only by annulling it
    res = _finish(svc, admin, gid, "adjudicate", result, reason, dispute_id, ("active",))
    _after_decision(svc, notices, admin, gid, "adjudicate", reason, dispute_id, res["seq"], {"winner": winner},
                    said.adjudicated(gid, admin.username, winner, reason))
    return res


def annul(svc: GameService, notices: Notices, admin: User, gid: str, reason: str,
          dispute_id: int | None = None) -> dict:
    reason = _reason(reason)
    result = {"winner": None, "reason": f"annulled by an administrator: {reason}", "annulled": True}
    res = _finish(svc, admin, gid, "annul", result, reason, dispute_id, ("open", "active", "finished"))
    _after_decision(svc, notices, admin, gid, "annul", reason, dispute_id, res["seq"], {},
                    said.annulled(gid, admin.username, reason))
    return res


# ----------------------------------------------------------------------------- API: players
class DisputeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seq: int = Field(..., ge=1)
    text: str = Field(..., min_length=5, max_length=MAX_TEXT)


class DecisionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Field(..., max_length=MAX_TEXT)
    dispute_id: int | None = None


class RewindIn(DecisionIn):
    seq: int = Field(..., ge=1, description="the seq the game goes back to (it stood there)")


class AdjudicateIn(DecisionIn):
    winner: str | None = Field(..., description="union | confederate | null (draw)")


def _svc(request: Request) -> GameService:
    return request.app.state.games


def _notices(request: Request) -> Notices:
    return request.app.state.notices


@router.post("/games/{game_id}/disputes", status_code=201)
def open_dispute(game_id: str, body: DisputeIn, request: Request, user: User = Depends(current_user)):
    """A seated player disputes the event at `seq`, saying what is wrong."""
    svc = _svc(request)
    with svc.db.write() as s:
        game = load_game(s, game_id)
        if game is None:
            raise not_found()
        if user.id not in _players(game):
            raise ApiError(403, N_("only the players of a game open disputes about it"), "not_a_player")
        if body.seq > game.seq:
            raise ApiError(422, N_("there is no seq {seq} (the game is at {at})"), "invalid_request",
                           {"seq": body.seq, "at": game.seq})
        c = T_DISPUTES.c
        n_open = len(s.execute(select(c.id).where(c.game_id == game_id, c.user_id == user.id,
                                                  c.status == "open")).all())
        if n_open >= 5:
            raise ApiError(409, N_("you already have {n} open disputes on this game"), "too_many_disputes", {"n": 5})
        text = body.text.strip()
        now = utcnow()
        res = s.execute(insert(T_DISPUTES).values(game_id=game_id, user_id=user.id, username=user.username,
                                                  seq=body.seq, text=text, status="open", created_at=now))
        did = res.inserted_primary_key[0]
        others = [u for u in _players(game) if u != user.id] + _admin_ids(s)
        _notices(request).notify(s, others, "dispute_opened", game_id,
                                 said.dispute_opened(game_id, user.username, body.seq, text[:200]))
        s.commit()
        row = s.execute(select(T_DISPUTES).where(c.id == did)).first()
    return _dispute_out(row)


@router.get("/games/{game_id}/disputes")
def game_disputes(game_id: str, request: Request, user: User = Depends(current_user)):
    svc = _svc(request)
    with svc.db.read() as s:
        game = load_game(s, game_id, hot=True)
        if game is None:
            raise not_found()
        if user.id not in _players(game) and not user.is_admin:
            raise ApiError(403, N_("a game's disputes are for its players and the administrators"), "not_a_player")
        rows = s.execute(select(T_DISPUTES).where(T_DISPUTES.c.game_id == game_id)
                         .order_by(T_DISPUTES.c.id)).all()
    return {"game_id": game_id, "disputes": [_dispute_out(r) for r in rows]}


# ----------------------------------------------------------------------------- API: admins
@router.get("/admin/disputes", tags=["admin"])
def admin_disputes(request: Request, status: str = Query("open", description="open | resolved | dismissed | all"),
                   admin: User = Depends(admin_user)):
    c = T_DISPUTES.c
    q = select(T_DISPUTES).order_by(c.id)
    if status != "all":
        q = q.where(c.status == status)
    with _svc(request).db.read() as s:
        rows = s.execute(q.limit(500)).all()
        gids = {r.game_id for r in rows}
        games = {r.id: r for r in s.execute(select(T_GAMES.c.id, T_GAMES.c.status, T_GAMES.c.seq, T_GAMES.c.scenario)
                                            .where(T_GAMES.c.id.in_(gids))).all()} if gids else {}
    out = []
    for r in rows:
        d = _dispute_out(r)
        g = games.get(r.game_id)
        if g is not None:
            d["game"] = {"status": g.status, "seq": g.seq, "scenario": g.scenario}
        out.append(d)
    return {"status": status, "disputes": out}


@router.get("/admin/disputes/{dispute_id}", tags=["admin"])
def admin_dispute(dispute_id: int, request: Request, admin: User = Depends(admin_user)):
    with _svc(request).db.read() as s:
        row = s.execute(select(T_DISPUTES).where(T_DISPUTES.c.id == dispute_id)).first()
        if row is None:
            raise not_found("dispute")
        ev = store.event_at(s, row.game_id, row.seq)
    d = _dispute_out(row)
    d["event"] = ev.out() if ev is not None else None
    return d


@router.post("/admin/disputes/{dispute_id}/dismiss", tags=["admin"])
def admin_dismiss(dispute_id: int, body: DecisionIn, request: Request, admin: User = Depends(admin_user)):
    reason = _reason(body.reason)
    svc = _svc(request)
    with svc.db.write() as s:
        row = s.execute(select(T_DISPUTES).where(T_DISPUTES.c.id == dispute_id)).first()
        if row is None:
            raise not_found("dispute")
        if row.status != "open":
            raise ApiError(409, N_("this dispute is already {status}"), "dispute_closed", {"status": row.status})
        s.execute(update(T_DISPUTES).where(T_DISPUTES.c.id == dispute_id)
                  .values(status="dismissed", resolved_at=utcnow(), resolved_by=admin.id, decision="dismiss",
                          resolution=reason))
        audit(s, admin, "dismiss", reason, row.game_id, dispute_id)
        game = load_game(s, row.game_id, hot=True)
        _notices(request).notify(s, _players(game), "dispute_dismissed", row.game_id,
                                 said.dispute_dismissed(row.game_id, admin.username, dispute_id, reason))
        s.commit()
    return {"id": dispute_id, "status": "dismissed", "resolution": reason}


@router.post("/admin/games/{game_id}/rewind", tags=["admin"])
def admin_rewind(game_id: str, body: RewindIn, request: Request, admin: User = Depends(admin_user)):
    return rewind(_svc(request), _notices(request), admin, game_id, body.seq, body.reason, body.dispute_id)


@router.post("/admin/games/{game_id}/adjudicate", tags=["admin"])
def admin_adjudicate(game_id: str, body: AdjudicateIn, request: Request, admin: User = Depends(admin_user)):
    return adjudicate(_svc(request), _notices(request), admin, game_id, body.winner, body.reason, body.dispute_id)


@router.post("/admin/games/{game_id}/annul", tags=["admin"])
def admin_annul(game_id: str, body: DecisionIn, request: Request, admin: User = Depends(admin_user)):
    return annul(_svc(request), _notices(request), admin, game_id, body.reason, body.dispute_id)


@router.get("/admin/audit", tags=["admin"])
def admin_audit(request: Request, game_id: str | None = None, limit: int = Query(200, ge=1, le=2000),
                admin: User = Depends(admin_user)):
    c = T_AUDIT.c
    q = select(T_AUDIT).order_by(c.id.desc()).limit(limit)
    if game_id:
        q = q.where(c.game_id == game_id)
    with _svc(request).db.read() as s:
        rows = s.execute(q).all()
    return {"actions": [{"id": r.id, "admin": r.admin_username, "action": r.action, "game_id": r.game_id,
                         "dispute_id": r.dispute_id, "reason": r.reason, "detail": r.detail,
                         "at": iso(r.created_at)} for r in rows]}
