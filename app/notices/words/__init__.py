"""Game events in words: the one place for every sentence about a game.

`catalog` holds the templates (shipped to the browser as `words_data()`), `narrate`
fills them in. Mails, notices and standing orders use the functions below.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ...i18n import translator
from .catalog import SIDES, words_data
from .mail import NOBODY
from .narrate import Narrator, template_key

SIDE: dict[Any, str] = dict(SIDES)

__all__ = ["SIDE", "Narrator", "box_name", "describe", "events_in_words", "narrator", "notice_words", "template_key",
           "unit_name", "words_data"]


@functools.lru_cache(maxsize=1)
def box_names() -> dict[str, str]:
    """Every map version's box names, so the events of games on an older map keep theirs."""
    import rules_engine
    return {box.id: box.name for version in sorted(rules_engine.DATA_VERSIONS)
            for box in rules_engine.load_map(version).boxes.values()}


def narrator(lang: str = "en") -> Narrator:
    """Says events in `lang` (mails and notices: the recipient's language)."""
    return Narrator(box_names(), lang=lang)


def box_name(b: Any) -> str:
    return box_names().get(b, str(b))


def unit_name(u: Any) -> str:
    """A unit's identity, e.g. "Union VI 7"."""
    return narrator().unit(u)


def describe(ev: dict) -> str | None:
    """One event (as EventRec.out() gives it) in words, without what came before it."""
    return narrator().describe(ev)


def is_minor(ev: dict) -> bool:
    return template_key(ev) in words_data()["minor"]


def events_in_words(events: list[dict], limit: int = 40, lang: str = "en") -> list[str]:
    """The events worth a notice, in order and in words; the oldest dropped beyond `limit`."""
    n = narrator(lang)
    said = [(e, n.describe(e)) for e in events]      # every event, in order: each may set the scene
    lines = [text for e, text in said if text and not is_minor(e)]
    if len(lines) > limit:
        lines = [fill_earlier(len(lines) - limit, lang)] + lines[-limit:]
    return lines


def fill_earlier(count: int, lang: str = "en") -> str:
    return words_data(lang)["parts"]["earlier"].replace("{count}", str(count))


def notice_words(wording: str, **values: Any) -> Callable[[str], str]:
    """A notice's first sentence (app.notices.words.catalog.NOTICES) as a function of the
    reader's language; `side`, `winner`: side ids, said in that language."""
    def say(lang: str) -> str:
        words = words_data(translator(lang).lang)
        named = {k: words["sides"].get(v, translator(lang)(NOBODY)) if k in ("side", "winner") else v
                 for k, v in values.items()}
        return words["notices"][wording].format(**named).strip()
    return say
