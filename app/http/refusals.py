"""Refusals in the reader's language: an ApiError whose reason is in the catalogues (marked
with `N_` where it is raised, its values in `params`) is answered in the language the
reader reads the site in (app.i18n.choose: the account's, else the cookie's, else the
browser's); any other reason, and the machine `code`, as written."""
from __future__ import annotations

from typing import Any

from fastapi import Request

from ..core.errors import ApiError, Term
from ..i18n import choose, translator


def reader_language(request: Request) -> str:
    """The reader's language; the account is the one this request already authenticated
    (a refusal never authenticates on its own)."""
    auth = getattr(request.state, "auth", None)
    user = getattr(auth, "user", None)
    return choose(getattr(user, "language", None), request.cookies, request.headers.get("accept-language"))


def said(request: Request, exc: ApiError) -> str:
    t = translator(reader_language(request))
    if t.lang == "en" or t.gettext(exc.message) == exc.message:
        return exc.detail
    values: dict[str, Any] = {k: t.gettext(v) if isinstance(v, Term) else v for k, v in exc.params.items()}
    return t(exc.message, **values)
