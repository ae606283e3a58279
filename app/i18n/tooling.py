"""`python -m app.i18n update|compile|check`: keep the catalogues in step with the sources.

update: extract every message and bring each language's .po up to date (new messages
get an empty translation, gone ones are dropped); compile: write the .mo files;
check: fail when a .po misses a message of the sources, keeps one they no longer have,
leaves one untranslated or fuzzy, changes a message's {placeholders}, or when a committed
.mo is not what its .po compiles to.
"""
from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .catalogs import DOMAINS, LOCALE_DIR, PLACEHOLDER
from .extract import extract
from .languages import TRANSLATED


def po_path(lang: str, domain: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def read(lang: str, domain: str) -> Catalog:
    path = po_path(lang, domain)
    if not path.exists():
        return Catalog(locale=lang, domain=domain, project="A House Divided", charset="utf-8")
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def write(catalogue: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        # files without line numbers: a line added to the code above a message would
        # otherwise rewrite every reference below it (and clash with every other branch)
        write_po(f, catalogue, width=100, ignore_obsolete=True, include_previous=False, sort_output=True,
                 include_lineno=False)


def compiled(catalogue: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalogue, use_fuzzy=False)
    return out.getvalue()


def update() -> None:
    for domain in DOMAINS:
        template = extract(domain)
        for lang in TRANSLATED:
            catalogue = read(lang, domain)
            created = catalogue.creation_date
            catalogue.update(template, no_fuzzy_matching=True)
            if po_path(lang, domain).exists():
                catalogue.creation_date = created   # an unchanged tree leaves the files unchanged
            write(catalogue, po_path(lang, domain))


def compile_all() -> None:
    for domain in DOMAINS:
        for lang in TRANSLATED:
            po_path(lang, domain).with_suffix(".mo").write_bytes(compiled(read(lang, domain)))


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def message_problems(source: Message, translated: Message | None, where: str) -> list[str]:
    if translated is None:
        return [f"{where}: missing {source.id!r}"]
    forms = translated.string if isinstance(translated.string, tuple | list) else (translated.string,)
    if translated.fuzzy or not all(forms):
        return [f"{where}: not translated {source.id!r}"]
    ids = source.id if isinstance(source.id, tuple | list) else (source.id,)
    wanted = placeholders(ids[-1])
    # a singular form may say "one" in words instead of {n}
    allowed = [wanted, wanted - {"n"}] if len(ids) > 1 else [wanted]
    return [f"{where}: placeholders of {source.id!r} differ in {form!r}"
            for form in forms if placeholders(form or "") not in allowed]


def catalogue_problems(template: Catalog, catalogue: Catalog, where: str) -> list[str]:
    problems = []
    for source in template:
        if source.id:
            problems += message_problems(source, catalogue.get(source.id, source.context), where)
    known = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template if m.id}
    problems += [f"{where}: no longer in the sources {m.id!r}" for m in catalogue
                 if m.id and (m.id if isinstance(m.id, str) else m.id[0], m.context) not in known]
    return problems


def check() -> list[str]:
    problems = []
    for domain in DOMAINS:
        template = extract(domain)
        for lang in TRANSLATED:
            path = po_path(lang, domain)
            catalogue = read(lang, domain)
            problems += catalogue_problems(template, catalogue, str(path.relative_to(LOCALE_DIR.parent)))
            mo = path.with_suffix(".mo")
            if not mo.exists() or mo.read_bytes() != compiled(catalogue):
                problems.append(f"{mo.relative_to(LOCALE_DIR.parent)}: not compiled from its .po "
                                "(run python -m app.i18n compile)")
    return problems
