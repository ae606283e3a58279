"""The catalogues: every message of the sources is in every language's catalogue, with the
same {placeholders}, and the committed .mo files are what their .po files compile to; the
checker itself catches each of these faults; the reader's language is negotiated."""
from __future__ import annotations

import copy
import re

import pytest
from babel.messages.catalog import Catalog

from app.i18n import choose, from_accept_language, translator
from app.i18n.catalogs import DOMAINS, ROOT, client_words
from app.i18n.extract import extract
from app.i18n.languages import TRANSLATED
from app.i18n.tooling import catalogue_problems, check, compiled, po_path, read
from app.notices.words import events_in_words, words_data


def test_every_catalogue_is_complete_and_compiled():
    assert check() == []


@pytest.fixture(scope="module")
def sources() -> dict[str, Catalog]:
    return {domain: extract(domain) for domain in DOMAINS}


def test_the_sources_have_the_game_page_words(sources):
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in sources["messages"]}
    client = {m.id if isinstance(m.id, str) else m.id[0] for m in sources["client"]}
    # the game's words (data), a template's words, an option's title and description, a page script's
    assert "{unit} moves to {path} ({by})." in ids and "List view" in ids
    assert "Crack Infantry" in ids and any(i.startswith("Crack Infantry moves like Cavalry") for i in ids)
    assert "Battle over" in client and "End movement with {n} March unused?" in client


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_checker_finds_a_missing_message(sources, lang):
    catalogue = copy.deepcopy(read(lang, "messages"))
    del catalogue["List view"]
    problems = catalogue_problems(sources["messages"], catalogue, "x")
    assert problems == ["x: missing 'List view'"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_checker_finds_a_placeholder_that_differs(sources, lang):
    catalogue = copy.deepcopy(read(lang, "messages"))
    message = catalogue["{unit} is eliminated."]
    message.string = message.string.replace("{unit}", "{units}")
    problems = catalogue_problems(sources["messages"], catalogue, "x")
    assert len(problems) == 1 and "placeholders of '{unit} is eliminated.'" in problems[0]


def test_the_checker_finds_untranslated_fuzzy_and_gone_messages(sources):
    catalogue = copy.deepcopy(read("de", "client"))
    catalogue["Battle over"].string = ""
    catalogue["Hint"].flags.add("fuzzy")
    catalogue.add("A message nobody says any more", "Eine Nachricht")
    problems = catalogue_problems(sources["client"], catalogue, "x")
    assert sorted(problems) == ["x: no longer in the sources 'A message nobody says any more'",
                                "x: not translated 'Battle over'", "x: not translated 'Hint'"]


def test_a_stale_mo_is_not_what_the_po_compiles_to():
    catalogue = read("hu", "messages")
    committed = po_path("hu", "messages").with_suffix(".mo").read_bytes()
    assert compiled(catalogue) == committed
    changed = copy.deepcopy(catalogue)
    changed["List view"].string = "Lista"
    assert compiled(changed) != committed


def test_the_reader_language():
    assert from_accept_language("de-AT,de;q=0.9,en;q=0.5") == "de"
    assert from_accept_language("fr-FR, hu;q=0.8, de;q=0.7") == "hu"
    assert from_accept_language("en;q=0.2, de;q=0.9") == "de"
    assert from_accept_language("fr, it;q=0.5") is None
    assert from_accept_language("hu;q=0, garbage;;q=x") is None
    # account > cookie > Accept-Language > English
    assert choose("hu", {"hd_lang": "de"}, "en") == "hu"
    assert choose(None, {"hd_lang": "de"}, "hu") == "de"
    assert choose(None, {"hd_lang": "xx"}, "hu-HU") == "hu"
    assert choose("xx", {}, None) == "en"


def test_translators_and_plurals():
    assert translator("de")("Battle board") == "Schlachttafel"
    assert translator("hu")("{unit} is eliminated.", unit="Unió VI 7") == "Unió VI 7 megsemmisült."
    assert translator("en")("{unit} is eliminated.", unit="U") == "U is eliminated."
    assert translator("de").plural("{n} watching", "{n} watching", 1) == "1 Zuschauer"
    assert client_words("de")["End movement with {n} March unused?"] == [
        "Bewegung mit {n} ungenutztem Marsch beenden?", "Bewegung mit {n} ungenutzten Märschen beenden?"]
    assert client_words("en") == {}


def test_words_data_per_language_keep_the_data_and_say_the_words():
    en, hu, de = words_data("en"), words_data("hu"), words_data("de")
    assert (en["lang"], hu["lang"], de["lang"]) == ("en", "hu", "de")
    assert hu["fields"] == en["fields"] and hu["style"] == en["style"] and hu["minor"] == en["minor"]
    assert hu["events"].keys() == en["events"].keys() and de["prompts"].keys() == en["prompts"].keys()
    assert de["sides"] == {"union": "Union", "confederate": "Konföderierte"}
    assert hu["unit_types"]["CI"] == "Elsőrendű gyalogság" and de["modes"]["async"] == "Zugweise"
    assert en["ui"] == {} and hu["ui"]["Battle over"] == "Vége a csatának"
    # mails and notices: the same events in the recipient's language
    event = {"seq": 1, "source": "engine", "type": "eliminated", "data": {"unit": "U-VI-07"}}
    assert events_in_words([event]) == ["Union VI 7 is eliminated."]
    assert events_in_words([event], lang="hu") == ["Unió VI 7 megsemmisült."]
    assert events_in_words([event], lang="de") == ["Union VI 7 ist vernichtet."]


# a page script's call of t("...") or tn("...", ...): its first argument, a string literal
SCRIPT_CALL = re.compile(r"""\b(?:t|tn)\(\s*(["'`])((?:\\.|(?!\1).)*)\1""")


def test_every_word_a_page_script_says_is_in_the_catalogue(sources):
    """Babel's JavaScript extractor skips a t() inside another call's arguments
    (t("{a}", { a: t("b") })): such a message would stay English in every language."""
    client = {m.id if isinstance(m.id, str) else m.id[0] for m in sources["client"]}
    said = {(path.name, m.group(2)) for path in sorted((ROOT / "static").glob("*.js"))
            for m in SCRIPT_CALL.finditer(path.read_text()) if "${" not in m.group(2)}
    assert said and {(name, text) for name, text in said if text not in client} == set()


def test_a_sentence_with_markup_keeps_the_templates_markup_and_escapes_the_rest():
    from app.http.pages import env
    page = env.from_string('{% set account %}<strong>{{ name }}</strong>{% endset %}'
                           '{{ html_fill(_("Stop all mail from {site} for the account {username}?"), '
                           'site=site, username=account) }}')
    said = page.render(_=translator("de"), name="<i>eve</i>", site="A & B")
    assert said == "Alle Mails von A &amp; B für das Konto <strong>&lt;i&gt;eve&lt;/i&gt;</strong> abbestellen?"
