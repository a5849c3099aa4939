"""The Phone screen's QR code, drawn by the real renderer at every size, read back by a real decoder (zbarimg)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from PIL import ImageOps

from firmware import words
from firmware.screens import LAYOUTS, render_pages
from firmware.views import PhoneView

ADDRESS = "http://cantstop-box.local:8080/pair?k=Zq3-_x9TbLw0"  # the longest a pairing key makes (12 characters)


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="no zbarimg here (apt-get install zbar-tools)")
@pytest.mark.parametrize("size", sorted(LAYOUTS))
def test_a_camera_reads_the_pairing_address_off_every_screen_size(size, tmp_path):
    w = words.language("ja")
    view = PhoneView(w.PHONE, ADDRESS, "482913", w.phone_lines(2), w.PHONE_KEYS, lang="ja")
    for k, page in enumerate(render_pages(view, size)):
        glass = page.convert("L")
        # as a camera sees the glass: bigger, and the box's dark bezel round it
        shot = ImageOps.expand(glass.resize((glass.width * 4, glass.height * 4), 0), border=32, fill=0)
        path = tmp_path / f"page{k}.png"
        shot.save(path)
        read = subprocess.run(["zbarimg", "-q", "--raw", str(path)], capture_output=True, text=True, timeout=30)
        assert read.stdout.strip() == ADDRESS, (size, k, read.stderr)


def test_no_code_yet_no_qr_code():
    blank = PhoneView("Phone", "", "", (), "C:forget ROLL:back")
    lit = render_pages(blank, (128, 64))[0].convert("L").getbbox()
    assert lit is not None and lit[2] - lit[0] < 100  # words only: no lit square of a QR code
