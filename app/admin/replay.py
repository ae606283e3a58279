"""Replays, exports and dice statistics.

GET  /api/games/{id}/replay   the replay bundle: every stored event (with its status:
                              effective | undone | superseded, its die index for a roll,
                              the frame it shows) and the frames (the state after each
                              decision: the first in full, then what changed)
GET  /api/games/{id}/export   one JSON file: header, every event with its hashes, the
                              chain head, the final state's hash, and the seed once revealed
POST /api/replay/file         an export file in, its verification and replay bundle out
                              (no account needed; nothing is stored)
GET  /api/games/{id}/dice     dice statistics of a game;  GET /api/users/{name}/dice: a player's
Pages (app.http.pages): /games/{id}/replay (the viewer) and /replay (open an exported file).

Who may replay: everyone, any game, up to now: the events are public to every watcher, so
the states after them tell nothing new (the game page's look back uses the bundle, for
watchers too). The seed stays secret until the game ends.
"""
from __future__ import annotations

import json
import time
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy import or_, select

import rules_engine
from rules_engine.record import (
    EXPORT_FORMAT,
    Stepper,
    chain_hashes,
    check_chain,
    fold,
    header_hash,
    rest_points,
    utc_stamp,
)
from rules_engine.verify import state_sha256, verify_record

from ..core.clock import iso
from ..core.errors import ApiError, not_found
from ..games.board import client_map
from ..games.records import state_delta
from ..games.service import GameService
from ..i18n import N_
from ..models import User, table, utcnow
from ..store.events import T_GAMES, load_game, stored_events

T_USERS = table(User)
router = APIRouter(tags=["replay"])
REVEALED = ("finished", "aborted")  # the secret seed is shown once a game is over
MAX_FILE = 32 * 1024 * 1024


# ----------------------------------------------------------------------------- reading
def _load(request: Request, gid: str) -> tuple[Any, list[dict], dict]:
    svc: GameService = request.app.state.games
    with svc.db.read() as s:
        game = load_game(s, gid)
        if game is None:
            raise not_found()
        evs = stored_events(s, gid)
        names = dict(s.execute(select(T_USERS.c.id, T_USERS.c.username).where(
            T_USERS.c.id.in_([u for u in (game.union_user_id, game.confederate_user_id) if u]))).all())
    info = {"id": game.id, "scenario": game.scenario, "options": game.options, "mode": game.mode,
            "status": game.status, "result": game.result, "seq": game.seq,
            "seats": {"union": names.get(game.union_user_id), "confederate": names.get(game.confederate_user_id)},
            "header": game.header, "seed_commitment": game.header.get("seed_commitment"),
            "seed": game.seed if game.status in REVEALED else None, "chain_head": game.chain_head,
            "finished_at": iso(game.finished_at), "created_at": iso(game.created_at)}
    return game, evs, info


# ----------------------------------------------------------------------------- bundle
def build_bundle(game_id: str, header: dict, events: list[dict]) -> dict:
    """Frames (state after each decision) and the events annotated for the viewer."""
    st = Stepper(header)
    rests = rest_points(events)
    f = fold(events)
    frames: list[dict] = []
    prev = None
    pending: list[dict] = []
    out_events: list[dict] = []
    for ev in events:
        st.push(ev)
        pending.append(ev)
        if ev["seq"] in rests:
            st.settle()
            state = st.game.state()
            if prev is None:
                frames.append({"full": state})
            elif state != prev:
                frames.append(state_delta(prev, state))
            prev = state
            idx = len(frames) - 1
            for p in pending:
                o = {"seq": p["seq"], "source": p["source"], "type": p["type"], "actor": p["actor"],
                     "at": utc_stamp(p["at"]), "data": p["data"], "status": f.status.get(p["seq"], "effective"),
                     "frame": idx, "turn": state["turn"], "phase": state["phase"]}
                if p["seq"] in f.roll_index:
                    o["roll_index"] = f.roll_index[p["seq"]]
                out_events.append(o)
            pending = []
    return {"events": out_events, "frames": frames, "taken_back": f.taken_back,
            "map": client_map(st.game.engine_version)}


