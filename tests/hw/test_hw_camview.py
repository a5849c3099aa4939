"""The emulator's camera view: a picture file in coloured half blocks beside the frame, read only when it changed."""

from __future__ import annotations

import io
import os
import random
import re
import time

from PIL import Image, ImageDraw

from hw.camview import MAX_BYTES, CameraView, fitted, picture_rows, read_picture, shrink
from hw.terminal import CURSOR_HOME, SIDE_GAP, TerminalDisplay

RED, GREEN, BLUE, WHITE = (230, 40, 40), (60, 200, 60), (40, 40, 230), (250, 250, 250)
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def quarters(path, size=(64, 40)) -> None:
    """A picture of four quarters: red, green above; blue, white below."""
    w, h = size
    image = Image.new("RGB", size)
    for (x, y), colour in {(0, 0): RED, (1, 0): GREEN, (0, 1): BLUE, (1, 1): WHITE}.items():
        image.paste(colour, (x * w // 2, y * h // 2, (x + 1) * w // 2, (y + 1) * h // 2))
    image.save(path)


def cells(text: str) -> list[tuple]:
    """Each half block of a line as (top colour, bottom colour), read from its SGR escapes."""
    out, top, bottom, i = [], None, None, 0
    while i < len(text):
        m = SGR.match(text, i)
        if m:
            codes = [int(c) for c in m.group(1).split(";") if c]
            while codes:
                if codes[:2] == [38, 2]:
                    top, codes = tuple(codes[2:5]), codes[5:]
                elif codes[:2] == [48, 2]:
                    bottom, codes = tuple(codes[2:5]), codes[5:]
                else:
                    top, bottom = (None, bottom) if codes[0] == 39 else (top, None) if codes[0] == 49 else (top, bottom)
                    codes = codes[1:]
            i = m.end()
            continue
        if text[i] == "▀":
            out.append((top, bottom))
        i += 1
    return out


def near(a, b, slack=8) -> bool:
    return a is not None and all(abs(x - y) <= slack for x, y in zip(a, b))


def frame() -> Image.Image:
    return Image.new("1", (128, 64))


def test_camview_fits_a_picture_in_cells_keeping_its_shape():
    assert fitted((1280, 720), 64, 33) == (64, 36)  # a webcam's photo: as wide as the panel
    assert fitted((400, 800), 64, 10) == (10, 20)  # a tall one: as tall
    assert fitted((10, 10), 64, 0) == (0, 0)


def test_camview_draws_each_cell_as_two_pixels_in_24_bit_colour(tmp_path):
    quarters(tmp_path / "read.png")
    rows = picture_rows(read_picture(tmp_path / "read.png"), 32, 10)
    assert len(rows) == 10 and all(len(cells(r)) == 32 for r in rows)
    first, last = cells(rows[0]), cells(rows[-1])
    assert near(first[0][0], RED) and near(first[0][1], RED) and near(first[-1][0], GREEN)
    assert near(last[0][1], BLUE) and near(last[-1][1], WHITE)
    assert rows[0].endswith("\x1b[39;49m")  # the terminal's colours back at the end of each row


def ringed_board(size=800, seed=1) -> Image.Image:
    """A noisy brown board with thin rings (two pixels, as the camera draws them): yellow and red."""
    noise = Image.frombytes("RGB", (size, size), random.Random(seed).randbytes(size * size * 3))
    image = noise.point([base - 25 + v * 50 // 255 for base in (150, 100, 60) for v in range(256)])
    draw = ImageDraw.Draw(image)
    draw.ellipse((100, 100, 136, 136), outline=(240, 210, 0), width=2)
    draw.ellipse((600, 600, 636, 636), outline=RED, width=2)
    return image


def test_camview_keeps_the_camera_s_thin_rings_when_it_shrinks_a_picture():
    image = ringed_board()
    averaged, kept = shrink(image, (40, 40)), shrink(image, (40, 40), marks=[(240, 210, 0), RED])
    assert averaged.getpixel((5, 5)) != (240, 210, 0)  # averaged with the board, a two-pixel ring is gone
    colours = kept.getcolors()
    assert (240, 210, 0) in [c for _, c in colours] and RED in [c for _, c in colours]
    assert kept.getpixel((5, 5)) == (240, 210, 0) or kept.getpixel((6, 6)) == (240, 210, 0)
    assert sum(n for n, c in colours if c in ((240, 210, 0), RED)) <= 12  # where the rings are, not the noise


def test_camview_shows_the_newest_picture_beside_the_frame_and_its_line(tmp_path):
    quarters(tmp_path / "read.png")
    view = CameraView([tmp_path / "read.png", tmp_path / "view.jpg"], said=lambda: "camera: right")
    assert view.look()
    out = io.StringIO()
    display = TerminalDisplay(out, footer="keys", terminal_size=lambda: (200, 40), side=view.lines)
    display.show(frame())
    lines = out.getvalue().split(CURSOR_HOME)[-1].splitlines()
    panel = [line.rsplit("│" + " " * SIDE_GAP, 1)[1] for line in lines[1:33]]
    picture = [cells(line) for line in panel if "▀" in line]
    assert len(picture[0]) == 64 and near(picture[0][0][0], RED) and near(picture[0][-1][0], GREEN)
    assert near(picture[-1][0][1], BLUE) and near(picture[-1][-1][1], WHITE)
    assert panel[len(picture)].startswith("camera: right")  # the line under the picture
    assert lines[0].startswith("┌") and "▀" in lines[0]  # the panel starts on the frame's first line


def test_camview_goes_under_the_frame_in_a_narrow_terminal_and_away_in_a_short_one(tmp_path):
    quarters(tmp_path / "read.png")
    view = CameraView([tmp_path / "read.png"], said=lambda: "camera: watching")
    view.look()
    size = [140, 60]
    out = io.StringIO()
    display = TerminalDisplay(out, footer="keys", terminal_size=lambda: tuple(size), side=view.lines)
    display.show(frame())
    lines = out.getvalue().split(CURSOR_HOME)[-1].splitlines()
    assert all("▀" not in line for line in lines[1:33] if line.startswith("│"))  # nothing beside
    assert lines[33].startswith("└") and lines[34].startswith("keys") and "▀" in lines[35]
    assert any(line.startswith("camera: watching") for line in lines[35:])
    assert len(lines) <= size[1] - 1
    size[:] = [140, 38]  # two lines to spare: the line alone
    display.redraw()
    lines = out.getvalue().split(CURSOR_HOME)[-1].splitlines()
    assert lines[35].startswith("camera: watching") and lines[36:] == ["\x1b[J"]  # then the rest cleared
    size[:] = [140, 36]  # the frame and its footer: no line to spare
    display.redraw()
    drawn = out.getvalue().split(CURSOR_HOME)[-1]
    assert "camera" not in drawn and "\x1b[38;2" not in drawn


def test_camview_looks_again_only_when_a_file_changed(tmp_path):
    quarters(tmp_path / "read.png")
    said = ["camera: watching"]
    view = CameraView([tmp_path / "read.png", tmp_path / "view.jpg"], said=lambda: said[0])
    assert view.look() and view.picture is not None
    first = view.picture
    assert not view.look() and view.picture is first  # nothing changed: nothing read
    said[0] = "camera: wrong"
    assert view.look() and view.picture is first  # the line changed, the picture was not read again
    Image.new("RGB", (64, 36), BLUE).save(tmp_path / "view.jpg")
    later = time.time() + 5
    os.utime(tmp_path / "view.jpg", (later, later))  # the photo is newer than the board read: it is shown
    assert view.look() and near(view.picture.getpixel((10, 10)), BLUE, 12)
    os.remove(tmp_path / "read.png")
    os.remove(tmp_path / "view.jpg")
    assert view.look() and view.picture is None and view.lines(40, 10) == ["camera: wrong"]


def test_camview_refuses_a_file_too_big_without_reading_it(tmp_path):
    path = tmp_path / "read.png"
    quarters(path)
    with open(path, "r+b") as file:
        file.truncate(64 * 1024**3)  # 64 GB, sparse: read whole, it would not fit in memory
    started = time.monotonic()
    assert read_picture(path) is None
    view = CameraView([path], said=lambda: "camera: right")
    assert view.look() and view.picture is None and view.lines(40, 10) == ["camera: right"]
    assert time.monotonic() - started < 1.0
    small = tmp_path / "small.png"
    quarters(small)
    assert read_picture(small, max_bytes=small.stat().st_size - 1) is None
    assert read_picture(small, max_bytes=MAX_BYTES) is not None


def test_camview_refuses_a_small_file_of_a_huge_picture_and_one_that_is_not_a_picture(tmp_path):
    huge = tmp_path / "huge.png"
    Image.new("1", (5000, 4000)).save(huge)  # a few kB for 20 million pixels
    assert huge.stat().st_size < MAX_BYTES and read_picture(huge) is None
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 100)
    assert read_picture(broken) is None and read_picture(tmp_path / "missing.png") is None


def test_camview_watch_redraws_from_its_own_thread_when_the_picture_arrives(tmp_path):
    view = CameraView([tmp_path / "read.png"], said=lambda: "camera: watching")
    out = io.StringIO()
    display = TerminalDisplay(out, footer="keys", terminal_size=lambda: (200, 40), side=view.lines)
    display.show(frame())
    view.watch(display.redraw, every=0.02)
    try:
        deadline = time.monotonic() + 5
        while "camera: watching" not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "camera: watching" in out.getvalue() and "\x1b[38;2" not in out.getvalue()
        quarters(tmp_path / "read.png")
        while "\x1b[38;2" not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "\x1b[38;2;230;40;40m" in out.getvalue()  # the red quarter, drawn by the view's thread
    finally:
        view.close()
    assert view._thread is None
