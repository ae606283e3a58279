"""Bot accounts: an account becomes a bot by its owner's choice before it has played
(its games would otherwise mix a person's play and a program's), or by an administrator
at any time. Only a bot account gets tokens with the "bot" scope, which the bot API's
streams require."""
from __future__ import annotations

from fastapi import Request
from sqlalchemy import or_, select, update

from ..accounts.auth import current_user, get_accounts
from ..core.errors import ApiError
from ..i18n import N_
from ..models import Game, User, table
from .challenges import find_user

T_USERS, T_GAMES = table(User), table(Game)


def make_bot(db, username: str, by_admin: bool) -> dict:
    with db.write() as s:
        row = find_user(s, username)
        if row.kind == "computer":
            raise ApiError(422, N_("the site's computer accounts cannot become bots"), "invalid_request")
        if row.kind != "bot":
            played = s.execute(select(T_GAMES.c.id).where(or_(T_GAMES.c.union_user_id == row.id,
                                                              T_GAMES.c.confederate_user_id == row.id))
                               .limit(1)).first()
            if played is not None and not by_admin:
                raise ApiError(409, N_("only an account that has not played a game yet can become a bot "
                                       "(an administrator can still make it one)"), "already_played")
            s.execute(update(T_USERS).where(T_USERS.c.id == row.id).values(kind="bot"))
            s.commit()
        return {"username": row.username, "bot": True}


def bot_user(request: Request) -> User:
    """The caller of the bot API: a bot account with a "bot" token."""
    user = current_user(request)
    if get_accounts(request).from_request(request).scope != "bot" or user.kind != "bot":
        raise ApiError(403, N_('the bot API needs a token with the "bot" scope of a bot account ({how})'),
                       "bot_token_required", {"how": 'POST /api/auth/tokens {"scope": "bot"}'})
    return user
