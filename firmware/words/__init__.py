"""Every word the box shows, one formatter per kind of thing, in every language the box speaks.

Neither the UI (:mod:`firmware.ui`) nor the renderer (:mod:`firmware.screens`)
spells out a word itself: a flash, a legend, an instruction for the board,
the text of a pairing, a chance or a status in the top bar all come from
here, so one change (or one translation) reaches every screen that shows
it. Names are the seats' display names (a player's name from the roster, else
the seat's colour), passed in as strings.

Each sentence is written once in English and marked for translation
(docs/translating.md): ``_()`` for a sentence, ``ngettext()`` for a count,
``pgettext()`` when the same English word means two things, and ``N_`` /
``NP_`` in the tables below (marked, translated when a language is bound).
The module's own functions speak English; :func:`language` gives the same
formatters and tables bound to one language's catalogue::

    w = words.language("ja")
    w.turn_heading("赤", bot=False)   # "赤の手番"
    w.KEYS["turn"]                    # "ROLL:振る MENU:メニュー"

A formatter added here is bound like the others without any registration:
write it with ``_()`` and it speaks every language.
"""

from __future__ import annotations

import functools
import sys

from .. import i18n
from . import camera, drawn, marks, menus, network, play

# One namespace, as if the words were one module: language() rebinds every
# formatter on a copy of it, so a formatter calling another (in any of the
# files) or reading a table stays in the bound language.
for _part in (marks, menus, play, drawn, network, camera):
    globals().update({k: v for k, v in vars(_part).items() if not k.startswith("__") and k != "annotations"})
del _part

# -- one language --------------------------------------------------------------


@functools.cache
def language(lang: str) -> i18n.Bound:
    """This module's formatters and tables speaking ``lang`` ("en", "ja", "ko"); made once per language."""
    return i18n.Bound(sys.modules[__name__], i18n.check(lang))
