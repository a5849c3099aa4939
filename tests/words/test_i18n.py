"""Languages and message catalogues: loading, English fallback, plurals, and catalogues kept in step.

The catalogue tests check what ``make messages`` promises: the .pot is what
the source marks (the box's and its web view's), every .po has exactly the
.pot's sentences, each committed .mo is its .po compiled, and no translation
loses a ``{placeholder}`` or, on the box, needs a glyph it cannot draw. The
web's sentences in them: test_web_sentences.py.
"""

from __future__ import annotations

import gettext
import string
import pytest

from firmware import i18n
from firmware.devtools import catalogues
from hw import glyphs


def test_i18n_languages_and_their_own_names():
    assert i18n.LANGUAGES == ("en", "ja", "ko")
    assert set(i18n.NAMES) == set(i18n.LANGUAGES) and i18n.DEFAULT == "en"


def test_i18n_unknown_language_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown language 'fr': use one of en, ja, ko"):
        i18n.translation("fr")
    assert i18n.check("ko") == "ko"


def test_i18n_english_is_the_source_text():
    t = i18n.translation("en")
    assert t.gettext("Press ROLL to roll") == "Press ROLL to roll"
    assert t.ngettext("{n} turn", "{n} turns", 1) == "{n} turn"
    assert t.ngettext("{n} turn", "{n} turns", 5) == "{n} turns"
    assert t.pgettext("menu", "Board") == "Board"


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_i18n_catalogue_loads_with_one_plural_form(lang):
    t = i18n.translation(lang)
    assert isinstance(t, gettext.GNUTranslations)
    assert t.info()["language"] == lang
    assert t.info()["plural-forms"] == "nplurals=1; plural=0;"
    assert i18n.translation(lang) is t  # loaded once


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_i18n_missing_sentences_fall_back_to_english(lang):
    t = i18n.translation(lang)
    assert t.gettext("A sentence nobody translated") == "A sentence nobody translated"
    assert t.ngettext("{n} widget", "{n} widgets", 1) == "{n} widget"
    assert t.ngettext("{n} widget", "{n} widgets", 3) == "{n} widgets"
    assert t.npgettext("ctx", "{n} widget", "{n} widgets", 3) == "{n} widgets"


def test_i18n_a_table_of_marked_sentences_in_one_language():
    table = {"board": i18n.NP_("menu", "Board"), "roll": i18n.N_("Press ROLL to roll"),
             "new": i18n.N_("A sentence nobody translated")}
    assert i18n.translated(table, "ja") == {"board": "盤面", "roll": "ROLLで振る", "new": "A sentence nobody translated"}
    english = i18n.translated(table, "en")
    assert english == {"board": "Board", "roll": "Press ROLL to roll", "new": "A sentence nobody translated"}
    assert {type(v) for v in english.values()} == {str}  # plain strings, the context left behind
    with pytest.raises(ValueError, match="unknown language"):
        i18n.translated(table, "fr")


def test_i18n_missing_compiled_catalogue_says_what_to_do(monkeypatch, tmp_path):
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    with pytest.raises(RuntimeError, match="日本語 catalogue is missing"):
        i18n.translation.__wrapped__("ja")


# -- the catalogues in the repo ------------------------------------------------


def test_i18n_every_language_has_a_catalogue_and_no_other_does():
    assert catalogues.translated_languages() == sorted(lang for lang in i18n.LANGUAGES if lang != "en")


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_i18n_committed_mo_is_the_compiled_po(lang):
    mo = catalogues.po_path(lang).with_suffix(".mo")
    compiled = catalogues.mo_bytes(catalogues.read(catalogues.po_path(lang), lang))
    assert catalogues.mo_messages(mo.read_bytes()) == catalogues.mo_messages(compiled), \
        f"{mo} is stale: run make messages"


def test_i18n_a_changed_translation_makes_the_committed_mo_stale():
    catalog = catalogues.read(catalogues.po_path("ja"), "ja")
    committed = catalogues.mo_messages(catalogues.mo_bytes(catalog))
    message = next(m for m in catalog if m.id and m.string and not m.fuzzy)
    message.string = "…" if isinstance(message.string, str) else ("…",) * len(message.string)
    assert catalogues.mo_messages(catalogues.mo_bytes(catalog)) != committed


