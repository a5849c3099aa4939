"""Mixed Latin + Hangul + kana + kanji text: pixel-exact, measured exactly, never crashing on a strange name.

The golden images are ``tests/hw/golden/glyphs_*.png``. After an intended
change (a new Galmuri release, a new sample) rewrite them with

    .venv/bin/python tests/hw/test_hw_glyphs.py

and look at them (``--look DIR`` also writes 4x copies there) before committing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw

from hw import fonts, glyphs

GOLDEN = Path(__file__).parent / "golden"

#: name -> (text, size, fill). fill 0 draws dark text on a lit box, as the legend and tags do.
SAMPLES = {
    "glyphs_ko_medium": ("빨강 차례: 7열 +2칸", "medium", 1),
    "glyphs_ja_large": ("赤の手番 ランナー", "large", 1),
    "glyphs_mixed_small": ("Red: 확보 確保 バースト 23.9%", "small", 1),
    "glyphs_ja_huge": ("7列 確保!", "huge", 1),
    "glyphs_inverted_small": ("ROLL:굴리기 振る", "small", 0),
    "glyphs_missing_medium": ("A\u0378B\U0001F600C", "medium", 1),
}


def render(text: str, size: str, fill: int) -> Image.Image:
    height = fonts.CELLS[size][1]
    image = Image.new("1", (128, height + 2), 1 - fill)
    glyphs.draw_text(image, (1, 1), text, size, fill=fill)
    return image


def write_golden(folder: Path = GOLDEN, look: Path | None = None) -> None:
    folder.mkdir(exist_ok=True)
    for name, sample in SAMPLES.items():
        image = render(*sample)
        image.save(folder / f"{name}.png")
        print("wrote", folder / f"{name}.png")
        if look is not None:
            look.mkdir(parents=True, exist_ok=True)
            image.convert("L").resize((image.width * 4, image.height * 4), Image.NEAREST).save(look / f"{name}.png")


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_glyphs_match_golden(name):
    path = GOLDEN / f"{name}.png"
    assert path.exists(), f"no golden image {path}: run python tests/hw/test_hw_glyphs.py"
    with Image.open(path) as golden:
        differs = ImageChops.difference(render(*SAMPLES[name]).convert("L"), golden.convert("L")).getbbox()
    assert differs is None, f"{name} differs from its golden image in {differs}"


def test_glyphs_golden_folder_has_no_stale_images():
    assert {p.stem for p in GOLDEN.glob("glyphs_*.png")} == set(SAMPLES)


@pytest.mark.parametrize(("size", "latin", "wide"), [("small", 5, 8), ("medium", 6, 10), ("large", 8, 12),
                                                     ("huge", 12, 15)])
def test_glyphs_widths_of_each_script(size, latin, wide):
    assert glyphs.text_width("Red", size) == 3 * latin
    assert glyphs.text_width("가", size) == wide
    assert glyphs.text_width("ラン", size) == 2 * wide
    assert glyphs.text_width("確保", size) == 2 * wide
    assert glyphs.text_width("Red 확보", size) == 4 * latin + 2 * wide
    assert glyphs.text_width("", size) == 0


SCRIPTS = "AZaz09 :+%!-.,가힣턴열말확보あんアンー確保列手番赤青\u00e9\u00c9\u0378\x07\U0001F600"


@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=SCRIPTS, max_size=12), size=st.sampled_from(glyphs.SIZES), fill=st.sampled_from((0, 1)))
def test_glyphs_ink_stays_inside_the_measured_box(text, size, fill):
    width, height = glyphs.text_width(text, size), fonts.CELLS[size][1]
    image = Image.new("1", (width + 40, height + 20), 1 - fill)
    end = glyphs.draw_text(image, (20, 10), text, size, fill=fill)
    assert end == 20 + width
    ink = (image if fill else ImageChops.invert(image.convert("L")).convert("1")).getbbox()
    if ink is not None:
        left, top, right, bottom = ink
        assert left >= 20 and right <= 20 + width and top >= 10 and bottom <= 10 + height


@pytest.mark.parametrize("size", glyphs.SIZES)
def test_glyphs_cjk_sits_on_the_latin_baseline(size):
    def ink(text):
        image = Image.new("1", (40, 30))
        glyphs.draw_text(image, (0, 0), text, size)
        return image.getbbox()

    assert ink("가")[3] == ink("A")[3]  # the bottom ink row: both stand on the baseline
    assert ink("가")[3] - ink("가")[1] > ink("A")[3] - ink("A")[1] - 3  # and are about as tall as a capital


@pytest.mark.parametrize("size", glyphs.SIZES)
def test_glyphs_missing_character_is_a_visible_box(size):
    cell = fonts.CELLS[size][0]
    for odd in ("\u0378", "\x07", "\U0001F600", "\ud800"):
        assert glyphs.text_width(odd, size) == cell
        image = Image.new("1", (40, 30))
        assert glyphs.draw_text(image, (0, 0), odd, size) == cell
        assert image.getbbox() is not None, f"{odd!r} drew nothing"
    assert glyphs.text_width("a\u0378b", size) == 3 * cell


def test_glyphs_normalise_and_drop_invisible_characters():
    def pixels(text, size="medium"):
        image = Image.new("1", (80, 14))
        glyphs.draw_text(image, (0, 0), text, size)
        return image.tobytes()

    assert pixels("e\u0301") == pixels("\u00e9")  # decomposed accent
    assert pixels("\u1100\u1161") == pixels("가")  # conjoining jamo
    assert pixels("A\u200dB\ufe0f") == pixels("AB")  # joiner, variation selector
    assert glyphs.text_width("A\u200dB", "medium") == 12


def test_glyphs_small_size_draws_accents_spleen_lacks():
    # Spleen 5x8 has blank cells for Latin-1 letters: Galmuri draws them instead of nothing.
    image = Image.new("1", (20, 10))
    glyphs.draw_text(image, (0, 0), "\u00e9", "small")
    assert image.getbbox() is not None


def test_glyphs_draw_on_an_imagedraw_too():
    a, b = Image.new("1", (60, 12)), Image.new("1", (60, 12))
    glyphs.draw_text(a, (0, 0), "턴 7", "medium")
    glyphs.draw_text(ImageDraw.Draw(b), (0, 0), "턴 7", "medium")
    assert a.tobytes() == b.tobytes() and a.getbbox() is not None


def test_glyphs_unknown_size_lists_valid_ones():
    with pytest.raises(ValueError, match="small, medium, large, huge"):
        glyphs.text_width("x", "tiny")
    with pytest.raises(ValueError, match="small, medium, large, huge"):
        glyphs.draw_text(Image.new("1", (8, 8)), (0, 0), "x", "tiny")


def _jis_level1() -> list[str]:
    out = []
    for row in range(16, 48):
        for cell in range(1, 95):
            try:
                out.append(bytes([0xA0 + row, 0xA0 + cell]).decode("euc_jp"))
            except UnicodeDecodeError:
                pass
    return out


@pytest.mark.parametrize("size", glyphs.SIZES)
def test_glyphs_cover_hangul_kana_and_jis_level1(size):
    cjk = glyphs.galmuri(size)
    kanji = _jis_level1()
    assert len(kanji) == 2965
    kana = [*range(0x3041, 0x3094), *range(0x30A1, 0x30F7), 0x30FB, 0x30FC, 0x3001, 0x3002]
    missing = [chr(cp) for cp in [*range(0xAC00, 0xD7A4), *kana] if cp not in cjk]
    missing += [ch for ch in kanji if ord(ch) not in cjk]
    assert missing == []


def test_glyphs_galmuri_licence_ships_beside_the_glyphs():
    from importlib import resources

    folder = resources.files("hw.fonts")
    text = (folder / "LICENSE-galmuri.txt").read_text()
    assert "Lee Minseo" in text and "SIL OPEN FONT LICENSE Version 1.1" in text
    assert "Galmuri" in glyphs.galmuri("small").note and "OFL-1.1" in glyphs.galmuri("small").note


# -- fit and wrap by measured width ------------------------------------------------


def test_glyphs_fit_cuts_by_measured_width():
    assert glyphs.fit("Roll 7", 128, "medium") == "Roll 7"
    assert glyphs.fit("Hello world", 30, "small") == "Hell.."  # 6 cells: 4 letters and the dots
    assert glyphs.fit("Hello", 10, "small") == "He"  # no room for dots
    assert glyphs.fit("Hello world", 40, "small") == "Hello.."  # the space before the dots goes
    cut = glyphs.fit("ランナーを7の列へ", 60, "medium")
    assert cut == "ランナー.." and glyphs.text_width(cut, "medium") <= 60
    assert glyphs.fit("확보", 9, "medium") == ""  # not even one syllable fits


def test_glyphs_wrap_english_at_spaces():
    assert glyphs.wrap("Claim 3 columns in as few turns as you can.", 128, "medium") == [
        "Claim 3 columns in as", "few turns as you can."]
    assert glyphs.wrap("", 128, "medium") == [""]
    assert glyphs.wrap("abcdefghij", 20, "small") == ["abcd", "efgh", "ij"]  # a word longer than a line


def test_glyphs_wrap_korean_between_words():
    assert glyphs.wrap("최대한 적은 턴에 3개 열을 점령하세요.", 128, "medium") == [
        "최대한 적은 턴에 3개", "열을 점령하세요."]


def test_glyphs_wrap_japanese_between_characters_but_not_before_closing_marks():
    assert glyphs.wrap("できるだけ少ない手番で3列を確保しよう。", 128, "medium") == [
        "できるだけ少ない手番で3列", "を確保しよう。"]
    # 6 characters a line, but a line never starts with 。 so す。 go down together
    assert glyphs.wrap("ランナーを外す。色の駒はそのまま。", 60, "medium") == ["ランナーを外", "す。色の駒は", "そのまま。"]
    assert glyphs.wrap("「確保」する", 20, "medium") == ["「確", "保」", "する"]  # brackets are 5 wide


def test_glyphs_wrap_leaves_no_character_alone_on_the_last_line():
    """Issue 22, friction 7: "…赤の" / "駒" reads as a stray character; the word before it comes down too."""
    assert glyphs.wrap("リスキー: 6の列に 赤の駒", 96, "small") == ["リスキー: 6の列に", "赤の駒"]  # not "…赤の" / "駒"
    assert glyphs.wrap("리스키: 6열에 빨강 말", 80, "small") == ["리스키: 6열에", "빨강 말"]
    assert glyphs.wrap("ランナーを外す。色の駒", 50, "medium")[-1] != "駒"
    # when the word before would not fit with it, the lone character stays (nothing is ever lost)
    assert glyphs.wrap("abcdefgh i", 40, "small") == ["abcdefgh", "i"]


def test_glyphs_wrap_splits_a_word_leaving_no_letter_alone_with_a_mark_either():
    """The fit test's find: "Red→AAAAAAAA-" split as "Red→AAAAAAA" / "A-": one letter and a hyphen."""
    lines = glyphs.wrap("スマホでRed→AAAAAAAA-", 128, "medium")
    assert "".join(lines) == "スマホでRed→AAAAAAAA-" and all(sum(c.isalnum() for c in line) > 1 for line in lines), lines


