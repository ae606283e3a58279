"""Refusals in the reader's language: an ApiError whose reason is in the catalogues (marked
with `N_` where it is raised, its values in `params`) is answered in the language the
reader reads the site in (app.i18n.choose: the account's, else the cookie's, else the
browser's); any other reason, and the machine `code`, as written.

A value may itself be said in that language: a `Term` (a word of the catalogues) and the
rules engine's `Reason` (a sentence of the catalogues with its own values) and `Word`."""
from __future__ import annotations

from typing import Any

from fastapi import Request
from starlette.requests import HTTPConnection

from rules_engine.errors import Reason, Word

from ..core.errors import ApiError, Term
from ..i18n import Translator, choose, translator


def language_of(conn: HTTPConnection, user: Any) -> str:
    """The language a request or socket reads the site in: the account's (user may be
    None), else the cookie's, else the browser's."""
    return choose(getattr(user, "language", None), conn.cookies, conn.headers.get("accept-language"))


def reader_language(request: Request) -> str:
    """The reader's language; the account is the one this request already authenticated
    (a refusal never authenticates on its own)."""
    auth = getattr(request.state, "auth", None)
    return language_of(request, getattr(auth, "user", None))


def said(request: Request, exc: ApiError) -> str:
    return said_in(translator(reader_language(request)), exc)


def said_on_socket(conn: HTTPConnection, user: Any, exc: ApiError) -> str:
    """A refusal answered on a game's socket, to the user it authenticated (or a spectator)."""
    return said_in(translator(language_of(conn, user)), exc)


def said_in(t: Translator, exc: ApiError) -> str:
    if t.lang == "en" or t.gettext(exc.message) == exc.message:
        return exc.detail
    return t(exc.message, **values_in(t, exc.params))


def values_in(t: Translator, params: dict[str, Any]) -> dict[str, Any]:
    return {k: value_in(t, v) for k, v in params.items()}


def value_in(t: Translator, value: Any) -> Any:
    if isinstance(value, Term | Word):
        return t.gettext(value)
    if isinstance(value, Reason):
        return t(value.template, **values_in(t, value.params))
    return value
