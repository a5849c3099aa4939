"""Screens: every sample view renders pixel-exactly as its golden image, and fits (its speed: benchmarks/screens.py).

The sample views live in ``firmware/devtools/samples.py`` (``SAMPLES``), shared with the
gallery. After an intended change of the look, regenerate the golden images
and the gallery, look at them, and commit both:

    .venv/bin/python -m firmware.devtools.gallery --golden          # tests/screens/golden/*.png
    .venv/bin/python -m firmware.devtools.gallery docs/gallery      # docs/gallery/*.png + README.md

A failing comparison saves the actual frame under pytest's tmp_path and names
it in the assertion message.
"""

from __future__ import annotations

import typing
from dataclasses import replace

import pytest
from PIL import Image, ImageDraw

from firmware import screens, views
from firmware.devtools import gallery
from firmware.devtools.samples import SAMPLES
from firmware.screens import LAYOUTS, render, render_checked
from tests.kit.examples import SOAK



def _lit_share(image: Image.Image) -> float:
    """The share of lit pixels in a 1-bit image."""
    data = image.convert("L").tobytes()
    return sum(1 for b in data if b) / len(data)


def test_screens_samples_cover_every_view_type():
    view_types = set(typing.get_args(views.View))
    assert views.InstructionsView in view_types and views.TurnView in view_types
    assert {type(v) for v in SAMPLES.values()} == view_types
    assert view_types == set(screens.PAINTERS)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_screens_render_is_mono_128x64(name):
    image = render(SAMPLES[name])
    assert image.mode == "1"
    assert image.size == (128, 64)
    assert image.getbbox() is not None  # something is lit


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_screens_render_is_deterministic(name):
    view = SAMPLES[name]
    assert render(view).tobytes() == render(view).tobytes()
    # an equal (not identical) view gives the same frame too
    assert render(replace(view)).tobytes() == render(view).tobytes()


def test_screens_distinct_samples_give_distinct_frames():
    frames = {}
    for name, view in SAMPLES.items():
        frames.setdefault(render(view).tobytes(), []).append(name)
    same = [names for names in frames.values() if len(names) > 1]
    assert not same, f"samples with identical frames: {same}"


def test_screens_too_long_text_is_cut_and_reported():
    view = views.MessageView("A title far too long for the top bar of the box", ("x " * 200,), keys="ROLL:ok")
    image, cut = render_checked(view)
    assert "A title far too long for the top bar of the box" in cut
    assert "x " * 200 in cut
    assert image.size == (128, 64)


def test_screens_fit_ends_cut_text_with_dots():
    assert screens.fit("Burgundy", 40, "small") == "Burgundy"  # 8 x 5 px: just fits
    assert screens.fit("Burgundy!", 40, "small") == "Burgun.."


def test_screens_wrap_keeps_words_and_splits_long_ones():
    assert screens.wrap("Take off 7: Blue, Green", 128, "medium") == ["Take off 7: Blue,", "Green"]
    assert screens.wrap("x" * 30, 128, "small") == ["x" * 25, "x" * 5]
    for line in screens.wrap("a " * 40 + "b" * 40, 128, "medium"):
        assert screens.width_of(line, "medium") <= 128


def test_screens_alert_inverts_the_top_bar():
    plain = SAMPLES["turn_after_stop"]
    frame = render(replace(plain, alert="disk full"))
    bar = frame.crop((0, 0, 128, 10))
    assert _lit_share(bar) > 0.5  # mostly white: text is drawn dark on it
    # below the bar nothing changes
    assert render(plain).crop((0, 11, 128, 64)).tobytes() == frame.crop((0, 11, 128, 64)).tobytes()


def test_screens_bot_choice_is_inverted():
    view = SAMPLES["dice_bot_chose"]  # chose A
    frame = render(view)
    assert _lit_share(frame.crop((0, 27, 42, 55))) > 0.5
    assert _lit_share(frame.crop((43, 27, 85, 55))) < 0.5


def test_screens_illegal_pairing_shows_dashes_and_hollow_label():
    option = SAMPLES["dice_pick_and_illegal"].options[2]
    assert option.text == "--"
    frame = render(SAMPLES["dice_pick_and_illegal"])
    # the tab of C (illegal) is an outline, the tab of A (legal) is filled
    assert frame.getpixel((86 + 15, 27)) and not frame.getpixel((86 + 16, 28))
    assert frame.getpixel((0 + 15, 27)) and frame.getpixel((0 + 16, 28))


def test_screens_draw_the_option_text_the_view_gives():
    """One formatter: the cell shows Option.text (the words module's), not a text of its own."""
    from dataclasses import replace

    view = SAMPLES["dice_all_legal"]
    other = replace(view, options=(replace(view.options[0], text="5"),) + view.options[1:])
    assert render(view).crop((0, 27, 42, 45)).tobytes() != render(other).crop((0, 27, 42, 45)).tobytes()
    # a box seat that picked one sum of a pairing shows that sum alone
    picked = replace(SAMPLES["dice_pick_and_illegal"], bot=True, chosen="A:11")
    plain = replace(picked, options=(replace(picked.options[0], text="11"),) + picked.options[1:], chosen="A")
    assert render(picked).crop((0, 27, 42, 45)).tobytes() == render(plain).crop((0, 27, 42, 45)).tobytes()


