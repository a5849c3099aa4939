"""Hypothesis strategies for the fit tests: the longest values each field of a screen can take.

Names go up to the longest a seat may have (``MAX_NAME_LENGTH`` characters,
:mod:`firmware.table.names`), in Latin and in wide scripts; columns are every
column 2..12 with two-digit squares; counts and percentages run large; an
alert is any the box raises (a flash, "NOT SAVED: <reason>" with the longest
reason the keeper passes on). Every sentence comes from the words module in
the language drawn, as the UI makes it.
"""

from __future__ import annotations

from hypothesis import strategies as st

from firmware import words
from firmware.table.names import MAX_NAME_LENGTH
from firmware.devtools.samples import HEIGHTS
from firmware.screens import LAYOUTS

LANGS = ("en", "ja", "ko")
langs = st.sampled_from(LANGS)
sizes = st.sampled_from(sorted(LAYOUTS))
COLOURS = ("Red", "Blue", "Green", "Yellow", "Orange", "Purple", "White", "Black", "Burgundy")

#: The widest characters a name may hold: Latin capitals and lower case, and wide kana, kanji, Hangul.
names = st.one_of(
    st.sampled_from(COLOURS),
    st.text(st.sampled_from("AaWwMm-"), min_size=1, max_size=MAX_NAME_LENGTH),
    # the longest a seat can have, drawn as often as the rest (random text is mostly short)
    st.text(st.sampled_from("WwMm"), min_size=MAX_NAME_LENGTH - 2, max_size=MAX_NAME_LENGTH),
    st.text(st.sampled_from("김민준さくら赤"), min_size=1, max_size=MAX_NAME_LENGTH),
)

columns = st.integers(2, 12)
seats = st.integers(0, 3)
#: The keeper's reason is cut to 40 characters (firmware/daemon/keeper.py: short).
reasons = st.one_of(st.just("disk full"), st.text(st.sampled_from("abcdefghij WM"), min_size=1, max_size=40))


@st.composite
def alerts(draw, lang: str):
    """None, or an alert the box raises: a flash (until the next press), a pairing refused, or NOT SAVED."""
    w = words.language(lang)
    return draw(st.one_of(
        st.none(),
        st.sampled_from(sorted(w.FLASH.values())),
        st.sampled_from("ABC").map(w.cannot_move),
        reasons.map(w.not_saved),
    ))


def seat_name(lang: str, name: str) -> str:
    """A seat's name as the UI gives it: a colour in the language, any other name as it is."""
    return words.language(lang).colour(name)


@st.composite
def column_set(draw, min_size: int = 1, max_size: int = 3):
    return draw(st.lists(columns, min_size=min_size, max_size=max_size, unique=True))


@st.composite
def squares_on(draw, cols):
    """A square on each column (1..its height)."""
    return {c: draw(st.integers(1, HEIGHTS[c])) for c in cols}