class BundleCache:
    """Bundles of games by (id, seq): a replay is computed once per new seq."""

    def __init__(self, size: int = 32):
        self.size = size
        self._d: OrderedDict = OrderedDict()

    def get(self, key, make):
        v = self._d.get(key)
        if v is None:
            v = make()
            self._d[key] = v
            while len(self._d) > self.size:
                self._d.popitem(last=False)
        else:
            self._d.move_to_end(key)
        return v


_bundles = BundleCache()


def _json(obj: Any, request: Request, filename: str | None = None) -> Response:
    """Compact JSON, gzipped when the client accepts it (long games are a few MB)."""
    body = json.dumps(obj, separators=(",", ":")).encode("utf-8")
    headers = {"Cache-Control": "no-store"}
    if filename:
        headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    if len(body) > 4096 and "gzip" in request.headers.get("accept-encoding", ""):
        import gzip
        body = gzip.compress(body, 5)
        headers["Content-Encoding"] = "gzip"
        headers["Vary"] = "Accept-Encoding"
    return Response(body, media_type="application/json", headers=headers)


@router.get("/api/games/{game_id}/replay")
def replay_bundle(game_id: str, request: Request):
    game, evs, info = _load(request, game_id)
    t0 = time.perf_counter()
    key = (game_id, game.seq, game.chain_head)
    body = _bundles.get(key, lambda: build_bundle(game_id, game.header, evs))
    problems = check_chain(game_id, game.header, evs, game.chain_head)
    out = {"game": info, **body, "chain_ok": not problems, "chain_problems": problems,
           "dice": dice_stats_of(evs, game), "build_ms": round((time.perf_counter() - t0) * 1000, 1)}
    return _json(out, request)


# ----------------------------------------------------------------------------- export
def export_record(game, evs: list[dict], info: dict) -> dict:
    hashes = chain_hashes(game.id, game.header, evs)
    f = fold(evs)
    final = rules_engine.replay(game.header, f.effective)
    return {"format": EXPORT_FORMAT, "game_id": game.id, "exported_at": utc_stamp(utcnow()),
            "scenario": game.scenario, "options": game.options, "mode": game.mode, "status": game.status,
            "result": game.result, "seats": info["seats"], "header": game.header,
            "header_hash": header_hash(game.id, game.header), "chain_head": game.chain_head,
            "events": [{"seq": e["seq"], "source": e["source"], "type": e["type"], "actor": e["actor"],
                        "at": utc_stamp(e["at"]), "data": e["data"], "prev_hash": e["prev_hash"], "hash": h}
                       for e, h in zip(evs, hashes, strict=True)],
            "state_sha256": state_sha256(final),
            "seed": game.seed if game.status in REVEALED else None,
            "verify": "python -m rules_engine verify this-file.json (see docs/dice.md)"}


@router.get("/api/games/{game_id}/export")
def export_game(game_id: str, request: Request):
    game, evs, info = _load(request, game_id)
    return _json(export_record(game, evs, info), request, filename=f"ahd-{game_id}-seq{game.seq}.json")


#: An export file nests a few levels deep (events, their data, a battle's units);
#: far deeper JSON is not one, and would exhaust the recursion of whatever walks it.
MAX_NESTING = 32


def _shallow(value: object, limit: int = MAX_NESTING) -> bool:
    """True if ``value`` nests lists and objects at most ``limit`` deep (walked
    without recursion)."""
    todo = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 > limit:
                    return False
                todo.append((child, depth + 1))
    return True


