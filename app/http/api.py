"""HTTP API. Thin: parse, authenticate, call a service, shape the answer."""
from __future__ import annotations

import functools

from fastapi import APIRouter, Body, Depends, Query, Request, Response

import rules_engine

from ..accounts import security
from ..accounts.auth import Accounts, current_user, get_accounts, optional_user
from ..core.errors import ApiError, engine_refusal
from ..games.service import GameService
from ..guard.names import username_key
from ..i18n import N_
from ..models import User
from . import limits, refusals
from .language import language_at_registration
from .mailconfirm import send_verification
from .playbyturn import create_game_clock, rematch_clock
from .schemas import ActionIn, CreateGameIn, JoinIn, LoginIn, RegisterIn, TokenIn, UndoIn

router = APIRouter(prefix="/api")


def service(request: Request) -> GameService:
    return request.app.state.games


def _user_out(u: User) -> dict:
    return {"id": u.id, "username": u.username, "email": u.email, "is_admin": u.is_admin,
            "bot": u.kind == "bot", "language": u.language}


def _set_session(request: Request, response: Response, accounts: Accounts, token: str) -> str:
    settings = request.app.state.settings
    csrf = accounts.csrf_for(token)
    max_age = settings.session_days * 86400
    response.set_cookie(security.SESSION_COOKIE, token, max_age=max_age, httponly=True, samesite="lax",
                        secure=settings.secure_cookies, path="/")
    response.set_cookie(security.CSRF_COOKIE, csrf, max_age=max_age, httponly=False, samesite="lax",
                        secure=settings.secure_cookies, path="/")
    return csrf


# ----------------------------------------------------------------------------- auth
@router.post("/auth/register", status_code=201, tags=["auth"])
def register(body: RegisterIn, request: Request, response: Response):
    """Create an account and log it in (sets the session cookie, returns a token)."""
    limits.per_address(request, "register")
    accounts = get_accounts(request)
    language = language_at_registration(request, body.language)
    user = accounts.register(body.username, body.password, body.email, language)
    if user.email:  # confirm the address now, not only when the player finds the settings
        with request.app.state.db.write() as conn:
            send_verification(request, conn, user.id, user.email)
            conn.commit()
    token = accounts.issue(user, "session")
    csrf = _set_session(request, response, accounts, token)
    return {**_user_out(user), "user": _user_out(user), "token": token, "csrf_token": csrf}


@router.post("/auth/login", tags=["auth"])
def login(body: LoginIn, request: Request, response: Response):
    """Check the password; set the session cookie (HttpOnly, SameSite=Lax) and the CSRF
    cookie; return the same session token for 'Authorization: Bearer'."""
    accounts = get_accounts(request)
    user = _checked_login(request, accounts, body.username, body.password)
    token = accounts.issue(user, "session")
    csrf = _set_session(request, response, accounts, token)
    return {"token": token, "csrf_token": csrf, "user": _user_out(user)}


def _checked_login(request: Request, accounts: Accounts, username: str, password: str) -> User:
    """The user, if the password is right and this address has attempts left, both in all
    and for this account. Wrong passwords count against the account only from the address
    they came from: a stranger hammering an account locks out the stranger's address, and
    its owner still logs in from their own."""
    limits.per_address(request, "login_address")
    account_here = f"name:{username_key(username)}@{limits.client_address(request)}"
    limits.limiter(request).check("login_account", account_here)
    try:
        return accounts.check_password(username, password)
    except ApiError:
        limits.limiter(request).hit("login_account", account_here)
        raise


@router.post("/auth/logout", tags=["auth"])
def logout(request: Request, response: Response, user: User = Depends(current_user)):
    accounts = get_accounts(request)
    auth = accounts.from_request(request)
    if auth.via == "cookie" and auth.session_token:
        accounts.revoke(auth.session_token)
    elif auth.via == "bearer":
        accounts.revoke(request.headers["authorization"].partition(" ")[2].strip())
    response.delete_cookie(security.SESSION_COOKIE, path="/")
    response.delete_cookie(security.CSRF_COOKIE, path="/")
    return {"ok": True}


@router.get("/auth/me", tags=["auth"])
def me(request: Request):
    auth = get_accounts(request).from_request(request)
    if auth.user is None:
        raise ApiError(401, N_("not logged in"), "login_required")
    out = _user_out(auth.user)
    if auth.via == "cookie" and auth.session_token:
        out["csrf_token"] = get_accounts(request).csrf_for(auth.session_token)
    return out


@router.post("/auth/tokens", status_code=201, tags=["auth"])
def create_token(request: Request, body: TokenIn = Body(default_factory=TokenIn),
                 user: User = Depends(current_user)):
    """A personal API token for programs (bearer); it stays valid until revoked."""
    token = get_accounts(request).issue(user, "api", body.name, body.scope)
    return {"token": token, "name": body.name, "scope": body.scope}