@pytest.mark.parametrize("size", [3, 5, 7])
def test_screens_seat_symbols_differ(size):
    shapes = set()
    for seat in range(4):
        image = Image.new("1", (size, size))
        screens.draw_seat(ImageDraw.Draw(image), 0, 0, seat, size)
        shapes.add(image.tobytes())
    assert len(shapes) == 4
    assert [screens.seat_symbol(s) for s in range(4)] == ["filled square", "hollow square", "filled circle", "cross"]


def test_screens_seat_symbol_marks_the_player_in_the_top_bar():
    red = render(SAMPLES["turn_first"])
    blue = render(replace(SAMPLES["turn_first"], seat=1))
    assert red.crop((0, 0, 8, 9)).tobytes() != blue.crop((0, 0, 8, 9)).tobytes()
    assert red.crop((10, 0, 128, 64)).tobytes() == blue.crop((10, 0, 128, 64)).tobytes()


def test_screens_legend_boxes_each_button_name():
    frame = render(views.MessageView("T", ("x",), keys="ROLL:ok"))
    # "ROLL" is drawn dark in a lit box from x=0 to 4*5, rows 56..63
    assert _lit_share(frame.crop((0, 56, 21, 64))) > 0.5


def test_screens_menu_scrolls_to_keep_the_cursor_row_visible():
    items = tuple(f"Item {i}" for i in range(9))
    for cursor in range(9):
        frame = render(views.MenuView("Menu", items, cursor))
        rows = [_lit_share(frame.crop((0, 11 + i * 11, 100, 11 + i * 11 + 9))) for i in range(4)]
        assert sum(r > 0.5 for r in rows) == 1, f"cursor {cursor}: exactly one inverted row"


def test_screens_unknown_view_is_a_type_error():
    with pytest.raises(TypeError, match="no screen for str"):
        render("not a view")


def test_screens_other_sizes_get_the_frame_top_left():
    view = SAMPLES["turn_first"]
    big = render(view, (128, 128))
    assert big.size == (128, 128) and big.mode == "1"
    assert big.crop((0, 0, 128, 64)).tobytes() == render(view).tobytes()


def test_screens_gallery_writes_scaled_images_and_index(tmp_path):
    # make test: every fourth sample and the two looked at below (the images themselves are the golden ones,
    # tests/screens/test_golden.py); make soak: the whole gallery, as make gallery writes it
    names = set(SAMPLES) if SOAK else set(list(SAMPLES)[::4]) | {"pick", "hint"}
    paths = gallery.write_gallery(tmp_path, None if SOAK else names)
    assert {p.stem for p in paths} == names
    assert len(paths) == 3 * len(names) * len(LAYOUTS)  # English, 日本語, 한국어 side by side, at every size
    assert (tmp_path / "ja" / "pick.png").exists() and (tmp_path / "ko" / "pick.png").exists()
    with Image.open(tmp_path / "pick.png") as image:
        assert image.size == (128 * 4 + 16, 64 * 4 + 16)
        assert image.mode == "RGB"
    with Image.open(tmp_path / "128x32" / "hint.png") as image:  # three pages, top to bottom, 8 pixels apart
        assert image.size == (128 * 4 + 16, 3 * (32 * 4 + 16) + 2 * 8)
    assert "(128x32/README.md)" in (tmp_path / "README.md").read_text()
    index = (tmp_path / "README.md").read_text()
    for name in names:
        assert f"({name}.png)" in index
    assert set(gallery.CAPTIONS) == set(SAMPLES)


def test_screens_board_overview_gives_each_player_a_row():
    """Each player's pieces stand in their own row of the grid: a bar per marker, nothing elsewhere."""
    from firmware.screens import board

    v = SAMPLES["board_two_players"]
    frame = render(v)
    n = len(v.players)

    def ink(i, seat):
        x0 = board.cell_x(i)
        top, bottom = board.row_span(seat, n)
        return sum(frame.getpixel((x, y)) > 0 for x in range(x0, x0 + board.CELL) for y in range(top, bottom + 1))

    baseline = ink(0, 1)  # column 2: nobody there, only the cell's baseline
    for i, col in enumerate(v.columns):
        for seat in range(n):
            if col.owner is not None:
                assert (ink(i, seat) > baseline) == (col.owner == seat), (col.column, seat)
            elif col.markers[seat] or (seat == v.current and col.runner):
                assert ink(i, seat) > baseline, (col.column, seat)
            else:
                assert ink(i, seat) == baseline, (col.column, seat)
    # taller bars for higher markers: Blue on 7 at 9 of 13 against Red on 3 at 2 of 5
    assert board.bar_height(9, 13, 6) > board.bar_height(2, 5, 6) > 0 == board.bar_height(0, 5, 6)
    # rows are at least 8 pixels high with four players
    assert all(b - t + 1 >= 8 for t, b in (board.row_span(s, 4) for s in range(4)))


def test_screens_cuts_belong_to_one_frame():
    long = views.MessageView("A title far too long for the top bar of the box", ("x",), keys="ROLL:ok")
    assert render_checked(long).cuts == ("A title far too long for the top bar of the box",)
    # nothing carries over to the next frame, nor needs a context to be collected
    assert render_checked(SAMPLES["turn_first"]).cuts == ()
    assert render_checked(long).cuts == ("A title far too long for the top bar of the box",)
