"""Disputes: a player points at an event; an administrator rewinds, adjudicates or
annuls, with a reason, as events; players are told; the audit log keeps who, when, why;
every admin endpoint refuses everyone else."""
from __future__ import annotations

import random
import re

import httpx
import pytest
import rules_engine

from .helpers import Player, events, new_match, play_random
from .replay_helpers import make_admin, resign


@pytest.fixture(scope="module")
def admins():
    return {}


def _admin(server, admins) -> Player:
    if server.base not in admins:
        admins[server.base] = make_admin(server, cli=True)
    return admins[server.base]


def _rest_seq_before(evs: list[dict], seq: int) -> int:
    """The last seq <= seq where the game rested (the next event starts a decision)."""
    best = None
    for i, e in enumerate(evs):
        nxt = evs[i + 1] if i + 1 < len(evs) else None
        if e["seq"] <= seq and nxt and (nxt["source"] == "server" or nxt["data"].get("type") == "action") \
                and any(x["type"] == "start" for x in evs[:i + 1]):
            best = e["seq"]
    return best


def test_dispute_rewind_and_play_resumes_with_superseded_history(server, admins, tmp_path):
    a, b, gid = new_match(server.base)
    seats = {"union": a, "confederate": b}
    play_random(server.base, seats, gid, random.Random(8), 60)
    if a.game(gid)["status"] != "active":
        pytest.skip("the random game ended early")
    evs = events(server.base, gid)
    roll = [e for e in evs if e["type"] == "roll"][-1]
    r = a.http.post(f"/api/games/{gid}/disputes", json={"seq": roll["seq"], "text": "That roll cannot be right."})
    assert r.status_code == 201, r.text
    dispute = r.json()
    spectator = Player(server.base)
    assert spectator.http.post(f"/api/games/{gid}/disputes", json={"seq": 3, "text": "I am not playing"}).status_code == 403

    admin = _admin(server, admins)
    queue = admin.http.get("/api/admin/disputes").json()["disputes"]
    assert any(d["id"] == dispute["id"] and d["seq"] == roll["seq"] for d in queue)

    back_to = _rest_seq_before(evs, roll["seq"] - 1)
    before = a.game(gid)
    # a reason is required; a seq inside a decision is refused
    assert admin.http.post(f"/api/admin/games/{gid}/rewind", json={"seq": back_to, "reason": ""}).status_code == 422
    r = admin.http.post(f"/api/admin/games/{gid}/rewind",
                        json={"seq": back_to, "reason": "the disputed roll is re-examined", "dispute_id": dispute["id"]})
    assert r.status_code == 200, r.text
    rew = r.json()
    assert rew["event"]["type"] == "rewind" and rew["event"]["data"]["back_to"] == back_to
    after = a.game(gid)
    # the state is the one at back_to; nothing was deleted
    evs2 = events(server.base, gid)
    assert [e["seq"] for e in evs2] == list(range(1, before["seq"] + 2))
    at_k = [e for e in evs2 if e["seq"] <= back_to]
    from rules_engine.record import fold
    want = rules_engine.replay(after["header"], fold(at_k).effective).state()
    assert after["state"] == want
    # the replay shows the later events as superseded
    bundle = a.http.get(f"/api/games/{gid}/replay").json()
    status = {e["seq"]: e["status"] for e in bundle["events"]}
    assert all(status[s] == "superseded" for s in range(back_to + 1, before["seq"] + 1)
               if evs2[s - 1]["source"] == "engine")
    assert status[roll["seq"]] == "superseded"
    # the dispute is resolved, players are told, the audit log has it
    d = a.http.get(f"/api/games/{gid}/disputes").json()["disputes"][0]
    assert d["status"] == "resolved" and d["decision"] == "rewind" and d["decision_seq"] == rew["seq"]
    for p in (a, b):
        notes = p.http.get("/api/site-notices").json()["notices"]
        assert any(n["kind"] == "admin_rewind" and n["game_id"] == gid for n in notes)
    audit = admin.http.get(f"/api/admin/audit?game_id={gid}").json()["actions"]
    assert audit[0]["action"] == "rewind" and audit[0]["admin"] == admin.username
    assert audit[0]["reason"] == "the disputed roll is re-examined" and audit[0]["at"]
    # play resumes from the rewound point
    n = play_random(server.base, seats, gid, random.Random(9), 20)
    assert n > 0
    # the whole record, with its superseded dice, still verifies once the game is over
    if a.game(gid)["status"] == "active":
        resign(a, gid)
    rec = httpx.get(f"{server.base}/api/games/{gid}/export").json()
    from rules_engine.verify import verify_record
    assert verify_record(rec) == []
    assert any(e["type"] == "rewind" for e in rec["events"])


def test_adjudicate_annul_dismiss(server, admins):
    admin = _admin(server, admins)
    a, b, gid = new_match(server.base)
    play_random(server.base, {"union": a, "confederate": b}, gid, random.Random(5), 10)
    r = admin.http.post(f"/api/admin/games/{gid}/adjudicate", json={"winner": "confederate", "reason": "the Union player left"})
    assert r.status_code == 200, r.text
    g = a.game(gid)
    assert g["status"] == "finished" and g["result"]["winner"] == "confederate" and g["result"]["adjudicated"]
    assert events(server.base, gid)[-1]["type"] == "adjudicate"
    # a finished game cannot be rewound (its seed is revealed), but it can be annulled
    assert admin.http.post(f"/api/admin/games/{gid}/rewind", json={"seq": 4, "reason": "try it"}).status_code == 409
    r = admin.http.post(f"/api/admin/games/{gid}/annul", json={"reason": "both players asked"})
    assert r.status_code == 200 and a.game(gid)["result"]["annulled"]
    # a dispute dismissed with a reason
    c, d, gid2 = new_match(server.base)
    dis = c.http.post(f"/api/games/{gid2}/disputes", json={"seq": 2, "text": "I did not mean to join"}).json()
    r = admin.http.post(f"/api/admin/disputes/{dis['id']}/dismiss", json={"reason": "joining is not disputable"})
    assert r.status_code == 200
    assert c.http.get(f"/api/games/{gid2}/disputes").json()["disputes"][0]["status"] == "dismissed"
    acts = [x["action"] for x in admin.http.get("/api/admin/audit").json()["actions"]]
    assert {"adjudicate", "annul", "dismiss", "make-admin"} <= set(acts)


def test_non_admins_are_refused_on_every_admin_endpoint(server, admins):
    a, b, gid = new_match(server.base)
    spec = httpx.get(server.base + "/openapi.json").json()
    admin_paths = [(p, m) for p, ops in spec["paths"].items() for m in ops if p.startswith("/api/admin")]
    assert len(admin_paths) >= 9
    plain = Player(server.base)
    bodies = {"post": {"reason": "because", "seq": 3, "winner": "union"}}
    for path, method in admin_paths:
        url = re.sub(r"\{[a-z_]+\}", "1", path.replace("{game_id}", gid))
        body = bodies.get(method)
        anon = httpx.request(method.upper(), server.base + url, json=body)
        assert anon.status_code == 401, (path, anon.text)
        for who in (plain, a):
            r = who.http.request(method.upper(), url, json=body)
            assert r.status_code == 403, (path, r.text)
    assert a.game(gid)["status"] == "active"
    page = plain.http.get("/admin")
    assert page.status_code == 403