def test_i18n_pot_is_what_the_source_marks():
    assert catalogues.keys(catalogues.read(catalogues.POT)) == catalogues.keys(catalogues.extract()), \
        "firmware/locale/cantstop.pot is stale: run make messages"


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_i18n_po_has_exactly_the_pot_sentences(lang):
    template = catalogues.read(catalogues.POT)
    catalog = catalogues.read(catalogues.po_path(lang), lang)
    missing = catalogues.keys(template) - catalogues.keys(catalog)
    extra = catalogues.keys(catalog) - catalogues.keys(template)
    assert not missing and not extra, f"{lang}: missing {sorted(missing)}, not in the .pot {sorted(extra)}: make messages"
    plural = {(m.context, m.id[0]) for m in template if isinstance(m.id, tuple)}
    assert {(m.context, m.id[0]) for m in catalog if isinstance(m.id, tuple)} == plural


def _fields(text: str) -> set[str]:
    return {f"{{{name}{':' + spec if spec else ''}}}" for _, name, spec, _ in string.Formatter().parse(text)
            if name is not None}


def _all_entries(lang):
    """Every entry with a translation, live or obsolete (the seed waits as obsolete until marked)."""
    catalog = catalogues.read(catalogues.po_path(lang), lang)
    for message in [*catalog, *catalog.obsolete.values()]:
        if message.id and message.string and any(message.string if isinstance(message.string, tuple)
                                                 else [message.string]):
            yield message


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_i18n_translations_keep_every_placeholder(lang):
    wrong = []
    for m in _all_entries(lang):
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = _fields(ids[-1]) | _fields(ids[0])
        wrong += [(m.id, s) for s in strings if s and _fields(s) != want]
    assert wrong == []


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_i18n_every_translation_the_box_shows_is_drawable(lang):
    """The box's sentences (a place under firmware/): the web's are drawn by a browser, 🤖 and all."""
    entries = [m for m in _all_entries(lang) if any(f.startswith("firmware/") for f, _ in m.locations)]
    assert len(entries) > 100  # the seed: today's sentences, translated
    missing = set()
    for m in entries:
        for text in (m.string if isinstance(m.string, tuple) else (m.string,)):
            for size in ("small", "medium"):
                missing |= {chars for kind, chars in glyphs._runs(text, size) if kind == "missing"}
    assert missing == set()


# -- the workflow: extract, merge, compile ---------------------------------------


def test_i18n_marked_sentences_flow_into_a_working_catalogue(tmp_path):
    src = tmp_path / "firmware"
    src.mkdir()
    (src / "words.py").write_text(
        "def words(t, n):\n"
        "    # TRANSLATORS: the flash when ROLL is needed\n"
        "    a = t.gettext('Press ROLL to roll')\n"
        "    b = t.ngettext('{n} round', '{n} rounds', n)\n"
        "    c = t.pgettext('menu', 'Board')\n"
        "    d = t.gettext('A brand new sentence')\n"
        "    return a, b, c, d\n"
    )
    template = catalogues.extract(src)
    assert catalogues.keys(template) == {(None, "Press ROLL to roll"), (None, "{n} round"), ("menu", "Board"),
                                         (None, "A brand new sentence")}
    assert next(m for m in template if m.id == "Press ROLL to roll").auto_comments == ["the flash when ROLL is needed"]
    catalog = catalogues.merge(catalogues.read(catalogues.po_path("ja"), "ja"), template)
    assert catalogues.keys(catalog) == catalogues.keys(template)
    assert catalog.get("Press ROLL to roll").string == "ROLLで振る"  # the seed came back to life
    assert not catalog.get("A brand new sentence").string
    mo = tmp_path / "cantstop.mo"
    mo.write_bytes(catalogues.mo_bytes(catalog))
    with open(mo, "rb") as f:
        t = gettext.GNUTranslations(f)
    assert t.gettext("Press ROLL to roll") == "ROLLで振る"
    assert t.ngettext("{n} round", "{n} rounds", 4).format(n=4) == "4巡"
    assert t.pgettext("menu", "Board") == "盤面"
    assert t.gettext("A brand new sentence") == "A brand new sentence"  # untranslated: English


