"""The browser client's HTML pages (Jinja2, autoescaped) and static files.

Pages: lobby `/`, `/register`, `/login`, `/logout`, `/new` (create a game), `/games/{id}`
(the game: SVG map + ES modules in static/), `/settings`. Every state change goes through
the JSON API (app.http.api) and the game websocket (app.realtime.socket); these pages only render.
app.main mounts /static from STATIC_DIR.
"""
from __future__ import annotations

import functools
from datetime import datetime
from pathlib import Path

import jinja2
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from markupsafe import Markup, escape
from sqlalchemy import select

import rules_engine
from rules_engine.data import pieces
from rules_engine.map import load_scenario

from ..accounts.auth import get_accounts, optional_user
from ..accounts.sessions import list_sessions
from ..bots.challenges import Challenges
from ..computer.levels import level_choices
from ..core.clock import aware
from ..games.board import client_map
from ..guard.names import safe_next
from ..i18n import LANGUAGES, N_, Translator, client_words, translator
from ..i18n.catalogs import fill
from ..notices.outbox import T_PREFS
from ..notices.readertime import short_when, time_zone_names
from ..notices.words import words_data
from ..store.events import load_game
from .assets import Manifest
from .refusals import language_of

ROOT = Path(__file__).resolve().parents[2]
STATIC_DIR = ROOT / "static"
env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT / "templates")), autoescape=True,
                         trim_blocks=True, lstrip_blocks=True)
# the game and replay pages render events with the server's sentences (a JSON data element)
env.globals["game_words"] = words_data
# the page scripts' own words, on pages without the game's words (static/i18n.js)
env.globals["client_words"] = lambda lang: {"lang": lang, "ui": client_words(lang)}
# English for macros imported without the page's context (each page passes its reader's)
env.globals.update(_=translator("en"), gettext=translator("en"), ngettext=translator("en").plural)
router = APIRouter(include_in_schema=False)


def html_fill(sentence: str, **values) -> Markup:
    """A translated sentence with markup in its {places} (a link, a name in bold): the
    sentence and plain values are escaped, values made in the template (Markup) are kept,
    and the translation chooses where each goes."""
    return Markup(fill(str(escape(sentence)), {k: escape(v) for k, v in values.items()}))


env.globals["html_fill"] = html_fill


@functools.cache
def assets() -> Manifest:
    """static/ under content-hashed names, read once per process."""
    return Manifest(STATIC_DIR)


env.globals["static_url"] = lambda name: assets().url(name)

SIDE_NAMES = {"union": N_("Union"), "confederate": N_("Confederate")}
MODE_NAMES = {"live": N_("Live"), "async": N_("By turn")}
# how the server's own ways of ending a game read after the result ("Draw by agreement");
# the engine's victory reasons are sentences of their own
RESULT_REASONS = {"resignation": N_("by resignation"), "agreement": N_("by agreement")}
# a game's status where a list shows it ("open" waits for a second player)
STATUS_NAMES = {"open": N_("waiting for an opponent"), "active": N_("in play"), "finished": N_("finished"),
                "aborted": N_("aborted")}


# ---------------------------------------------------------------------------- data
@functools.lru_cache(maxsize=1)
def catalog() -> list[dict]:
    return rules_engine.options_catalog()


def reader_language(request: Request, user) -> str:
    """The account's saved language, else the `hd_lang` cookie, else Accept-Language, else English."""
    return language_of(request, user)


def words_context(t: Translator) -> dict:
    """What every page template gets for its words in the reader's language."""
    return {"lang": t.lang, "languages": LANGUAGES, "_": t, "gettext": t, "ngettext": t.plural,
            "side_names": {k: t(v) for k, v in SIDE_NAMES.items()},
            "mode_names": {k: t(v) for k, v in MODE_NAMES.items()},
            "result_reasons": {k: t(v) for k, v in RESULT_REASONS.items()},
            "status_names": {k: t(v) for k, v in STATUS_NAMES.items()}}


def reader_zone(request: Request, user) -> str:
    """The time zone the reader chose in the notice settings; UTC for guests and by default."""
    if user is None:
        return "UTC"
    with request.app.state.db.read() as conn:
        zone = conn.execute(select(T_PREFS.c.time_zone).where(T_PREFS.c.user_id == user.id)).scalar()
    return zone or "UTC"


def moment_words(request: Request, user, lang: str):
    """`when(moment)` for the templates: a stored time (a datetime or its ISO text) in the
    reader's language and time zone. The zone is read once, and only by a page that shows a time."""
    zone = functools.cache(lambda: reader_zone(request, user))

    def when(moment: datetime | str | None) -> str:
        if not moment:
            return ""
        value = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
        return short_when(aware(value), zone(), lang)
    return when


def translated_options(t: Translator) -> list[dict]:
    """The options catalogue with its titles, descriptions and reasons in the reader's language."""
    return [{**o, **{k: t(o[k]) for k in ("title", "description", "reason") if o.get(k)}} for o in catalog()]


