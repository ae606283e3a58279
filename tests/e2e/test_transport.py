"""Browser: pages are kept live by websockets, never by polling; static files come under
content-hashed names (cached for a year); a game page loaded again fetches only the
events it has not kept; spectators are invited to log in to chat."""
from __future__ import annotations

import random
import re
import time
import uuid

import httpx

from .wire import WireMeter

VIEW = {"width": 1366, "height": 900}
PASSWORD = "password123"
HASHED = re.compile(r"/static/[\w.-]+\.[0-9a-f]{10}\.\w+$")
BOARD = """() => [document.body.dataset.seq, document.getElementById('log').innerText,
  [...document.querySelectorAll('#map [data-unit]')].map(g => g.dataset.unit + '@' + g.dataset.loc).sort().join('|')]"""


class Player:
    def __init__(self, base: str):
        self.name = "t" + uuid.uuid4().hex[:10]
        r = httpx.post(base + "/api/auth/register", json={"username": self.name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.http = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {r.json()['token']}"}, timeout=30)

    def browser_page(self, browser, base):
        ctx = browser.new_context(viewport=VIEW)
        r = ctx.request.post(base + "/api/auth/login", data={"username": self.name, "password": PASSWORD})
        assert r.ok, r.text()
        return ctx, ctx.new_page()


def new_game(base: str) -> tuple[Player, Player, str]:
    a, b = Player(base), Player(base)
    gid = a.http.post("/api/games", json={"scenario": "1861", "side": "union", "mode": "live"}).json()["id"]
    assert b.http.post(f"/api/games/{gid}/join", json={}).status_code == 200
    return a, b, gid


def play(seats: dict, gid: str, rng: random.Random, decisions: int, until_turn_passes: bool = False) -> dict:
    """Random legal decisions over HTTP; the game afterwards."""
    g = seats["union"].http.get(f"/api/games/{gid}").json()
    first = g["to_act"]
    for _ in range(decisions):
        if g["status"] != "active" or (until_turn_passes and g["to_act"] != first):
            break
        p = seats[g["to_act"]]
        acts = p.http.get(f"/api/games/{gid}/legal").json()["actions"]
        assert p.http.post(f"/api/games/{gid}/actions", json={"action": rng.choice(acts)}).status_code == 200
        g = seats["union"].http.get(f"/api/games/{gid}").json()
    return g


def http_requests(page) -> list[str]:
    """Every HTTP request the page makes from now on (websockets are not requests)."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url))
    return seen


def ready(page):
    page.wait_for_function("() => document.body.dataset.ready === '1' && document.body.dataset.seq !== undefined",
                           timeout=20000)


def test_chat_moves_and_the_waiting_badge_arrive_without_polling(server, browser):
    a, b, gid = new_game(server)
    seats = {"union": a, "confederate": b}
    ctx, page = b.browser_page(browser, server)
    page.goto(f"{server}/games/{gid}")
    ready(page)
    page.wait_for_timeout(500)  # the page's one-off reads (history, chat) are done
    requests = http_requests(page)
    start = time.monotonic()
    a.http.post(f"/api/games/{gid}/chat", json={"channel": "players", "body": "Pushed, not polled"})
    page.click("#t-chat")
    page.wait_for_selector("#chat-list li:has-text('Pushed, not polled')", timeout=5000)
    g = play(seats, gid, random.Random(7), 100, until_turn_passes=True)
    page.wait_for_function(f"() => +document.body.dataset.seq === {g['seq']}", timeout=10000)
    want = "1" if g["to_act"] == "confederate" else "0"
    page.wait_for_function(f"() => document.querySelector('#notify-badge .badge').textContent === '{want}'", timeout=10000)
    page.wait_for_timeout(max(0, 5000 - (time.monotonic() - start) * 1000))
    assert requests == [], f"the game page polled: {requests}"
    # the lobby and the notices page, idle for five seconds: no request either
    for path in ("/", "/notifications"):
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        requests.clear()
        page.wait_for_timeout(5000)
        assert requests == [], f"{path} polled: {requests}"
    ctx.close()


def test_static_files_are_hashed_and_cached_for_a_year(server, browser):
    _, _, gid = new_game(server)
    ctx = browser.new_context(viewport=VIEW)
    page = ctx.new_page()
    statics = []
    page.on("response", lambda r: statics.append(r) if "/static/" in r.url else None)
    page.goto(f"{server}/games/{gid}")
    ready(page)
    page.wait_for_load_state("networkidle")
    urls = {r.url for r in statics}
    names = {re.sub(r"\.[0-9a-f]{10}\.", ".", u.rsplit("/", 1)[1]) for u in urls}
    # the modules game.js imports, and the map's background, all under hashed names
    assert {"game.js", "map.js", "api.js", "chat.js", "history.js", "site.css", "map-background.svg"} <= names
    assert all(HASHED.search(u) for u in urls), urls
    for r in statics:
        assert r.status == 200 and r.headers["cache-control"] == "public, max-age=31536000, immutable"
    # a repeat visit loads none of them again
    wire = WireMeter(ctx, page)
    page.goto(f"{server}/games/{gid}")
    ready(page)
    page.wait_for_load_state("networkidle")
    assert wire.fetched("/static/") == [] and wire.total("/static/") == 0
    ctx.close()


def events_read(page, wire: WireMeter, action) -> tuple[int, list[int]]:
    """Bytes on the wire of the events the page reads while `action` (re)loads it, and how
    many events each of those reads returned."""
    responses: list = []
    collect = lambda r: responses.append(r) if "/events" in r.url else None  # noqa: E731
    page.on("response", collect)
    wire.reset()
    action()
    ready(page)
    page.wait_for_load_state("networkidle")
    page.remove_listener("response", collect)
    return wire.total("/events"), [len(r.json()["events"]) for r in responses]


def test_a_second_load_fetches_only_the_new_events_and_shows_the_same_board(server, browser):
    a, b, gid = new_game(server)
    seats = {"union": a, "confederate": b}
    play(seats, gid, random.Random(21), 120)
    ctx = browser.new_context(viewport=VIEW)
    page = ctx.new_page()
    wire = WireMeter(ctx, page)
    first, first_reads = events_read(page, wire, lambda: page.goto(f"{server}/games/{gid}"))
    board = page.evaluate(BOARD)
    again, again_reads = events_read(page, wire, lambda: page.reload())
    assert int(board[0]) > 50  # a long game (random play may end it early, at no fixed point)
    assert first_reads == [int(board[0])]
    assert page.evaluate("window.__hd.eventsReused") == int(board[0])  # every event it had
    # the reload reads back only the last kept event (to check it still matches): headers
    # and one event, against the whole game the first time
    assert again_reads == [1] and again < first, (first, again)
    assert page.evaluate(BOARD) == board
    # more moves, then a load that adds them to the kept events: the same as a fresh load
    g = play(seats, gid, random.Random(22), 10)
    events_read(page, wire, lambda: page.reload())
    page.wait_for_function(f"() => +document.body.dataset.seq === {g['seq']}")
    fresh = browser.new_context(viewport=VIEW).new_page()
    fresh.goto(f"{server}/games/{gid}")
    ready(fresh)
    fresh.wait_for_function("() => document.getElementById('log').children.length > 0")
    assert page.evaluate(BOARD) == fresh.evaluate(BOARD)
    # kept events that do not match the server's (here: tampered with) are dropped for a full load
    page.evaluate("""(gid) => new Promise((ok) => { const r = indexedDB.open('hd-history', 1);
      r.onsuccess = () => { const tx = r.result.transaction('games', 'readwrite'); const st = tx.objectStore('games');
        const g = st.get(gid); g.onsuccess = () => { const ev = g.result; ev[ev.length - 1].prev_hash = 'forged';
          st.put(ev, gid); }; tx.oncomplete = () => { r.result.close(); ok(); }; }; })""", gid)
    full, full_reads = events_read(page, wire, lambda: page.reload())
    assert page.evaluate("window.__hd.eventsReused") == 0 and full > first
    assert full_reads == [1, g["seq"]]  # the check that failed, then the whole game
    assert page.evaluate(BOARD) == fresh.evaluate(BOARD)
    ctx.close()


def test_spectators_are_invited_to_log_in_to_chat(server, browser):
    _, _, gid = new_game(server)
    ctx = browser.new_context(viewport=VIEW)
    page = ctx.new_page()
    page.goto(f"{server}/games/{gid}")
    ready(page)
    page.click("#t-chat")
    link = page.get_by_role("link", name="Log in to chat")
    assert link.get_attribute("href") == f"/login?next=%2Fgames%2F{gid}"
    assert page.locator("#chat-form").is_hidden() and page.locator("#notice").is_hidden()
    # a logged-in spectator writes in the spectators' chat
    fan = Player(server)
    ctx2, page2 = fan.browser_page(browser, server)
    page2.goto(f"{server}/games/{gid}")
    ready(page2)
    page2.click("#t-chat")
    assert "spectators' chat" in page2.locator("#chat-who").inner_text()
    page2.fill("#chat-input", "Watching closely")
    page2.click("#chat-form button")
    page2.wait_for_selector("#chat-list li:has-text('Watching closely')")
    # during play the spectators' chat is for logged-in watchers: the anonymous one is
    # told why, keeps the way to log in, and does not see the message
    page.wait_for_timeout(1000)
    assert page.locator("#chat-list li:has-text('Watching closely')").count() == 0
    assert "log in" in page.locator("#chat-who").inner_text().lower()
    assert page.get_by_role("link", name="Log in to chat").count() == 1
    ctx.close()
    ctx2.close()
