"""``python -m tools.image``: make image (see tools/image/build.py)."""

import sys

from tools.image.build import main

sys.exit(main())
