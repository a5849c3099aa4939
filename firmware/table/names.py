"""A person's name as the box keeps it: normalised, drawable, and safe to print.

- :func:`normalise`: NFKC and trimmed, so "Ａｎｎ" and "Ann" are one name;
- :func:`name_problem`: why a name cannot be kept (one line, the name
  escaped), or None: empty (or only combining marks), a control or invisible
  character, a character the box's fonts (Spleen and Galmuri, through
  :mod:`hw.textfit`) would draw as a box, too long, or already taken;
- :func:`fold`: the key two names are "the same" by (normalised, casefolded);
- :func:`escaped`: a text with every non-printing character spelled out
  (``\\x1b``), for a terminal or the journal;
- :func:`width` and :func:`pad`: columns by display width (East Asian wide
  and full-width characters take two, combining marks none).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from hw import textfit

#: The roster: at most this many names, each at most this many characters (the screen cuts long ones).
MAX_ROSTER, MAX_NAME_LENGTH = 64, 64

#: Categories with nothing to draw: combining marks, format characters, separators.
_NO_BASE = {"Mn", "Mc", "Me", "Cf", "Zs", "Zl", "Zp"}
#: Categories a terminal must not be handed as they are.
_UNSAFE = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def normalise(name: str) -> str:
    """NFKC (full-width letters become plain ones, "e" + accent one "é"), then trimmed."""
    return unicodedata.normalize("NFKC", name).strip()


def fold(name: str) -> str:
    """The key names are compared by: normalised, then casefolded ("ANN", "Ａｎｎ" and "ann" are one)."""
    return normalise(name).casefold()


def _escape_char(ch: str) -> str:
    cp = ord(ch)
    if cp < 0x100:
        return f"\\x{cp:02x}"
    if cp < 0x10000:
        return f"\\u{cp:04x}"
    return f"\\U{cp:08x}"


def escaped(text: Any, keep: str = "") -> str:
    """``text`` with control, format and unassigned characters spelled out (``\\x1b``), one line.

    ``keep``: characters left as they are (the config's messages fold line breaks into spaces themselves).
    """
    text = str(text)
    if text.isascii() and text.isprintable():
        return text
    return "".join(_escape_char(ch) if unicodedata.category(ch) in _UNSAFE and ch not in keep else ch
                   for ch in text)


def quoted(text: Any, limit: int = 24) -> str:
    """A name for a one-line message: in double quotes, escaped, cut short when long."""
    text = str(text)
    if len(text) > limit:
        text = text[:limit] + "..."
    return '"' + escaped(text).replace('"', '\\"') + '"'


def described(ch: str) -> str:
    """One character named for a message: ``א (U+05D0 HEBREW LETTER ALEF)``."""
    name = unicodedata.name(ch, "")
    code = f"U+{ord(ch):04X}"
    shown = escaped(ch) if unicodedata.category(ch) in _UNSAFE or unicodedata.combining(ch) else ch
    return f"{shown} ({code} {name})" if name else f"{shown} ({code})"


def name_problem(name: Any, taken: set[str] = frozenset(), *, drawable: bool = True) -> str | None:
    """Why ``name`` cannot be a player's name, or None; ``taken``: the :func:`fold` of names already used.

    The name is judged as it would be kept, that is :func:`normalise`\\ d.
    ``drawable=False`` leaves out the fonts' check: for names already kept by
    an older version (shown as boxes, as then, rather than lost).
    """
    if not isinstance(name, str):
        return f"{quoted(name)} is not a name; put each name in quotes"
    kept = normalise(name)
    control = next((ch for ch in kept if unicodedata.category(ch) == "Cc"), None)
    if control is not None:
        return f"{quoted(kept)} has a control character, {described(control)}"
    if not any(unicodedata.category(ch) not in _NO_BASE for ch in kept):
        return "a name is empty"  # nothing but spaces, combining marks or invisible characters
    missing = textfit.undrawable(kept) if drawable else None
    if missing is not None:
        return f"{quoted(kept)} cannot be shown: the box's fonts have no {described(missing)}"
    invisible = next((ch for ch in kept if unicodedata.category(ch) in _UNSAFE), None)
    if invisible is not None:
        return f"{quoted(kept)} has an invisible character, {described(invisible)}"
    if len(kept) > MAX_NAME_LENGTH:
        return f"a name is {len(kept)} characters; at most {MAX_NAME_LENGTH}"
    if kept.casefold() in taken:
        return f"{quoted(kept)} is listed twice; each name must differ"
    return None


def char_width(ch: str) -> int:
    """Columns a terminal gives ``ch``: 0 for combining and format characters, 2 for wide ones, else 1."""
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal (East Asian wide = 2)."""
    if text.isascii():
        return len(text)
    return sum(char_width(ch) for ch in text)


def pad(text: str, columns: int, *, right: bool = False) -> str:
    """``text`` padded with spaces to ``columns`` display columns (on the left when ``right``)."""
    fill = " " * max(0, columns - width(text))
    return fill + text if right else text + fill
