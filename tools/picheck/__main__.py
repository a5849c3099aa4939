"""``python -m tools.picheck``: make pi-check (see tools/picheck/check.py)."""

import sys

from tools.picheck.check import main

sys.exit(main())
