"""How the store writes JSON (game rows, events, facts): compact, exact, never NaN, one encoder for all.

``json.dumps`` with options builds a new encoder at every call, a third of
the cost of an event's text; an import writes hundreds of thousands of them.
"""

from __future__ import annotations

import json

#: The JSON text of ``obj`` as the store keeps it: no spaces, characters as they are, ValueError for NaN.
dump = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode
