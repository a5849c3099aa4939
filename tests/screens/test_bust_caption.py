"""The caption beside the bust chance ("bust if you / roll again") is read at arm's length (issue 32, item 7).

Its glyphs are measured as drawn (each caption line drawn alone, the height of its ink): at least
``ARM_LENGTH`` rows, at 128x32, 128x64 and 256x64, in English, Japanese and Korean, with one runner or two
and a chance of two to six characters. The move text and the chance keep their fonts. On 128x64 and 256x64
the move is one page (a flip would hide what to move half of the time at a table): where the two medium
lines do not fit beside the chance under the runners, the caption is its one word ("bust", 「バースト」,
「버스트」) in the large font, clear of the runners' lines. On 128x32 the chance and its caption have the
page after the runners.
"""

from __future__ import annotations

import pytest
from PIL import Image

from firmware import words
from firmware.devtools.samples import HEIGHTS, LANGUAGES, SAMPLES_AT
from firmware.screens import render_traced
from firmware.screens.kit import BODY_TOP
from firmware.views import MoveView, RunnerMove, Track
from hw import fonts, glyphs

SIZES = [(128, 32), (128, 64), (256, 64)]
ONE_PAGE = [(128, 64), (256, 64)]
#: The fewest rows of ink a caption line may have: Galmuri9's kana and Hangul (the medium font) have 9,
#: Spleen's medium Latin 10 or 11; the small font's 7 (Galmuri7) or 8 (Spleen 5x8) are read from a chair, not
#: from across the table.
ARM_LENGTH = 9
PLAIN = ["move_two_steps", "move_top", "move_double", "move_speedy"]


def _made(lang: str, columns: tuple[int, ...], bust: float, size) -> MoveView:
    """A plain move (a stop allowed, no box seat) of runners on ``columns`` with the chance ``bust``; at 256x64
    with the board of the player to act beside it, as the box draws it."""
    w = words.language(lang)
    steps = tuple(RunnerMove(c, 3, False, False) for c in columns)
    board = tuple(Track(c, h, 0, 3 if c in columns else 0) for c, h in HEIGHTS.items()) if size == (256, 64) else ()
    return MoveView(w.colour("Red"), 0, steps, bust, True, 3 - len(columns), keys=w.KEYS["roll_or_stop"], lang=lang,
                    board=board)


def _ink(text: str, font: str) -> tuple[int, int, int, int] | None:
    """The box of ``text``'s ink, drawn alone in ``font`` at (0, 0)."""
    image = Image.new("1", (glyphs.text_width(text, font) + 4, fonts.CELLS[font][1] + 4), 0)
    glyphs.draw_text(image, (0, 0), text, font, 1)
    return image.getbbox()


def _ink_rows(text: str, font: str) -> int:
    """How many rows of ink ``text`` has, drawn alone in ``font``."""
    box = _ink(text, font)
    return 0 if box is None else box[3] - box[1]


def caption_drawn(view: MoveView, size) -> list:
    """The caption's texts as drawn: its two lines, or its one word."""
    w = words.language(view.lang)
    caption = {*w.SCREEN["bust_if"], w.SCREEN["bust_word"]}
    return [t for t in render_traced(view, size).texts if t.text in caption]


def assert_read_at_arms_length(view: MoveView, size) -> list[str]:
    """The caption on the frame: both lines or (not on 128x32) the one word, each at least ``ARM_LENGTH`` rows
    of ink; on 128x64 and 256x64 on the one page, under the runners. Returns the texts drawn."""
    w = words.language(view.lang)
    traced = render_traced(view, size)
    drawn = caption_drawn(view, size)
    said = [t.text for t in drawn]
    allowed = [list(w.SCREEN["bust_if"])] + ([[w.SCREEN["bust_word"]]] if size in ONE_PAGE else [])
    assert said in allowed, said
    assert min(_ink_rows(t.text, t.font) for t in drawn) >= ARM_LENGTH, [(t.text, t.font) for t in drawn]
    if size in ONE_PAGE:
        assert len(traced.pages) == 1
        # clear of the runners' lines (14 rows each from the body's top) and of their instructions' ink
        runners = {w.runner_step(s.step, s.new, s.top, s.jumped) for s in view.steps}
        under = max([BODY_TOP + 14 * len(view.steps[:2])]
                    + [t.y + _ink(t.text, t.font)[3] for t in traced.texts if t.text in runners])
        assert all(t.y + _ink(t.text, t.font)[1] >= under for t in drawn), (under, drawn)
    return said


