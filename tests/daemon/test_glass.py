"""Whole games onto a modelled OLED: after every frame the controller's RAM is the frame.

The box runs as in test_daemon (mock pins, real store, real renderer), but its
display is the real ``open_oled`` driver talking to ``hw.oled_model``: the
bytes the serial interface receives are played into a model of the
controller's RAM and addressing, and each frame the daemon hands over is
compared with what the RAM then holds: on every panel the box drives,
including the 0.91-inch 128x32 SSD1306 (four RAM pages), whose long views the
daemon shows page after page.
"""

from __future__ import annotations

import pytest
from PIL import ImageChops
from tests.kit.rig import Rig

from firmware import views
from firmware.daemon.pager import PAGE_SECONDS
from firmware.devtools.samples import SAMPLES
from firmware.screens import LAYOUTS, render_pages
from hw.display import open_oled
from hw.errors import DisplayError
from hw.oled_model import HORIZONTAL, SH1106, SSD1306, ModelSerial
from hw.oled_model_grey import SSD1322

CONTRAST = 200
PANELS = [("ssd1306", SSD1306, 0), ("ssd1309", SSD1306, 0), ("sh1106", SH1106, 2), ("ssd1322", SSD1322, 112),
          ("ssd1306", SSD1306, 0, (128, 32))]
PANEL_IDS = ["ssd1306", "ssd1309", "sh1106", "ssd1322", "ssd1306-128x32"]
#: The panel each driver drives here by default: (width, height), interface.
PANEL_OF = {"ssd1322": ((256, 64), "spi")}
#: luma's SH1106 init sequence carries two SSD1306 commands the SH1106 does not know (harmless)
LUMA_SH1106_INIT_QUIRKS = ["unknown command 0x20", "unknown command 0x8D"]