def test_glyphs_wrap_a_lone_character_after_a_mark_takes_a_letter_too():
    """The fit test's find at 128x32: "…くくくくくく→" / "く": taking "→" alone left "→く", still one letter."""
    for width in range(80, 100):
        lines = glyphs.wrap("スマホでくくくくくく→く", width, "small")
        assert "".join(lines) == "スマホでくくくくくく→く" and all(sum(c.isalnum() for c in x) > 1 for x in lines), (width, lines)


def test_glyphs_wrap_leaves_no_character_alone_on_a_line_between_either():
    """The phone's notice "スマホでくくくく→AAAAAAAAAA" (the fit test's find): "…くくく" / "く" / "→AAAA…"."""
    assert glyphs.wrap("スマホでくくくく→AAAAAAAAAA", 70, "medium") == ["スマホでくく", "くく", "→AAAAAAAAAA"]
    assert glyphs.wrap("スマホでくくくく→AAAAAAAAAA", 56, "small") == ["スマホでくく", "くく", "→AAAAAAAA", "AA"]


def test_glyphs_wrap_splits_a_word_too_long_for_a_line_leaving_no_letter_alone():
    """A 22-letter reason on a 128-pixel line (21 medium cells): "MMM...M" / "M" was its split (the fit test)."""
    assert [len(line) for line in glyphs.wrap("M" * 22, 128, "medium")] == [20, 2]
    assert [len(line) for line in glyphs.wrap("M" * 43, 128, "medium")] == [21, 20, 2]
    assert [len(line) for line in glyphs.wrap("M" * 21, 128, "medium")] == [21]  # one that fits is not split


WRAP_TEXT = st.text(alphabet="ab 7+.。、ーっ「」가나 다확보あいう確保列", max_size=40)


@settings(max_examples=80, deadline=None)
@given(text=WRAP_TEXT, width=st.integers(min_value=12, max_value=128), size=st.sampled_from(glyphs.SIZES))
def test_glyphs_wrap_keeps_every_character_and_fits(text, width, size):
    lines = glyphs.wrap(text, width, size)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    for line in lines:
        assert glyphs.text_width(line, size) <= width or len(line) == 1
        assert line == line.strip()


if __name__ == "__main__":
    write_golden(look=Path(sys.argv[sys.argv.index("--look") + 1]) if "--look" in sys.argv else None)