CASES = [(name, lang) for name in PLAIN for lang in LANGUAGES]
MADE = [((7,), 0.0), ((7,), 0.077), ((12,), 0.4405), ((7,), 0.239), ((7, 9), 0.239), ((2, 12), 1.0),
        ((6, 8), 0.077)]
#: and the widest chance there is (">99.9%")
WIDEST = [((7,), 0.99999), ((7, 9), 0.99999)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name, lang", CASES)
def test_bust_caption_is_read_at_arms_length_in_the_samples(size, name, lang):
    assert_read_at_arms_length(SAMPLES_AT[size][lang][name], size)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("columns, bust", MADE)
def test_bust_caption_is_read_at_arms_length_with_any_runners_and_chance(size, lang, columns, bust):
    assert_read_at_arms_length(_made(lang, columns, bust, size), size)


#: Where the caption is its one word: (size, runners, chance) -> the languages whose two medium lines do not fit.
#: Two runners leave 16 rows under them on 128x64 (one line), 25 on 256x64 (the legend is the board's);
#: beside "23.9%" a Japanese line is wider than the column leaves, beside ">99.9%" an English one too.
ONE_WORD = {
    ((128, 64), (7,), 0.239): {"ja"}, ((128, 64), (7, 9), 0.239): {"en", "ja", "ko"},
    ((256, 64), (7,), 0.239): {"ja"}, ((256, 64), (7, 9), 0.239): {"ja"},
    ((128, 64), (7,), 0.99999): {"en", "ja", "ko"}, ((128, 64), (7, 9), 0.99999): {"en", "ja", "ko"},
    ((256, 64), (7,), 0.99999): {"en", "ja"}, ((256, 64), (7, 9), 0.99999): {"en", "ja"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size, columns, bust", list(ONE_WORD))
def test_the_caption_is_its_one_word_large_where_two_medium_lines_do_not_fit(size, columns, bust, lang):
    """The word in the large font (a medium "bust" has 8 rows of ink), else the two lines in the medium one."""
    w = words.language(lang)
    view = _made(lang, columns, bust, size)
    said = assert_read_at_arms_length(view, size)
    one = lang in ONE_WORD[size, columns, bust]
    assert said == ([w.SCREEN["bust_word"]] if one else list(w.SCREEN["bust_if"]))
    assert {t.font for t in caption_drawn(view, size)} == {"large" if one else "medium"}


def test_the_one_word_is_the_glossarys_word_for_bust():
    assert [words.language(lang).SCREEN["bust_word"] for lang in LANGUAGES] == ["bust", "バースト", "버스트"]


@pytest.mark.parametrize("size", ONE_PAGE)
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("columns, bust", MADE + WIDEST)
def test_move_text_and_chance_keep_their_fonts(size, lang, columns, bust):
    """The runners' instructions stay medium and the chance huge."""
    view = _made(lang, columns, bust, size)
    w = words.language(lang)
    said = {w.runner_step(s.step, s.new, s.top, s.jumped) for s in view.steps}
    texts = render_traced(view, size).texts
    assert {t.font for t in texts if t.text in said} == {"medium"}
    assert {t.font for t in texts if t.text == w.percent(bust)} == {"huge"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("columns, bust", MADE)
def test_128x32_chance_is_large_beside_its_caption_on_the_page_after_the_runners(lang, columns, bust):
    """The top bar says "bust 23.9%" with the runners; the next page the chance in the large font, the caption
    beside it, and the legend (no room for it on the runners' page)."""
    view = _made(lang, columns, bust, (128, 32))
    traced = render_traced(view, (128, 32))
    w = words.language(lang)
    assert len(traced.pages) == 2
    assert w.bust_status(bust) in {t.text for t in traced.texts if t.page == 0}
    second = {(t.text, t.font) for t in traced.texts if t.page == 1}
    assert (w.percent(bust), "large") in second
    assert {(line, "medium") for line in w.SCREEN["bust_if"]} <= second
