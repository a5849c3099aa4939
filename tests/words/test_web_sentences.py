"""The web page's and the phone's sentences are in the box's catalogues, translated (issue 48, item 5).

Their English is written once, marked, in ``web/text.py`` and
``web/phone/text.py``; their Japanese and Korean are entries of
``firmware/locale/*/LC_MESSAGES/cantstop.po`` like the box's, found by the
same loader. Where the old dicts had every language hold every key, the
catalogues now have every web sentence translated, in its own language, and
the pages look up exactly the entry of each (its context kept). Placeholders
are checked with every other entry (test_i18n.py).
"""

from __future__ import annotations

import re
import string

import pytest

from firmware.devtools import catalogues
from web import text as page
from web.phone import text as phone

TABLES = {"web/text.py": page, "web/phone/text.py": phone}
#: A translation is in its language's script: kana or kanji, Hangul.
SCRIPTS = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"), "ko": re.compile(r"[\uac00-\ud7a3]")}


def _catalogue(lang):
    return catalogues.read(catalogues.po_path(lang), lang)


def _web_entries(catalog):
    """The live entries the web view says (a place under web/), the box's shared ones among them."""
    return [m for m in catalog if m.id and any(f.startswith("web/") for f, _ in m.locations)]


def _words(text: str) -> str:
    """``text`` without its placeholders: what a translation has to say in its own language."""
    return "".join(literal for literal, *_ in string.Formatter().parse(text))


def test_web_sentences_are_marked_where_the_extractor_reads():
    template = catalogues.read(catalogues.POT)
    for file, module in TABLES.items():
        for key, english in module.SENTENCES.items():
            entry = template.get(str(english), context=getattr(english, "context", None))
            assert entry is not None and file in [f for f, _ in entry.locations], (file, key)


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_web_every_sentence_is_translated_in_its_language(lang):
    entries = _web_entries(_catalogue(lang))
    assert len(entries) == len({(getattr(s, "context", None), str(s)) for module in TABLES.values()
                                for s in module.SENTENCES.values()})
    untranslated = [(m.context, m.id) for m in entries if not m.string or m.fuzzy]
    assert untranslated == [], f"{lang}: translate these in the .po, then make messages"
    foreign = [(m.context, m.id, m.string) for m in entries
               if re.search(r"[A-Za-z]", _words(m.id)) and not SCRIPTS[lang].search(_words(m.string))]
    assert foreign == []


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_web_each_key_is_its_own_entry_of_the_catalogue(lang):
    """The page's lookup is the .po's entry for the key's sentence in its context: "Statistics" on the page is
    the page's (web page) entry, not the box's menu word; English is the marked sentence itself."""
    catalog = None if lang == "en" else _catalogue(lang)
    for module in TABLES.values():
        said = module.in_language(lang)
        assert list(said) == list(module.SENTENCES)
        for key, english in module.SENTENCES.items():
            want = str(english) if catalog is None else \
                catalog.get(str(english), context=getattr(english, "context", None)).string
            assert said[key] == want and type(said[key]) is str, (key, said[key], want)
        assert module.in_language(lang) is said  # made once

