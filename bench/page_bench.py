"""Benchmark of the game page in Chromium (not a test): page weight and paint latency.

Starts `python -m app serve` on a fresh SQLite database (dice from the test seed, so the
same game every run), plays a long game over HTTP, then in Chromium at 1366x900 (Debian's
/usr/bin/chromium through Playwright), logged in as the Union player:

  * first load, bytes on the wire (headers + bodies as received, every HTTP request of
    the page: HTML, CSS, JS, SVG, the events), with gzip (as browsers ask) and without
    (the same browser sending `Accept-Encoding: identity`);
  * a repeat load in the same browser (warm cache: hashed static files are not asked
    for again; the events it has kept are not read again);
  * the websocket's first message (the snapshot), and what permessage-deflate would make
    of it (zlib, as an estimate: it is off by default);
  * the time from a websocket message arriving to the map painted: `performance.now()`
    when the message arrives, and again in the next requestAnimationFrame after the map
    was updated (window.__hd.latencies, static/game.js), over MOVES moves made by the two
    players over HTTP, one at a time; median and p95.

The machine's load average is printed beside the numbers.

    .venv/bin/python bench/page_bench.py                 # 150 decisions of history, 50 moves
    .venv/bin/python bench/page_bench.py --history 300 --moves 80 --json out.json
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from tests.e2e.wire import WireMeter  # noqa: E402
from tests.server.helpers import TEST_GAME_SEED, ServerProc, active_match_after  # noqa: E402

VIEW = {"width": 1366, "height": 900}
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
READY = "() => document.body.dataset.ready === '1' && document.body.dataset.seq !== undefined"


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, int(round(p / 100 * (len(xs) - 1)))))]


def login(browser, base: str, player, extra_headers: dict | None = None):
    ctx = browser.new_context(viewport=VIEW, extra_http_headers=extra_headers or {})
    r = ctx.request.post(base + "/api/auth/login", data={"username": player.username, "password": player.password})
    assert r.ok, r.text()
    page = ctx.new_page()
    return ctx, page, WireMeter(ctx, page)


def load(page, wire: WireMeter, url: str) -> dict:
    """Load (or reload) the game page; its bytes on the wire, by kind."""
    wire.reset()
    page.goto(url)
    page.wait_for_function(READY, timeout=30000)
    page.wait_for_load_state("networkidle")
    return {"total": wire.total(), "static": wire.total("/static/"), "events": wire.total("/events"),
            "html": wire.total(url), "requests": len(wire.requests), "from_network": len(wire.fetched())}


def page_weight(browser, base: str, player, url: str) -> dict:
    ctx, page, wire = login(browser, base, player)
    first = load(page, wire, url)
    repeat = load(page, wire, url)
    ctx.close()
    ctx, page, wire = login(browser, base, player, {"Accept-Encoding": "identity"})
    plain = load(page, wire, url)
    ctx.close()
    return {"first_gzip": first, "first_identity": plain, "repeat_warm": repeat}


def paint_latency(browser, base: str, seats: dict, gid: str, moves: int, seed: int) -> list[float]:
    ctx, page, _ = login(browser, base, seats["union"])
    page.goto(f"{base}/games/{gid}")
    page.wait_for_function(READY, timeout=30000)
    page.evaluate("window.__hd.latencies.length = 0")
    rng = random.Random(seed)
    for _ in range(moves):
        g = seats["union"].game(gid)
        if g["status"] != "active":
            break
        p = seats[g["to_act"]]
        lg = p.legal(gid)
        r = p.act(gid, rng.choice(lg["actions"]), expected_seq=lg["seq"])
        assert r.status_code == 200, r.text
        page.wait_for_function(f"() => +document.body.dataset.seq >= {r.json()['seq']}", timeout=15000)
        page.wait_for_timeout(30)  # the frame after the paint
    out = page.evaluate("window.__hd.latencies.slice()")
    ctx.close()
    return out


def snapshot_sizes(srv: ServerProc, player, gid: str) -> tuple[int, int]:
    """The websocket's first message (the snapshot) as sent, and deflated as permessage-deflate
    would send it (raw deflate, level 6: an estimate; it is off by default)."""
    with connect(f"{srv.ws_base}/ws/games/{gid}?token={player.token}") as ws:
        text = ws.recv(timeout=30)
    data = text.encode() if isinstance(text, str) else text
    deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
    return len(data), len(deflater.compress(data) + deflater.flush())


def kb(n: int) -> str:
    return f"{n / 1024:.1f} KB"


def report(w: dict, lat: list[float], snap: tuple[int, int], history: int) -> None:
    print(f"\ngame page with {history} decisions of history, Chromium {VIEW['width']}x{VIEW['height']}")
    print("| load | total on the wire | HTML | static files | events | requests (from network) |")
    print("|---|---|---|---|---|---|")
    for name, key in (("first, uncompressed", "first_identity"), ("first, gzip", "first_gzip"),
                      ("repeat, warm cache", "repeat_warm")):
        r = w[key]
        print(f"| {name} | {kb(r['total'])} | {kb(r['html'])} | {kb(r['static'])} | {kb(r['events'])} | "
              f"{r['requests']} ({r['from_network']}) |")
    print(f"websocket snapshot (not in the totals): {kb(snap[0])} as sent; {kb(snap[1])} deflated "
          "(permessage-deflate estimate)")
    if lat:
        print(f"message -> map painted over {len(lat)} moves: median {statistics.median(lat):.1f} ms, "
              f"p95 {pct(lat, 95):.1f} ms, max {max(lat):.1f} ms")
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--history", type=int, default=150, help="random decisions played before the page loads")
    ap.add_argument("--moves", type=int, default=50, help="moves whose paint latency is measured")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="page-bench-"))
    srv = ServerProc(f"sqlite:///{tmp / 'hd.sqlite3'}", log_dir=tmp, game_seed=TEST_GAME_SEED).start()
    try:
        a, b, gid = active_match_after(srv.base, args.history, args.seed)
        seats = {"union": a, "confederate": b}
        url = f"{srv.base}/games/{gid}"
        snap = snapshot_sizes(srv, a, gid)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            weight = page_weight(browser, srv.base, a, url)
            lat = paint_latency(browser, srv.base, seats, gid, args.moves, args.seed + 1)
            browser.close()
        report(weight, lat, snap, args.history)
        if args.json:
            Path(args.json).write_text(json.dumps({"weight": weight, "latencies_ms": lat, "snapshot": snap,
                                                   "loadavg": os.getloadavg()}, indent=1))
    finally:
        srv.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
