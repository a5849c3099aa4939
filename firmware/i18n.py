"""The box's languages: English, Japanese and Korean, as gettext message catalogues.

Every sentence the box shows, and every sentence of its web view and the
paired phone's pages (``web/``), is written in English in the source and
marked for translation; translators work on ``firmware/locale/<lang>/LC_MESSAGES/
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

The extractor (``python -m firmware.devtools.catalogues``) finds calls named
``_``, ``gettext``, ``ngettext``, ``pgettext``, ``npgettext`` and ``N_`` (a
no-op marker for sentences kept in tables) whose arguments are string
literals; placeholders are ``str.format`` names (``{name}``, ``{column}``)
so a translation can put them in any order. A sentence with no translation
yet, and every sentence in English, is the English msgid itself.
"""

from __future__ import annotations

import functools
import gettext
import types
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


class _InContext(str):
    """A table's sentence with its context (see :func:`NP_`): an ordinary string in English."""

    context: str


def NP_(context: str, message: str) -> str:
    """Mark a table's ``message`` with a ``context`` (the same English word meaning two things)."""
    marked = _InContext(message)
    marked.context = context
    return marked


#: The marking names a module of words defines for English and :class:`Bound` rebinds.
MARKS = ("_", "ngettext", "pgettext")


class Bound:
    """A module of words (:mod:`firmware.words`) speaking one language: the same formatters and tables.

    Each function the module defines is rebuilt on a copy of the module's
    namespace in which its marking names (``_``, ``ngettext``, ``pgettext``)
    come from the language's catalogue, so a formatter calling another, or
    reading a table, stays in that language; each table (an upper-case name
    holding strings, tuples or dicts) is translated once, here. Nothing is
    shared or changed: the module itself keeps speaking English, and a new
    formatter written with ``_()`` speaks every language without registration.
    """

    def __init__(self, module: types.ModuleType, lang: str) -> None:
        t = translation(lang)
        self.lang = lang
        own = vars(module)
        space = dict(own)
        space.update(_=t.gettext, ngettext=t.ngettext, pgettext=t.pgettext)
        for name, value in own.items():
            if isinstance(value, types.FunctionType) and _defined_in(value, module) and name not in MARKS:
                space[name] = types.FunctionType(value.__code__, space, name, value.__defaults__, value.__closure__)
            elif name.lstrip("_").isupper() and isinstance(value, (str, tuple, dict)):
                space[name] = _translated(value, t)
        self._space = space

    def __getattr__(self, name: str):
        try:
            return self.__dict__["_space"][name]
        except KeyError:
            raise AttributeError(f"words have no {name!r}") from None

    def __repr__(self) -> str:
        return f"<words in {self.lang}>"


def translated(table, lang: str):
    """A table of marked sentences (``N_``, ``NP_``; strings, and strings in tuples and dict values) in ``lang``.

    For a module whose words are a table and nothing else (the web view's, :mod:`web.text`): the same
    lookup :class:`Bound` makes of a module of words' tables, without rebinding any function.
    """
    return _translated(table, translation(check(lang)))


def _translated(value, t: gettext.NullTranslations):
    """A table's marked sentences in the language of ``t`` (strings inside tuples and dict values)."""
    if isinstance(value, _InContext):
        look_up = t.pgettext
        return look_up(value.context, str(value))
    if isinstance(value, str):
        look_up = t.gettext
        return look_up(value)
    if isinstance(value, tuple):
        return tuple(_translated(v, t) for v in value)
    if isinstance(value, dict):
        return {k: _translated(v, t) for k, v in value.items()}
    return value


def _defined_in(function: types.FunctionType, module: types.ModuleType) -> bool:
    """Whether ``function`` belongs to ``module`` or to one of its submodules (a package of words)."""
    return function.__module__ == module.__name__ or function.__module__.startswith(module.__name__ + ".")