@router.post("/api/replay/file")
async def replay_file(request: Request):
    """Check an exported game and return its replay bundle. No account; nothing stored."""
    raw = await request.body()
    if len(raw) > MAX_FILE:
        raise ApiError(413, N_("that file is too large"), "too_large")
    try:
        rec = json.loads(raw)
        if not _shallow(rec):
            raise ValueError
        header, evs, gid = rec["header"], rec["events"], rec.get("game_id", "")
        if not isinstance(evs, list) or not evs or "seq" not in evs[0]:
            raise ValueError
    except (ValueError, KeyError, TypeError, RecursionError):
        raise ApiError(422, N_("this is not a game exported by this site ({export})"), "invalid_request",
                       {"export": "GET /api/games/{id}/export"}) from None

    def work():
        try:
            problems = verify_record(rec)
        except Exception as exc:  # noqa: BLE001 - a damaged file must give an answer, not a 500
            problems = [f"the file could not be checked: {exc}"]
        try:
            body = build_bundle(gid, header, evs)
        except Exception as exc:  # noqa: BLE001
            raise ApiError(422, N_("the file cannot be replayed: {reason}"), "invalid_request",
                           {"reason": exc}) from None
        info = {"id": gid, "scenario": rec.get("scenario", header.get("scenario")), "options": header.get("options"),
                "status": rec.get("status"), "result": rec.get("result"), "seats": rec.get("seats") or {},
                "header": header, "seed_commitment": header.get("seed_commitment"), "seed": rec.get("seed"),
                "chain_head": rec.get("chain_head"), "seq": evs[-1]["seq"], "from_file": True}

        class _G:  # what dice_stats_of needs
            union_user_id = confederate_user_id = None
        return {"game": info, **body, "verified": not problems, "problems": problems,
                "chain_ok": not any("chain" in p or "hash" in p or "missing" in p or "edited" in p for p in problems),
                "dice": dice_stats_of(evs, _G)}
    return _json(await request.app.state.games.call(work), request)


# ----------------------------------------------------------------------------- dice statistics
def _empty() -> dict:
    return {"rolls": 0, "faces": [0] * 6, "sum": 0, "shots": 0, "hits": 0, "expected_hits": 0.0,
            "by_purpose": {}}


def _add(acc: dict, d: dict) -> None:
    v = d.get("value")
    if not isinstance(v, int) or not 1 <= v <= 6:
        return
    acc["rolls"] += 1
    acc["faces"][v - 1] += 1
    acc["sum"] += v
    p = d.get("purpose", "?")
    acc["by_purpose"][p] = acc["by_purpose"].get(p, 0) + 1
    if p == "fire" and isinstance(d.get("need"), int):
        acc["shots"] += 1
        acc["hits"] += 1 if v <= d["need"] else 0
        acc["expected_hits"] += min(max(d["need"], 0), 6) / 6


def _finish(acc: dict) -> dict:
    n = acc["rolls"]
    acc["mean"] = round(acc["sum"] / n, 3) if n else None
    exp = n / 6
    # Pearson's chi-square against a fair die (5 degrees of freedom: 11.07 is the 5% level)
    acc["chi_square"] = round(sum((c - exp) ** 2 / exp for c in acc["faces"]), 2) if n else None
    acc["expected_hits"] = round(acc["expected_hits"], 2)
    acc["luck"] = round(acc["hits"] - acc["expected_hits"], 2) if acc["shots"] else None
    del acc["sum"]
    return acc


def dice_stats_of(evs: list[dict], game) -> dict:
    """Effective rolls of one game, per side and in all (superseded rolls are left out)."""
    f = fold(evs)
    acc = {"union": _empty(), "confederate": _empty(), "all": _empty()}
    for d in f.effective:
        if d.get("type") == "roll":
            _add(acc["all"], d)
            if d.get("side") in acc:
                _add(acc[d["side"]], d)
    return {k: _finish(v) for k, v in acc.items()}


@router.get("/api/games/{game_id}/dice")
def game_dice(game_id: str, request: Request):
    game, evs, info = _load(request, game_id)
    return {"game_id": game_id, "seats": info["seats"], "dice": dice_stats_of(evs, game)}


@router.get("/api/users/{username}/dice")
def player_dice(username: str, request: Request):
    """How the dice fell for a player, over every game they sat in."""
    svc: GameService = request.app.state.games
    acc = _empty()
    games = 0
    with svc.db.read() as s:
        row = s.execute(select(T_USERS.c.id, T_USERS.c.username).where(
            T_USERS.c.username_key == username.lower())).first()
        if row is None:
            raise not_found("player")
        uid = row.id
        c = T_GAMES.c
        for g in s.execute(select(c.id, c.status, c.union_user_id, c.confederate_user_id)
                           .where(or_(c.union_user_id == uid, c.confederate_user_id == uid))).all():
            sides = {sd for sd, u in (("union", g.union_user_id), ("confederate", g.confederate_user_id)) if u == uid}
            games += 1
            for d in fold(stored_events(s, g.id)).effective:
                if d.get("type") == "roll" and d.get("side") in sides:
                    _add(acc, d)
    return {"username": row.username, "games": games, "dice": _finish(acc)}
