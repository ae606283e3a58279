"""Finding every message the site says, for the gettext catalogues.

Three kinds of source: `_()`/`ngettext()` calls in Python and Jinja templates (and the
rules engine's refusal reasons, `because()`), the page scripts' `t()`/`tn()` calls (the
`client` domain) and the game's words, which are
data (app.notices.words.catalog and the rules engine's names), not calls: the
`extract_words` method below reads the catalogue's tables from its source (they are
literals; the site's languages sit below the notices that use them, so this package does
not import them) and the rules engine's names from the engine, so no sentence is listed
twice.
"""
from __future__ import annotations

import ast
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


# the tables of app/notices/words/catalog.py that hold words a reader sees
WORD_TABLES = ("SIDES", "EVENTS", "PARTS", "PHASES", "STATUS", "PROMPTS", "CHOICES", "NOTICES", "MODES", "WAYS")


def literal_tables(source: str, names: tuple[str, ...]) -> dict[str, Any]:
    """The module-level assignments `NAME = <literal>` of a Python source, by name."""
    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id in names:
            found[node.targets[0].id] = ast.literal_eval(node.value)
    missing = set(names) - set(found)
    if missing:
        raise ValueError(f"the words catalogue has no literal table {', '.join(sorted(missing))}")
    return found


def game_words(catalog_source: str) -> Iterator[tuple[str, str]]:
    """(text, where it comes from) for each sentence and name of the game's words:
    the tables of the words catalogue (its source), the engine's names."""
    import rules_engine
    from rules_engine.data import pieces
    from rules_engine.map import load_scenario

    tables = literal_tables(catalog_source, WORD_TABLES)
    for name in WORD_TABLES:
        for text in strings_in(tables[name]):
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
    source = fileobj.read().decode("utf-8")
    lines = source.splitlines()
    for text, origin in game_words(source):
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
