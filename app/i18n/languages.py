"""Which languages the site speaks and which one a reader gets.

A reader's language is, in this order: the one saved in their account, the `hd_lang`
cookie (set by the header's language select), the browser's Accept-Language, English.
"""
from __future__ import annotations

from collections.abc import Mapping

DEFAULT = "en"
# each language's own name for itself: that is what a reader looks for in the select
LANGUAGES: dict[str, str] = {"en": "English", "hu": "Magyar", "de": "Deutsch"}
# the languages with a catalogue; English is the msgids themselves
TRANSLATED = tuple(code for code in LANGUAGES if code != DEFAULT)
COOKIE = "hd_lang"


def supported(code: str | None) -> str | None:
    """The supported language `code` names ("de-AT" is "de"), or None."""
    if not code:
        return None
    base = code.strip().lower().replace("_", "-").split("-")[0]
    return base if base in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """The supported language the browser prefers most (RFC 9110 quality values)."""
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate((header or "").split(",")):
        name, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        code = supported(name)
        if code and quality > 0:
            ranked.append((-quality, position, code))
    return min(ranked)[2] if ranked else None


def choose(saved: str | None, cookies: Mapping[str, str], accept_language: str | None) -> str:
    return (supported(saved) or supported(cookies.get(COOKIE)) or from_accept_language(accept_language)
            or DEFAULT)
