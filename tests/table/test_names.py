"""Names (fault 8): normalised (NFKC, trimmed), refused in one line when the box's fonts cannot draw
them (saying which character), a lone combining mark refused like an empty name, a family emoji refused
as not drawable; never echoed raw to a terminal; columns aligned by display width."""

import unicodedata

import pytest
from hypothesis import given, settings, strategies as st

from boxcli.cli import main
from boxcli.history import table
from firmware.store import Store
from firmware.table import names
from engine import Rules
from hw import glyphs


@pytest.mark.parametrize("name, words", [
    ("שרה", "U+05E9 HEBREW LETTER SHIN"),
    ("Ann😀", "U+1F600 GRINNING FACE"),
    ("\U0001F468\u200d\U0001F469\u200d\U0001F467", "U+1F468 MAN"),  # a family: not drawable, not "control"
    ("\u0301", "a name is empty"),  # a lone combining mark is no name
    ("  \u200b ", "a name is empty"),
    ("\x1b[2J", "control character"),
    ("Ann\u202e", "invisible character"),
])
def test_names_refused_in_one_line_saying_why(name, words):
    problem = names.name_problem(name)
    assert problem is not None and words in problem and "\n" not in problem
    assert "\x1b" not in problem and "\u202e" not in problem


def test_names_full_width_and_plain_are_one_person():
    assert names.normalise("  Ａｎｎ ") == "Ann" and names.fold("ＡＮＮ") == names.fold("ann")
    assert "listed twice" in names.name_problem("Ａｎｎ", {names.fold("Ann")})


@pytest.mark.parametrize("name", ["Ann", "김민준", "さくら", "漢字", "Zoë", "Ｚｏｅ", "e\u0301mile"])
def test_names_the_fonts_draw_are_taken(name):
    assert names.name_problem(name) is None


def test_names_cli_refusals_never_echo_raw_escapes(tmp_path, capsys):
    code = main(["players", "add", "\x1b]0;pwned\x07Ann", "--state-dir", str(tmp_path),
                 "--config", str(tmp_path / "none.toml")])
    err = capsys.readouterr().err
    assert code in (2, 78) and "\x1b" not in err and "\x07" not in err


def test_names_cli_says_which_character_cannot_be_drawn(tmp_path, capsys):
    config = tmp_path / "box.toml"
    config.write_text("")
    code = main(["players", "add", "דנה", "--state-dir", str(tmp_path / "s"), "--config", str(config)])
    err = capsys.readouterr().err
    assert code == 2 and "U+05D3 HEBREW LETTER DALET" in err and err.count("\n") == 1


_names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=12)


@settings(max_examples=300, deadline=None)
@given(_names)
def test_names_property_a_kept_name_is_normal_drawable_and_stays_kept(raw):
    problem = names.name_problem(raw)
    if problem is not None:
        assert "\n" not in problem and not any(unicodedata.category(c) == "Cc" for c in problem)
        return
    kept = names.normalise(raw)
    assert kept == kept.strip() and unicodedata.normalize("NFKC", kept) == kept and kept
    assert glyphs.undrawable(kept) is None
    assert names.name_problem(kept) is None and names.normalise(kept) == kept  # idempotent


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=16))
def test_names_property_escaped_is_printable_and_one_line(text):
    shown = names.escaped(text)
    assert all(unicodedata.category(c) not in ("Cc", "Cf", "Zl", "Zp") for c in shown)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["Ann", "김민준", "さくら", "Zoë", "漢字テスト", "Bo", "e\u0301"]), min_size=1, max_size=4),
       st.integers(0, 12))
def test_names_property_pad_reaches_the_width_exactly(words, columns):
    text = "".join(words)
    assert names.width(names.pad(text, columns)) == max(columns, names.width(text))
    assert names.width(names.pad(text, columns, right=True)) == max(columns, names.width(text))


def test_names_history_columns_line_up_by_display_width(tmp_path):
    with Store.open(tmp_path) as store:
        for who in ("김민준", "Ann", "さくら"):
            store.new_game(["Red", "Blue"], Rules(), meta={"seats": [{"colour": "Red", "bot": None, "name": who},
                                                                       {"colour": "Blue", "bot": None}]})
        games = store.games()
    lines = table(games).splitlines()
    starts = {names.width(line[:line.index(" 0 ")]) for line in lines[1:]}  # where the turns column is
    assert len(starts) == 1, lines
