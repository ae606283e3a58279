"""English left on a page read in Hungarian or German, judged against the catalogues:
a text (or a label read aloud) that is the English of a message whose translation says
something else, or that has a common English word. Shared by the browser test
(tests/e2e/test_i18n.py: the texts the page's scripts built) and the server-rendered
pages' test (tests/server/test_page_language.py: the HTML as the server sends it)."""
from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
# words no Hungarian or German sentence of the site uses; box and leader names have none of them
ENGLISH_WORDS = {"the", "and", "click", "your", "you", "with", "of", "is", "are", "waiting", "player", "turn",
                 "units", "march", "marches", "movement", "roll", "recruitment", "cancel", "undo", "resign",
                 "abort", "watching", "loading", "connecting", "forces", "battle", "list", "view", "replay"}
# the attributes whose words are shown (title) or read aloud (aria-label) or stand in a field
READ_ATTRIBUTES = ("aria-label", "title", "placeholder")


@functools.cache
def english_messages(lang: str) -> tuple[tuple[str, re.Pattern], ...]:
    """The English of every message whose `lang` translation says something else, as a pattern
    where each {placeholder} may be anything."""
    found = []
    for domain in ("messages", "client"):
        with (ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
            catalogue = read_po(f)
        for m in catalogue:
            ids = m.id if isinstance(m.id, tuple | list) else (m.id,)
            said = m.string if isinstance(m.string, tuple | list) else (m.string,)
            for english in ids:
                if english and english.strip() and english not in said and re.search("[A-Za-z]{3}", english):
                    parts = re.split(r"\{\w+\}", english.strip())
                    found.append((english, re.compile(".*?".join(re.escape(p) for p in parts), re.S)))
    return tuple(found)


def english_left_in(texts: Iterable[str], lang: str, names: Iterable[str] = ()) -> list[str]:
    """What of `texts` is still English. `names` (usernames, game ids: what players typed or
    the server drew) are taken out of each text first: they are no language's words."""
    left = []
    for text in texts:
        for name in names:
            text = text.replace(name, " ")
        text = text.strip()
        if not text:
            continue
        for english, pattern in english_messages(lang):
            if pattern.fullmatch(text) or (" " in english and "{" not in english and english in text):
                left.append(f"{text!r} is the English {english!r}")
        words = {w.lower() for w in re.findall(r"[A-Za-z]+", text)} & ENGLISH_WORDS
        if words:
            left.append(f"{text!r} has the English word(s) {sorted(words)}")
    return sorted(set(left))


class _Texts(HTMLParser):
    """Every text of a page and the words of its read attributes; not scripts or styles
    (data), nor an element marked translate="no" (stored data in its own language, such
    as a mail's subject in its recipient's language)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skipping: list[str] = []      # the tags of the skipped elements we are inside

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style") or ("translate", "no") in attrs:
            self.skipping.append(tag)
        elif not self.skipping:
            self.texts += [value for name, value in attrs if name in READ_ATTRIBUTES and value]

    def handle_endtag(self, tag):
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.texts.append(data.strip())


def page_texts(html: str) -> list[str]:
    """The texts of server-rendered HTML, hidden ones included (a script shows them later)."""
    parser = _Texts()
    parser.feed(html)
    return parser.texts
