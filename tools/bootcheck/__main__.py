"""``python -m tools.bootcheck``: make boot-check (see tools/bootcheck/check.py)."""

import sys

from tools.bootcheck.check import main

sys.exit(main())