def test_i18n_the_box_and_its_web_view_mark_sentences_for_one_catalogue(tmp_path):
    """Each sentence's place is its file under its folder's name: a translator sees which are the web's."""
    assert [s.name for s in catalogues.SOURCES] == ["firmware", "web"]
    for folder, line in (("firmware", "_('Undo')\n"), ("web", "T = {'undo': N_('Undo'), 'live': N_('Live game')}\n")):
        (tmp_path / folder / "phone").mkdir(parents=True)
        (tmp_path / folder / "phone" / "text.py").write_text(line)
    template = catalogues.extract(tmp_path / "firmware", tmp_path / "web")
    assert {m.id: [f for f, _ in m.locations] for m in template if m.id} == {
        "Undo": ["firmware/phone/text.py", "web/phone/text.py"], "Live game": ["web/phone/text.py"]}


def test_i18n_a_slightly_changed_sentence_keeps_its_translation_as_fuzzy(tmp_path):
    src = tmp_path / "firmware"
    src.mkdir()
    (src / "w.py").write_text("t.gettext('Box average: {box_average:.1f} turns.')\n")
    catalog = catalogues.merge(catalogues.read(catalogues.po_path("ja"), "ja"), catalogues.extract(src))
    message = catalog.get("Box average: {box_average:.1f} turns.")
    assert message.fuzzy and message.previous_id == ["Box average: {average:.1f} turns."]
    assert message.string == "CPU平均: {average:.1f}手番"  # for the translator to fix, never shown
    mo = tmp_path / "ja.mo"
    mo.write_bytes(catalogues.mo_bytes(catalog))
    with open(mo, "rb") as f:
        t = gettext.GNUTranslations(f)
    assert t.gettext("Box average: {box_average:.1f} turns.") == "Box average: {box_average:.1f} turns."
    assert ("off", "marker") in catalog.obsolete  # the rest wait, still obsolete


def test_i18n_sentence_gone_from_source_becomes_obsolete_and_save_is_idempotent(tmp_path):
    src = tmp_path / "firmware"
    src.mkdir()
    (src / "w.py").write_text("_('Undo')\n_('Hint')\n")
    catalog = catalogues.merge(catalogues.read(catalogues.po_path("ko"), "ko"), catalogues.extract(src))
    path = tmp_path / "ko.po"
    assert catalogues.save(path, catalog) is True
    assert catalogues.save(path, catalogues.read(path, "ko")) is False  # nothing but dates would change
    (src / "w.py").write_text("_('Undo')\n")
    catalog = catalogues.merge(catalogues.read(path, "ko"), catalogues.extract(src))
    assert catalogues.keys(catalog) == {(None, "Undo")} and catalog.get("Undo").string == "되돌리기"
    assert "Hint" in catalog.obsolete and catalog.obsolete["Hint"].string == "힌트"


def test_i18n_formatted_string_in_a_marked_call_is_refused(tmp_path):
    src = tmp_path / "firmware"
    src.mkdir()
    (src / "bad.py").write_text("name = 'Red'\n_(f'{name} stops')\nngettext('a', plural, 2)\nt.gettext('ok')\n")
    catalogues.ROOT, saved = tmp_path, catalogues.ROOT
    try:
        problems = catalogues.bad_calls(src / "bad.py")
        with pytest.raises(SystemExit, match="needs string literals"):
            catalogues.extract(src)
    finally:
        catalogues.ROOT = saved
    assert [p.split(": ")[0] for p in problems] == ["firmware/bad.py:2", "firmware/bad.py:3"]


def test_i18n_init_starts_a_new_language(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(catalogues, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(catalogues, "ROOT", tmp_path)
    catalogues.cmd_init("de")
    path = tmp_path / "de" / "LC_MESSAGES" / "cantstop.po"
    catalog = catalogues.read(path, "de")
    assert catalog.locale_identifier == "de" and catalog.num_plurals == 2
    assert catalogues.keys(catalog) == catalogues.keys(catalogues.read(catalogues.POT))
    assert "nplurals=2; plural=(n != 1);" in path.read_text()
    with pytest.raises(SystemExit, match="exists already"):
        catalogues.cmd_init("de")
