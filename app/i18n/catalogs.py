"""The compiled gettext catalogues and the translators made from them.

Two domains: `messages` (the server: Python, Jinja templates and the game's words) and
`client` (the words the page's scripts say, shipped to the page as JSON). The .po and .mo
files live in locale/<lang>/LC_MESSAGES/ at the top of the repository.
"""
from __future__ import annotations

import functools
import gettext
import re
from pathlib import Path
from typing import Any

from babel.messages.mofile import read_mo
from babel.support import Translations

from .languages import DEFAULT, supported

ROOT = Path(__file__).resolve().parents[2]
LOCALE_DIR = ROOT / "locale"
DOMAINS = ("messages", "client")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@functools.cache
def translations(lang: str, domain: str = "messages") -> gettext.NullTranslations:
    if lang == DEFAULT:
        return gettext.NullTranslations()
    return Translations.load(str(LOCALE_DIR), [lang], domain)


def fill(text: str, values: dict[str, Any]) -> str:
    """Put the values in their {name} places; a name without a value stays as written."""
    return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), text)


def N_(message: str) -> str:
    """Marks a message for the catalogues where it is written; it is translated where it is said."""
    return message


class Translator:
    """One reader's language: `t("Hello {name}", name=...)`, `t.plural(one, many, n, ...)`.

    Usable from Python and from Jinja templates (mails and pages) alike; `{n}` is the
    count in plural messages unless given otherwise."""

    def __init__(self, lang: str | None):
        self.lang = supported(lang) or DEFAULT
        self.catalogue = translations(self.lang)

    def gettext(self, message: str) -> str:
        return self.catalogue.gettext(message) if message else message

    def __call__(self, message: str, **values: Any) -> str:
        return fill(self.gettext(message), values)

    def plural(self, singular: str, plural: str, n: int, **values: Any) -> str:
        return fill(self.catalogue.ngettext(singular, plural, n), {"n": n, **values})


@functools.cache
def translator(lang: str | None) -> Translator:
    return Translator(lang)


@functools.cache
def client_words(lang: str) -> dict[str, Any]:
    """The page scripts' words in `lang`: msgid -> text, or -> [forms] for a plural."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / "client.mo"
    if lang == DEFAULT or not path.exists():
        return {}
    with path.open("rb") as f:
        catalogue = read_mo(f)
    words: dict[str, Any] = {}
    for message in catalogue:
        if not message.id or not message.string:
            continue
        if isinstance(message.id, tuple | list):
            words[message.id[0]] = list(message.string)
        else:
            words[message.id] = message.string
    return words
