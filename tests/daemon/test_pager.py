"""Pages shown in turns: the pager alone, and the daemon flipping a small screen's pages by its clock."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops
from tests.kit.rig import Rig

from firmware import views
from firmware.daemon.pager import PAGE_SECONDS, Pager, pages_of
from firmware.screens import render, render_pages
from hw.fakes import FakeDisplay

SMALL = (128, 32)


def _same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


def _distinct(n: int) -> tuple[Image.Image, ...]:
    """n pages told apart by one lit pixel each."""
    pages = []
    for k in range(n):
        page = Image.new("1", SMALL, 0)
        page.putpixel((k, 0), 1)
        pages.append(page)
    return tuple(pages)


def test_pager_one_image_is_one_page_and_never_flips():
    pager = Pager(3.0)
    image = Image.new("1", SMALL)
    assert pager.start(image, 10.0) is image
    assert pager.due is None
    assert pager.flip(1e9) is None


def test_pager_flips_in_turns_and_back_to_the_first():
    pager = Pager(3.0)
    pages = _distinct(3)
    assert pager.start(pages, 10.0) is pages[0] and pager.due == 13.0
    assert pager.flip(12.9) is None
    assert pager.flip(13.0) is pages[1] and pager.due == 16.0
    assert pager.flip(16.5) is pages[2]
    assert pager.flip(19.5) is pages[0]
    assert pager.start(pages[:2], 20.0) is pages[0] and pager.index == 0 and pager.due == 23.0


def test_pages_of_takes_an_image_a_tuple_or_a_list():
    pages = _distinct(2)
    assert pages_of(pages[0]) == (pages[0],)
    assert pages_of(pages) == pages
    assert pages_of(list(pages)) == pages


@pytest.fixture
def small_rig(tmp_path):
    rig = Rig(tmp_path, display=FakeDisplay(SMALL))
    yield rig
    rig.close()


def _to_hint(rig) -> tuple[Image.Image, ...]:
    rig.tap("ROLL")  # the game starts
    rig.hold("ROLL")  # a hint: its reason pages on 128x32
    assert isinstance(rig.view, views.HintView)
    pages = render_pages(rig.view, SMALL)
    assert len(pages) >= 2
    return pages


def test_daemon_shows_a_long_view_page_after_page_by_its_clock(small_rig):
    rig = small_rig
    pages = _to_hint(rig)
    assert _same(rig.display.last, pages[0])
    shown = len(rig.display.frames)
    rig.clock.advance(PAGE_SECONDS - 0.5)
    rig.box.pump()
    assert len(rig.display.frames) == shown  # not yet
    for k in range(1, len(pages) + 2):
        rig.clock.advance(PAGE_SECONDS)
        rig.box.pump()
        assert _same(rig.display.last, pages[k % len(pages)]), f"flip {k}"
    assert rig.box.frames == len(rig.display.frames)


def test_daemon_flips_without_rendering_again(small_rig, monkeypatch):
    rig = small_rig
    _to_hint(rig)
    calls = []
    real = rig.box.renderer
    rig.box.renderer = lambda view, size: calls.append(view) or real(view, size)
    for _ in range(5):
        rig.clock.advance(PAGE_SECONDS)
        rig.box.pump()
    assert calls == []


def test_daemon_a_new_view_starts_at_its_first_page(small_rig):
    rig = small_rig
    _to_hint(rig)
    rig.clock.advance(PAGE_SECONDS)
    rig.box.pump()
    rig.tap("MENU")  # the menu: one page
    assert isinstance(rig.view, views.MenuView)
    assert _same(rig.display.last, render_pages(rig.view, SMALL)[0])
    assert rig.box.pager.due is None
    rig.tap("MENU")  # back: the hint again, from its first page
    shown = render_pages(rig.view, SMALL)
    assert _same(rig.display.last, shown[0])


def test_daemon_a_dim_screen_stays_on_its_page(small_rig):
    rig = small_rig
    _to_hint(rig)
    rig.clock.advance(601)
    rig.box.pump()
    assert rig.box.dimmed
    shown = len(rig.display.frames)
    for _ in range(4):
        rig.clock.advance(PAGE_SECONDS)
        rig.box.pump()
    assert len(rig.display.frames) == shown


def test_daemon_a_screen_waking_shows_its_page_a_whole_turn_before_the_next(small_rig):
    rig = small_rig
    pages = _to_hint(rig)
    rig.clock.advance(601)
    rig.box.pump()
    rig.clock.advance(30)  # dim for a while: the next flip is long due
    rig.box.pump()
    assert rig.box.dimmed
    up = rig.box.pager.index
    rig.tap("A")  # only wakes
    assert not rig.box.dimmed and rig.box.pager.index == up
    rig.clock.advance(PAGE_SECONDS - 0.5)
    rig.box.pump()
    assert rig.box.pager.index == up
    rig.clock.advance(0.5)
    rig.box.pump()
    assert _same(rig.display.last, pages[(up + 1) % len(pages)])


def test_pager_stay_restarts_the_turn_of_a_paged_frame_only():
    pager = Pager(3.0)
    pager.start(_distinct(2), 10.0)
    pager.stay(50.0)
    assert pager.due == 53.0 and pager.flip(52.0) is None
    pager.start(_distinct(1), 60.0)
    pager.stay(70.0)
    assert pager.due is None


def test_daemon_takes_a_renderer_giving_one_image(tmp_path):
    """Benchmarks pass a renderer that returns one image: it is shown, and nothing flips."""
    display = FakeDisplay(SMALL)
    rig = Rig(tmp_path, display=display)
    try:
        rig.box.renderer = lambda view, size: render(view, size)
        rig.tap("ROLL")
        rig.hold("ROLL")
        assert _same(display.last, render(rig.view, SMALL))
        assert rig.box.pager.due is None
        shown = len(display.frames)
        rig.clock.advance(10 * PAGE_SECONDS)
        rig.box.pump()
        assert len(display.frames) == shown
    finally:
        rig.close()
