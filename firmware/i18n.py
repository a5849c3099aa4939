"""The box's languages: English, Japanese and Korean, as gettext message catalogues.

Every sentence the box shows is written in English in the source and marked
for translation; translators work on ``firmware/locale/<lang>/LC_MESSAGES/
cantstop.po`` (see docs/translating.md), and ``make messages`` compiles each
into the ``cantstop.mo`` that this module loads with the standard library's
:mod:`gettext`. The compiled ``.mo`` files are committed beside their
``.po`` (a test checks they match), so a fresh clone, CI and the Pi need no
build step and no Babel.

Marking, in the module that holds the words::

    t = i18n.translation("ja")
    t.gettext("Press ROLL to roll")                      # a sentence
    t.ngettext("{n} turn", "{n} turns", n).format(n=n)   # a count: plural forms per language
    t.pgettext("menu", "Board")                          # the same English word, another meaning
    t.npgettext("top bar", "{n} game", "{n} games", n)

The extractor (``python -m firmware.catalogues``) finds calls named
``_``, ``gettext``, ``ngettext``, ``pgettext``, ``npgettext`` and ``N_`` (a
no-op marker for sentences kept in tables) whose arguments are string
literals; placeholders are ``str.format`` names (``{name}``, ``{column}``)
so a translation can put them in any order. A sentence with no translation
yet, and every sentence in English, is the English msgid itself.
"""

from __future__ import annotations

import functools
import gettext
from pathlib import Path

#: The languages the box speaks, in the order the new-game screen offers them.
LANGUAGES = ("en", "ja", "ko")
#: Each language by its own name, as a player looks for it.
NAMES = {"en": "English", "ja": "日本語", "ko": "한국어"}
DEFAULT = "en"
DOMAIN = "cantstop"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (for tables built at import)."""
    return message


def check(lang: str) -> str:
    """``lang`` if the box speaks it, else a ValueError naming the ones it does (for config errors)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    return lang


@functools.cache
def translation(lang: str) -> gettext.NullTranslations:
    """The catalogue for ``lang``; English (and any untranslated sentence) is the source text itself."""
    check(lang)
    if lang == "en":
        return gettext.NullTranslations()
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with open(path, "rb") as f:
            return gettext.GNUTranslations(f)
    except OSError as e:
        raise RuntimeError(f"the {NAMES[lang]} catalogue is missing ({path}): reinstall the box") from e
