"""The site in several languages: which one a reader gets, and the gettext catalogues.

`translator(lang)` gives a callable for Python code and Jinja templates (pages and
mails): `t("Game {game}", game=...)`, `t.plural("{n} march", "{n} marches", n)`.
How to add a message or a language: docs/i18n.md.
"""
from __future__ import annotations

from .catalogs import N_, Translator, client_words, translator
from .languages import COOKIE, DEFAULT, LANGUAGES, TRANSLATED, choose, from_accept_language, supported

__all__ = ["COOKIE", "DEFAULT", "LANGUAGES", "N_", "TRANSLATED", "Translator", "choose", "client_words",
           "from_accept_language", "supported", "translator"]
