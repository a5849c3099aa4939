"""Golden images: every sample view, in every language, at every screen size, pixel for pixel.

The samples live in ``firmware/devtools/samples.py``; a size's golden images are the
frames of :func:`firmware.devtools.gallery.sheet` (a frame of several pages: its pages
top to bottom). After an intended change of the look, regenerate them with
``make golden`` (and the gallery with ``make gallery``), look, and commit both.
A failing comparison saves the actual frame under pytest's tmp_path and names
it in the assertion message.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from firmware.devtools.gallery import golden_path, sheet, size_folder
from firmware.devtools.samples import CUT_NAMES, LANGUAGES, SAMPLES_AT, SAMPLES_IN
from firmware.screens import LAYOUTS, render_checked, render_pages
from hw.display import size_name

GOLDEN = Path(__file__).parent / "golden"

_id = size_name


@pytest.mark.parametrize("size", list(LAYOUTS), ids=_id)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_golden_every_sample_matches_its_image(size, lang, tmp_path):
    """Each sample of a size and language against its image: every one compared, and every one that differs
    named (one test a size and language, not one a sample: 700 tests of a few milliseconds each cost pytest-xdist
    more than their comparisons)."""
    failures = []
    for name in SAMPLES_IN[lang]:
        actual = sheet(SAMPLES_AT[size][lang][name], size)
        path = golden_path(name, lang, GOLDEN, size)
        if not path.exists():
            failures.append(f"no golden image {path}: run make golden")
            continue
        with Image.open(path) as golden:
            # compared as "L": ImageChops.difference on two mode "1" images reports a
            # difference everywhere when one of them was loaded from a PNG
            if golden.size != actual.size:
                failures.append(f"{path} is {golden.size}, the frame {actual.size}")
                continue
            differs = ImageChops.difference(actual.convert("L"), golden.convert("L")).getbbox()
        if differs is not None:
            out = tmp_path / f"{_id(size)}-{lang}-{name}.actual.png"
            actual.save(out)
            failures.append(f"{name} ({lang}, {_id(size)}) differs from {path} in box {differs}; actual frame saved to {out}")
    assert not failures, f"{len(failures)} of {len(SAMPLES_IN[lang])} samples:\n" + "\n".join(failures)


@pytest.mark.parametrize("size", list(LAYOUTS), ids=_id)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_golden_folders_hold_every_sample_and_nothing_else(size, lang):
    folder = golden_path("x", lang, GOLDEN, size).parent
    assert {p.stem for p in folder.glob("*.png")} == set(SAMPLES_IN[lang])


def test_golden_has_no_folder_for_a_size_without_screens():
    sizes = {p.name for p in GOLDEN.iterdir() if p.is_dir() and "x" in p.name}
    assert sizes == {size_folder(GOLDEN, s).name for s in LAYOUTS if size_folder(GOLDEN, s) != GOLDEN}


@pytest.mark.parametrize("size", list(LAYOUTS), ids=_id)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_golden_every_sample_fits_every_size(size, lang):
    """No text is cut on any page (but the long names cut on purpose), and every page shows something."""
    cut = {name: render_checked(view, size).cuts for name, view in SAMPLES_AT[size][lang].items() if name not in CUT_NAMES}
    assert {name: cuts for name, cuts in cut.items() if cuts} == {}
    layout = LAYOUTS[size]
    for name, view in SAMPLES_AT[size][lang].items():
        for page in render_pages(view, size):
            assert (page.size, page.mode) == (size, layout.mode), name
            assert page.getbbox() is not None, f"{name}: a dark page"
