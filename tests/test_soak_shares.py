"""``make soak`` runs in whole what ``make test`` runs a share of (tests/kit/examples.py, docs/testing.md).

A test that draws ``examples(test=..., soak=...)`` or reads ``SOAK`` only gets its whole count under
``CANTSTOP_SOAK=1``; the Makefile's ``SOAK_SHARES`` is the list of files make soak runs so. A file left off
the list would never run in whole anywhere.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
USES_A_SHARE = re.compile(r"^from tests\.kit\.examples import", re.MULTILINE)


def soak_shares() -> set[str]:
    makefile = (ROOT / "Makefile").read_text().replace("\\\n", " ")  # a line continued is one line
    line = re.search(r"^SOAK_SHARES := (.*)$", makefile, re.MULTILINE).group(1)
    return {str(path.relative_to(ROOT)) for pattern in line.split() for path in ROOT.glob(pattern)}


def test_every_file_that_runs_a_share_in_make_test_runs_whole_in_make_soak():
    sharing = {str(path.relative_to(ROOT)) for path in (ROOT / "tests").rglob("test_*.py")
               if USES_A_SHARE.search(path.read_text(encoding="utf-8"))}
    assert {"tests/web/test_browser.py", "tests/screens/test_fit_play.py", "tests/engine/test_engine_properties.py"} <= sharing
    assert sharing <= soak_shares(), sorted(sharing - soak_shares())


def test_make_soak_runs_the_shares_whole():
    recipe = (ROOT / "Makefile").read_text().split("\nsoak: $(STAMP)\n")[1].split("\n\n")[0]
    assert "CANTSTOP_SOAK=1 $(PY) -m pytest" in recipe and "$(SOAK_SHARES)" in recipe