class Glass:
    """The daemon's display: the real driver on a modelled controller, checked after every frame."""

    def __init__(self, driver: str, model_class, offset: int, size=None, model=None) -> None:
        (width, height), interface = PANEL_OF.get(driver, ((128, 64), "i2c"))
        width, height = size or (width, height)
        self.model = model or new_model(model_class, height)
        self.serial = ModelSerial(self.model)
        self.inner = open_oled(driver, serial=self.serial, contrast=CONTRAST, interface=interface,
                               width=width, height=height)
        self.model.warnings.clear()
        self.offset = offset
        self.checked = 0
        self.failed = 0
        self.wrong: list[str] = []
        self.last = None
        self.levels: set[int] = set()  # every grey level the frames used

    @property
    def size(self):
        return self.inner.size

    def show(self, image) -> None:
        try:
            self.inner.show(image)
        except DisplayError:
            self.failed += 1
            raise
        self.last = image
        self.levels |= {level for _, level in image.convert("L").getcolors(256)}
        self.check(f"frame {self.checked + self.failed}")

    def dim(self, on: bool) -> None:
        self.inner.dim(on)
        if not on and self.last is not None:
            self.check("after waking")

    def clear(self) -> None:
        self.inner.clear()

    def keep_last_frame(self) -> None:
        self.inner.keep_last_frame()

    def close(self) -> None:
        self.inner.close()

    def check(self, when: str) -> None:
        """Compare RAM and frame (never raises: the daemon would swallow it); ``wrong`` collects misses."""
        self.checked += 1
        ram = self.model.image(*self.size, offset=self.offset).convert("L")
        if ImageChops.difference(ram, intended(self.last, self.model)).getbbox() is not None:
            self.wrong.append(f"{when}: RAM differs from the frame")
        if not self.model.on:
            self.wrong.append(f"{when}: panel off")
        warnings = [w for w in self.model.warnings if w not in LUMA_SH1106_INIT_QUIRKS or not isinstance(self.model, SH1106)]
        if warnings:
            self.wrong.append(f"{when}: {warnings}")
        self.model.warnings.clear()

    def data_bytes(self) -> list[int]:
        return [len(payload) for kind, payload in self.serial.take() if kind == "data"]

    def full_frame(self) -> int:
        """Bytes of a whole frame: a bit a pixel, or four on the grey SSD1322."""
        width, height = self.size
        return width * height // (2 if isinstance(self.model, SSD1322) else 8)

    def disturb(self) -> None:
        """Flip a few bytes of RAM under the glass (as a glitch on a dim screen might)."""
        if isinstance(self.model, SSD1322):
            self.model.ram[2][60] ^= 0xFF
            self.model.ram[60][100] ^= 0x0F
        else:
            self.model.ram[2][40] ^= 0xFF
            self.model.ram[self.size[1] // 8 - 1][90] ^= 0x0F


def new_model(model_class, rows: int):
    """A controller on a panel of ``rows`` rows (the grey SSD1322 comes in one size)."""
    return model_class() if model_class is SSD1322 else model_class(rows=rows)


def intended(frame, model):
    """What the RAM should hold for ``frame``, as grey: lit or dark, or on the SSD1322 its 4-bit levels."""
    if isinstance(model, SSD1322):
        return frame.convert("L").point(lambda v: (v >> 4) * 17)
    return frame.convert("L")


@pytest.fixture(params=PANELS, ids=PANEL_IDS)
def glass_rig(request, tmp_path):
    glass = Glass(*request.param)
    rig = Rig(tmp_path, display=glass)
    yield rig, glass
    rig.close()


def test_glass_a_whole_game_ram_equals_every_frame(glass_rig):
    rig, glass = glass_rig
    glass.serial.take()
    rig.tap("ROLL")
    rig.play_on()
    assert glass.wrong == []
    assert glass.checked == rig.box.frames > 50 and glass.failed == 0
    grey = isinstance(glass.model, SSD1322)
    assert (glass.levels == {0, 255}) != grey  # the 256x64 frames were grey (the new-game cursor, at least)
    sent = glass.data_bytes()
    assert sum(sent) < 0.5 * glass.full_frame() * len(sent)  # and most of each frame stayed where it was


def test_glass_missed_frames_are_made_good(glass_rig):
    """Every fifth press the bus dies partway through a frame; the next frame puts the RAM right."""
    rig, glass = glass_rig
    rig.tap("ROLL")
    for press in range(150):
        if press % 5 == 0:
            glass.serial.fail_after = 7 + press % 50
        rig.play_on(presses=1)
        glass.serial.fail_after = None
        if isinstance(rig.view, views.WinView):
            break
    rig.tap("MENU")  # one more frame, after the last fault
    assert glass.failed > 5
    assert glass.wrong == []
    assert glass.model.contrast == CONTRAST


def test_glass_wake_from_dim_repaints_what_the_ram_lost(glass_rig):
    rig, glass = glass_rig
    rig.tap("ROLL")
    rig.tap("ROLL")
    rig.clock.advance(601)
    rig.box.pump()
    assert rig.box.dimmed and glass.model.contrast == 1
    glass.disturb()  # a disturbed RAM on a dim screen
    rig.tap("A")  # only wakes
    assert not rig.box.dimmed and glass.model.contrast == CONTRAST
    assert glass.wrong == [] and glass.checked >= 3


def test_glass_panel_replugged_mid_game_is_set_up_again(glass_rig):
    """Unplugged: frames fail. Plugged back: power-cycled controller, the next frame re-inits it."""
    rig, glass = glass_rig
    rig.tap("ROLL")
    for _ in range(6):
        rig.play_on(presses=1)
    glass.serial.unplugged = True
    for _ in range(3):
        rig.play_on(presses=1)
    assert glass.failed >= 1
    glass.model.power_cycle(seed=3)  # off, page addressing, default contrast, noise in RAM
    glass.serial.unplugged = False
    for _ in range(10):
        rig.play_on(presses=1)
    assert glass.wrong == []
    assert glass.model.on and glass.model.contrast == CONTRAST
    if isinstance(glass.model, SSD1306):
        assert glass.model.mode == HORIZONTAL


@pytest.mark.parametrize("panel", [PANELS[0], PANELS[3]], ids=["ssd1306", "ssd1322"])
def test_glass_box_restart_re_inits_the_same_panel(tmp_path, panel):
    """A new box on the same (still lit, still horizontal) panel: luma's init, then correct frames."""
    glass = Glass(*panel)
    first = Rig(tmp_path, display=glass)
    first.tap("ROLL")
    first.tap("ROLL")
    first.close()
    again = Glass(*panel, model=glass.model)
    second = Rig(tmp_path, display=again)
    try:
        second.play_on(presses=1)
        second.play_on(presses=1)
        assert again.wrong == [] and again.checked >= 3
    finally:
        second.close()


#: driver -> (model class, the panel's first RAM column)
MODELS = {driver: (model_class, offset) for driver, model_class, offset, *_ in PANELS}


def _panels_for(size):
    from hw.display import SIZES

    return [driver for driver, sizes in SIZES.items() if size in sizes and driver in MODELS]


SCREENS_AT = [(size, driver) for size in LAYOUTS for driver in _panels_for(size)]


@pytest.mark.parametrize("size, driver", SCREENS_AT, ids=[f"{s[0]}x{s[1]}-{d}" for s, d in SCREENS_AT])
def test_glass_every_screen_at_every_size_lands_in_ram(size, driver):
    """Every sample screen (each of its pages), one after another, on each panel that comes in that size."""
    from hw.display import SPI_ONLY

    model_class, offset = MODELS[driver]
    model = new_model(model_class, size[1])
    display = open_oled(driver, serial=ModelSerial(model), width=size[0], height=size[1],
                        interface="spi" if driver in SPI_ONLY else "i2c")
    model.warnings.clear()
    shown = 0
    for name, view in SAMPLES.items():
        for page in render_pages(view, size):
            display.show(page)
            ram = model.image(size[0], size[1], offset).convert("L")
            assert ImageChops.difference(ram, intended(page, model)).getbbox() is None, name
            shown += 1
    warnings = [w for w in model.warnings if not (isinstance(model, SH1106) and w in LUMA_SH1106_INIT_QUIRKS)]
    assert warnings == [] and shown >= len(SAMPLES)


@pytest.fixture
def small_glass(tmp_path):
    """A game on the 128x32 panel with a hint up: a view of several pages."""
    glass = Glass("ssd1306", SSD1306, 0, (128, 32))
    rig = Rig(tmp_path, display=glass)
    rig.tap("ROLL")
    rig.hold("ROLL")
    assert len(render_pages(rig.view, (128, 32))) > 1
    yield rig, glass
    rig.close()


def test_glass_128x32_pages_flip_onto_the_ram_through_a_whole_game(small_glass):
    """On the 32-row panel every view lingers long enough to flip: each page, as flipped, is what the RAM holds."""
    rig, glass = small_glass
    paged = len(render_pages(rig.view, (128, 32)))
    before = glass.checked
    for _ in range(paged):
        rig.clock.advance(PAGE_SECONDS)
        rig.box.pump()
    assert glass.checked == before + paged  # every flip went to the glass, back to the first page
    rig.tap("ROLL")
    flips = timed = 0
    for _ in range(400):
        if isinstance(rig.view, views.WinView):
            break
        shown, by_time = glass.checked, isinstance(rig.view, (views.TurnView, views.MoveView))
        rig.clock.advance(PAGE_SECONDS)
        rig.box.pump()
        if by_time:  # flipped by time (docs/display.md): the turn's heading and legend, then the note about the
            # last turn; the move's runners and legend, then the chance with its caption (issue 32)
            timed += glass.checked - shown
        else:
            flips += glass.checked - shown
        rig.play_on(presses=1)
    # the game's other screens are one page each: instructions are paged by the 128x32 layout and turned by
    # ROLL, never flipped by time as well (issue 19: they were paged twice)
    assert flips == 0 and timed > 0
    assert glass.wrong == [] and glass.failed == 0
    assert glass.checked == rig.box.frames


def test_glass_128x32_bus_faults_while_pages_flip_are_made_good(small_glass):
    """The bus dies partway through some flips; the next page (or frame) puts the RAM right."""
    rig, glass = small_glass
    for flip in range(12):
        if flip % 3 == 0:
            glass.serial.fail_after = 5 + 20 * flip
        rig.clock.advance(PAGE_SECONDS)
        rig.box.pump()
        glass.serial.fail_after = None
    rig.tap("MENU")  # a new view after the last fault
    assert glass.failed >= 2
    assert glass.wrong == []
