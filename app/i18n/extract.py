"""Finding every message the site says, for the gettext catalogues.

Three kinds of source: `_()`/`ngettext()` calls in Python and Jinja templates (and the
rules engine's refusal reasons, `because()`), the page scripts' `t()`/`tn()` calls (the
`client` domain) and the game's words, which are
data (app.notices.words.catalog and the rules engine's names), not calls: the
`extract_words` method below reads them from the running code so no sentence is listed twice.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir

from .catalogs import ROOT

# the first matching pattern wins, so the words catalogue comes before the Python files
METHODS: dict[str, list[tuple[str, str]]] = {
    "messages": [("app/notices/words/catalog.py", "app.i18n.extract:extract_words"),
                 ("app/**.py", "python"), ("rules_engine/**.py", "python"),
                 ("templates/**.html", "jinja2.ext:babel_extract"),
                 ("templates/**.txt", "jinja2.ext:babel_extract")],
    "client": [("static/**.js", "javascript")],
}
# the page scripts put words into template literals too: `${t("reduced")}`
OPTIONS: dict[str, dict[str, dict[str, Any]]] = {
    "messages": {}, "client": {"static/**.js": {"parse_template_string": True}},
}
KEYWORDS: dict[str, dict[str, Any]] = {
    # `because` marks the rules engine's reasons (rules_engine.errors), which cannot import N_
    "messages": {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "because": None},
    "client": {"t": None, "tn": (1, 2)},
}


def game_words() -> Iterator[tuple[str, str]]:
    """(text, where it comes from) for each sentence and name of the game's words."""
    import rules_engine
    from rules_engine.data import pieces
    from rules_engine.map import load_scenario

    from ..notices.words import catalog
    for name in ("SIDES", "EVENTS", "PARTS", "PHASES", "STATUS", "PROMPTS", "CHOICES", "NOTICES", "MODES", "WAYS"):
        for text in strings_in(getattr(catalog, name)):
            yield text, name.lower()
    for t in pieces()["types"].values():
        yield t["name"], "unit type"
    for option in rules_engine.options_catalog():
        yield option["title"], f"option {option['id']}: title"
        yield option["description"], f"option {option['id']}: description"
        if option.get("reason"):
            yield option["reason"], f"option {option['id']}: why it is not offered"
    for sid in rules_engine.SCENARIO_IDS:
        yield str(load_scenario(sid).get("name") or sid), "scenario name"


def strings_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if value:
            yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings_in(v)


def extract_words(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple]:
    """A Babel extraction method: the game's words, placed on the line that holds them."""
    lines = fileobj.read().decode("utf-8").splitlines()
    for text, origin in game_words():
        start = text[:25]
        lineno = next((n for n, line in enumerate(lines, 1) if start in line), 1)
        yield lineno, None, text, [origin]


def extract(domain: str) -> Catalog:
    """The template catalogue (.pot) of a domain, from the current sources."""
    catalogue = Catalog(project="A House Divided", domain=domain, charset="utf-8")
    found = extract_from_dir(str(ROOT), METHODS[domain], OPTIONS[domain], keywords=KEYWORDS[domain],
                             comment_tags=("i18n:",), strip_comment_tags=True,
                             directory_filter=lambda path: keep_dir(Path(path)))
    for filename, lineno, message, comments, context in found:
        catalogue.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalogue


def keep_dir(path: Path) -> bool:
    relative = path.relative_to(ROOT) if path.is_absolute() else path
    return bool(relative.parts) and relative.parts[0] in ("app", "rules_engine", "templates", "static") \
        and not any(p.startswith((".", "__")) for p in relative.parts)