@router.get("/auth/tokens", tags=["auth"])
def list_tokens(request: Request, user: User = Depends(current_user)):
    return {"tokens": get_accounts(request).list_tokens(user)}


@router.delete("/auth/tokens/{token_id}", tags=["auth"])
def delete_token(token_id: int, request: Request, user: User = Depends(current_user)):
    get_accounts(request).revoke_id(user, token_id)
    return {"ok": True}


# ----------------------------------------------------------------------------- meta
@functools.cache
def _map_json(engine: int):
    return rules_engine.load_map(engine).to_json()


@router.get("/health", tags=["meta"])
def health(request: Request):
    return {"ok": True, "database": "postgresql" if request.app.state.settings.is_postgres else "sqlite",
            "process": request.app.state.games.proc_id}


@router.get("/ready", tags=["meta"])
def ready(request: Request):
    """200 once this process serves everything, including changes made by other processes
    (Postgres: its LISTEN connection is up); 503 until then."""
    if not request.app.state.hub.ready:
        raise ApiError(503, N_("not ready: waiting for the event listener"), "not_ready")
    return {"ready": True}


@router.get("/meta", tags=["meta"])
def meta():
    """Scenario ids, option ids, sides and modes accepted by POST /api/games."""
    return {"scenarios": list(rules_engine.SCENARIO_IDS), "options": list(rules_engine.option_ids()),
            "sides": ["union", "confederate", "random"], "modes": ["live", "async"]}


@router.get("/options/refusals", tags=["meta"])
def option_refusals(request: Request, scenario: str = Query(..., description="a scenario id"),
                    chosen: list[str] = Query([], description="the options ticked so far"),
                    user: User | None = Depends(optional_user)):  # the account says the language
    """Which options creating a game of `scenario` with `chosen` would refuse, and why
    ({option id: reason}, in the reader's language, as creating the game would say it):
    what the create form greys out."""
    if scenario not in rules_engine.SCENARIO_IDS:
        raise ApiError(422, N_("unknown scenario {scenario}; known: {known}"), "invalid_request",
                       {"scenario": repr(scenario), "known": ", ".join(rules_engine.SCENARIO_IDS)})
    if len(chosen) > 64:
        raise ApiError(422, N_("too many options"), "invalid_request")
    refused = {oid: refusals.said(request, engine_refusal(reason))
               for oid, reason in rules_engine.option_refusals(scenario, chosen).items()}
    return {"scenario": scenario, "chosen": chosen, "refused": refused}


@router.get("/map", tags=["meta"])
def game_map(engine: int = rules_engine.ENGINE_VERSION):
    """Boxes and lines of the map, for drawing: today's board, or with ``engine`` the map
    of that engine version (a game's header names the version it is played with)."""
    if engine not in rules_engine.DATA_VERSIONS:
        raise ApiError(404, N_("there is no engine version {engine}; known: {known}"), "not_found",
                       {"engine": engine, "known": ", ".join(map(str, rules_engine.DATA_VERSIONS))})
    return _map_json(engine)


# ----------------------------------------------------------------------------- lobby
@router.post("/games", status_code=201, tags=["games"])
def create_game(body: CreateGameIn, request: Request, user: User = Depends(current_user)):
    if body.days_per_move is not None and body.mode != "async":
        raise ApiError(422, N_("days_per_move is for by-turn (async) games"), "invalid_request")
    limits.per_account(request, "create_game", user.id)
    opponent = None
    if body.opponent is not None:
        if body.rated:
            raise ApiError(422, N_("games against the computer are casual: leave rated out"), "invalid_request")
        opponent = request.app.state.computer.account(body.opponent.computer)
    out = service(request).create_game(user, body.scenario, body.options, body.side, body.mode, body.private,
                                       rated=body.rated, opponent=opponent)
    if body.mode == "async":  # the game's clock (app.playbyturn.deadlines)
        out["clock"] = create_game_clock(request, out["id"], body.days_per_move)
    return out


# These handlers are async so that the watcher counts are read on the event loop (the
# hub's structures belong to it); the database work runs in the game service's worker
# threads (GameService.call).

@router.get("/games", tags=["games"])
async def list_games(request: Request, view: str = Query("open", description="open | mine | live | finished"),
                     limit: int = Query(100, ge=1, le=500)):
    user = await service(request).call(optional_user, request)
    games = await service(request).call(service(request).lobby, user, view, limit)
    hub = request.app.state.hub
    for g in games:
        g["watchers"] = hub.watchers(g["id"])
    return {"view": view, "games": games}


@router.get("/me/rematches", tags=["games"])
def my_rematch_offers(request: Request, user: User = Depends(current_user)):
    """The rematches your opponents offer you, waiting for your answer (accept-rematch or
    decline-rematch on the finished game, `rematch_of`)."""
    return {"rematches": service(request).rematch_offers(user)}


