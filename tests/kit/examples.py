"""How many examples a big property draws: a share in ``make test``, all of them in ``make soak``.

``make soak`` sets ``CANTSTOP_SOAK=1`` and runs the same tests again with the
larger count; ``make test`` (and CI, derandomized) keeps to the smaller one,
enough to check the same property in the suite's time budget (docs/testing.md).
"""

from __future__ import annotations

import os

SOAK = bool(os.environ.get("CANTSTOP_SOAK"))


def examples(*, test: int, soak: int) -> int:
    """``test`` draws in make test, ``soak`` under ``CANTSTOP_SOAK=1`` (make soak)."""
    return soak if SOAK else test