def translated_scenarios(t: Translator) -> list[dict]:
    out = []
    for sid in rules_engine.SCENARIO_IDS:
        sc = load_scenario(sid)
        start = sc.get("start") or {}
        name = t(str(sc.get("name") or sid))
        label = t("{scenario} (from {month}/{year})", scenario=name, month=f"{start.get('month', 0):02d}",
                  year=start.get("year", "")) if start else name
        out.append({"id": sid, "label": label})
    return out


def _auth(request: Request) -> tuple:
    accounts = get_accounts(request)
    auth = accounts.from_request(request)
    csrf = accounts.csrf_for(auth.session_token) if auth.user and auth.session_token else ""
    return auth.user, csrf


def render(request: Request, name: str, status: int = 200, **ctx) -> HTMLResponse:
    user, csrf = _auth(request)
    lang = reader_language(request, user)
    words = words_context(translator(lang))
    html = env.get_template(name).render(request=request, user=user, csrf=csrf, path=request.url.path,
                                         when=moment_words(request, user, lang), **{**words, **ctx})
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})


# ---------------------------------------------------------------------------- pages
@router.get("/", response_class=HTMLResponse)
def lobby(request: Request):
    user, _ = _auth(request)
    svc, hub = request.app.state.games, request.app.state.hub
    lists = {"mine": svc.lobby(user, "mine") if user else [], "open": svc.lobby(user, "open"),
             "live": svc.lobby(user, "live"), "finished": svc.lobby(user, "finished", 20)}
    for games in lists.values():
        for g in games:
            g["watchers"] = hub.watchers(g["id"])
    lists["open"] = [g for g in lists["open"] if not g["your_sides"]]
    incoming = [c for c in Challenges(svc).mine(user) if c["target"] == user.username] if user else []
    rematches = svc.rematch_offers(user) if user else []
    t = translator(reader_language(request, user))
    return render(request, "lobby.html", scenarios=translated_scenarios(t), options=translated_options(t),
                  challenges=incoming, rematches=rematches,
                  levels=level_choices(t, request.app.state.settings.computer_ladder_file), **lists)


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, next: str = "/", reset: int = 0):
    return render(request, "auth.html", mode="login", next=safe_next(next), reset=bool(reset))


@router.get("/register", response_class=HTMLResponse)
def register_page(request: Request, next: str = "/"):
    return render(request, "auth.html", mode="register", next=safe_next(next))


@router.get("/logout", response_class=HTMLResponse)
def logout_page(request: Request):
    return render(request, "logout.html")


@router.get("/new", response_class=HTMLResponse)
def new_game_page(request: Request):
    user, _ = _auth(request)
    if user is None:
        return RedirectResponse("/login?next=/new", status_code=303)
    t = translator(reader_language(request, user))
    balance = {"neutral": t(N_("neutral")), "pro-union": t(N_("pro union")),
               "pro-confederate": t(N_("pro confederate"))}
    return render(request, "new_game.html", scenarios=translated_scenarios(t), options=translated_options(t),
                  balance_words=balance)


@router.get("/settings", response_class=HTMLResponse)
def settings_page(request: Request, password: str = ""):
    auth = get_accounts(request).from_request(request)
    if auth.user is None:
        return RedirectResponse("/login?next=/settings", status_code=303)
    return render(request, "settings.html", time_zones=time_zone_names(), changed=password == "changed",
                  sessions=list_sessions(request.app.state.db, auth.user.id, auth.token_id))


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, game_id: str, invite: str | None = None):
    user, _ = _auth(request)
    svc = request.app.state.games
    if svc.seats_of(game_id) is None:
        return render(request, "error.html", status=404, message=N_("There is no such game."))
    game = svc.get_game(game_id, user)
    engine = game.pop("state", {}).get("engine", rules_engine.ENGINE_VERSION)
    boot = {"game_id": game_id, "summary": game, "invite": invite,
            "user": {"id": user.id, "username": user.username} if user else None,
            "map": client_map(engine), "types": pieces()["types"],
            "options": {o["id"]: o["title"] for o in translated_options(translator(reader_language(request, user)))},
            # away this long, a player counts as gone (and may be replaced by the computer)
            "gone_after_s": round(request.app.state.settings.live_abandon_minutes * 60)}
    return render(request, "game.html", game=game, boot=boot,
                  gone_after_min=request.app.state.settings.live_abandon_minutes)



# ----------------------------------------------------------------------------- replays
def _replay_boot(request: Request, **extra) -> dict:
    user = optional_user(request)
    return {"map": client_map(), "types": pieces()["types"],
            "user": {"id": user.id, "username": user.username, "is_admin": bool(user.is_admin)} if user else None,
            **extra}


@router.get("/games/{game_id}/replay", response_class=HTMLResponse)
def replay_page(game_id: str, request: Request, seq: int | None = None):
    svc = request.app.state.games
    with svc.db.read() as s:
        game = load_game(s, game_id, hot=True)
    if game is None:
        return render(request, "error.html", status=404, message=N_("There is no such game."))
    return render(request, "replay.html", boot=_replay_boot(request, game_id=game_id, seq=seq), game_id=game_id)


@router.get("/replay", response_class=HTMLResponse)
def replay_file_page(request: Request):
    return render(request, "replay.html", boot=_replay_boot(request, game_id=None, seq=None), game_id=None)
