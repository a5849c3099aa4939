"""The marking functions: English is the source text; ``language()`` rebinds these three."""

from __future__ import annotations


def _(message: str) -> str:
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def pgettext(context: str, message: str) -> str:
    return message
