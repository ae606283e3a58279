"""The reader's language (docs/i18n.md):

  POST /api/language   {"language": "hu"}: saved in the account when logged in, and in the
                       `hd_lang` cookie (for the pages before login, and for anonymous readers)

422 `unknown_language` for a language the site does not speak; nothing changes then.
"""
from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel
from sqlalchemy import update

from ..accounts.auth import optional_user_checked
from ..core.errors import ApiError
from ..i18n import COOKIE, LANGUAGES, N_, from_accept_language, supported
from ..models import User
from . import deps

api = APIRouter(prefix="/api", tags=["accounts"])
COOKIE_DAYS = 365


class LanguageIn(BaseModel):
    language: str


def checked_language(asked: str) -> str:
    """A language the site speaks, or 422 unknown_language."""
    lang = asked.strip().lower()
    if lang not in LANGUAGES:
        raise ApiError(422, N_("the site speaks {languages}, not {asked}"), "unknown_language",
                       {"languages": ", ".join(sorted(LANGUAGES)), "asked": repr(asked[:16])})
    return lang


def language_at_registration(request: Request, asked: str | None) -> str | None:
    """The language a new account keeps: the one the registration names, else the one
    its page was read in (the `hd_lang` cookie the page's language menu sets, else the
    browser's); None (the browser's choice, each time) for a program that says none."""
    if asked is not None:
        return checked_language(asked)
    return supported(request.cookies.get(COOKIE)) or from_accept_language(request.headers.get("accept-language"))


@api.post("/language")
def set_language(body: LanguageIn, request: Request, response: Response,
                 user: User | None = Depends(optional_user_checked)):
    """Choose the language of the pages (and, logged in, of the account's mails)."""
    lang = checked_language(body.language)
    if user is not None:
        with deps.db(request).write() as conn:
            conn.execute(update(User).where(User.id == user.id).values(language=lang))
            conn.commit()
    settings = request.app.state.settings
    response.set_cookie(COOKIE, lang, max_age=COOKIE_DAYS * 86400, httponly=False, samesite="lax",
                        secure=settings.secure_cookies, path="/")
    return {"language": lang}
