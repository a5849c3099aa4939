"""A number as a browser sends it (a form field, a header): ASCII digits only.

``str.isdigit()`` is true for '²', '٣' and '１' too, and ``int()`` takes some of them and raises on
others ('²'), so a field checked with it alone turned a paired phone's ``dim=²`` into a server error.
"""

from __future__ import annotations


def ascii_int(text: str, digits: int) -> int | None:
    """The number ``text`` spells in 1 to ``digits`` ASCII digits, else None.

    >>> ascii_int("15", 3), ascii_int("²", 3), ascii_int("１", 3), ascii_int("1234", 3), ascii_int("", 3)
    (15, None, None, None, None)
    """
    if 0 < len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None