@router.get("/lobby", tags=["games"])
async def lobby(request: Request):
    """Open games to join, my games (those waiting for me first), games to watch."""
    svc = service(request)
    user = await svc.call(optional_user, request)
    hub = request.app.state.hub

    def read():
        return {"open": svc.lobby(user, "open"), "mine": svc.lobby(user, "mine"), "live": svc.lobby(user, "live")}
    out = await svc.call(read)
    for lst in out.values():
        for g in lst:
            g["watchers"] = hub.watchers(g["id"])
    return out


@router.post("/games/{game_id}/join", tags=["games"])
def join(game_id: str, request: Request, body: JoinIn = Body(default_factory=JoinIn),
         user: User = Depends(current_user)):
    return service(request).join(user, game_id, body.side, body.invite)


@router.get("/games/{game_id}", tags=["games"])
async def get_game(game_id: str, request: Request):
    user = await service(request).call(optional_user, request)
    out = await service(request).call(service(request).get_game, game_id, user)
    out["watchers"] = request.app.state.hub.watchers(game_id)
    return out


@router.get("/games/{game_id}/legal", tags=["play"])
def legal(game_id: str, request: Request, user: User | None = Depends(optional_user)):
    """The caller's legal actions now (empty unless the caller is the side to act)."""
    return service(request).legal(game_id, user)


@router.post("/games/{game_id}/actions", tags=["play"])
def act(game_id: str, body: ActionIn, request: Request, user: User = Depends(current_user)):
    limits.per_account(request, "action", user.id)
    return service(request).act(user, game_id, body.action, body.expected_seq, body.action_id)


@router.post("/games/{game_id}/undo", tags=["play"])
def undo(game_id: str, request: Request, body: UndoIn = Body(default_factory=UndoIn),
         user: User = Depends(current_user)):
    """Take back your own last decision (not across a die roll or a change of who acts)."""
    limits.per_account(request, "action", user.id)
    return service(request).undo(user, game_id, body.expected_seq, body.action_id)


@router.get("/games/{game_id}/battle", tags=["play"])
def battle(game_id: str, request: Request):
    """The battle being fought and each shooter's to-hit number against each enemy unit
    (`to_hit: {shooter: {target: n}}`: a die of n or less hits); `battle: null` when none."""
    return service(request).battle_odds(game_id)


@router.get("/games/{game_id}/events", tags=["play"])
def events(game_id: str, request: Request, after: int = Query(0, ge=0),
           limit: int | None = Query(None, ge=1, le=100000)):
    return service(request).events(game_id, after, limit)


@router.post("/games/{game_id}/resign", tags=["play"])
def resign(game_id: str, request: Request, user: User = Depends(current_user)):
    limits.per_account(request, "action", user.id)
    return service(request).resign(user, game_id)


@router.post("/games/{game_id}/abort", tags=["games"])
def abort(game_id: str, request: Request, user: User = Depends(current_user)):
    """Abort a game before its first move."""
    return service(request).abort(user, game_id)


# ----------------------------------------------------------------------------- agreed endings
@router.post("/games/{game_id}/offer-draw", tags=["play"])
def offer_draw(game_id: str, request: Request, user: User = Depends(current_user)):
    """Offer your opponent a draw. It stays open until answered or until your next decision."""
    return service(request).offer_draw(user, game_id)


@router.post("/games/{game_id}/accept-draw", tags=["play"])
def accept_draw(game_id: str, request: Request, user: User = Depends(current_user)):
    """Accept the opponent's open draw offer: the game ends drawn (reason "agreement")."""
    return service(request).answer_draw(user, game_id, accept=True)


@router.post("/games/{game_id}/decline-draw", tags=["play"])
def decline_draw(game_id: str, request: Request, user: User = Depends(current_user)):
    return service(request).answer_draw(user, game_id, accept=False)


@router.post("/games/{game_id}/rematch", tags=["games"])
def rematch(game_id: str, request: Request, user: User = Depends(current_user)):
    """A new game of a finished one: same scenario, options and pace, sides swapped,
    offered to the opponent only (notified; nobody else may take the seat: 403
    rematch_reserved). Asked again, it answers the same new game; once declined, 409."""
    out = service(request).rematch(user, game_id)
    if out["mode"] == "async" and not out["existing"]:
        out["clock"] = rematch_clock(request, game_id, out["id"])
    return out


@router.post("/games/{game_id}/accept-rematch", tags=["games"])
def accept_rematch(game_id: str, request: Request, user: User = Depends(current_user)):
    """Accept the rematch of finished game `game_id` your opponent asked for: you take the
    seat it keeps for you and the new game starts (answers the new game)."""
    return service(request).accept_rematch(user, game_id)


@router.post("/games/{game_id}/decline-rematch", tags=["games"])
def decline_rematch(game_id: str, request: Request, user: User = Depends(current_user)):
    """Decline the rematch of finished game `game_id`: the new game is aborted and the
    offer closes for both players."""
    return service(request).decline_rematch(user, game_id)
