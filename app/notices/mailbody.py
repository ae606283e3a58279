"""Mail bodies from the Jinja templates in templates/mail/: a plain text part and an
HTML part of the same words. The HTML part is autoescaped: whatever players typed
(names, reasons, dispute texts) arrives as text, never as markup."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from ..i18n import translator
from ..i18n.catalogs import PLACEHOLDER

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@functools.cache
def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                              autoescape=jinja2.select_autoescape(enabled_extensions=("html",), default=False),
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                              undefined=jinja2.StrictUndefined)


def render_mail(name: str, lang: str | None = None, **ctx: Any) -> tuple[str, str]:
    """(text, html) of templates/mail/<name>.txt and .html in the reader's language:
    the templates say `_("...")` and `ngettext(one, many, n)` (app.i18n)."""
    env = _env()
    t = translator(lang)
    ctx = {"_": t, "ngettext": t.plural, "lang": t.lang, "linked": linked, **ctx}
    return env.get_template(f"mail/{name}.txt").render(**ctx), env.get_template(f"mail/{name}.html").render(**ctx)


def blocks(text: str) -> list[dict]:
    """A notice's text as paragraphs and lists ("- " lines), for the HTML part."""
    out: list[dict] = []
    for para in text.strip().split("\n\n"):
        lines = para.splitlines()
        items = [ln[2:] for ln in lines if ln.startswith("- ")]
        rest = [ln for ln in lines if not ln.startswith("- ")]
        if rest:
            out.append({"kind": "paragraph", "lines": rest})
        if items:
            out.append({"kind": "list", "lines": items})
    return out


def linked(sentence: str, **links: tuple[str, str]) -> Markup:
    """A translated sentence for the HTML part whose {name}s are links: `links` maps a
    name to (address, words). The sentence and the words are escaped; the link's place
    in the sentence is the translation's to choose."""
    out, last = [], 0
    for m in PLACEHOLDER.finditer(sentence):
        out.append(escape(sentence[last:m.start()]))
        if m.group(1) in links:
            href, words = links[m.group(1)]
            out.append(Markup('<a href="{}">{}</a>').format(href, words))
        else:
            out.append(escape(m.group(0)))
        last = m.end()
    out.append(escape(sentence[last:]))
    return Markup("").join(out)
