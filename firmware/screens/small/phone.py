"""Pairing a phone on 128x32: the 128x64 screen's QR code and code, drawn one pixel a module in 32 rows."""

from __future__ import annotations

from ...views import PhoneView
from .. import phone as tall
from ..kit import Canvas


def phone(c: Canvas, v: PhoneView) -> None:
    """The same screen as on 64 rows: the painter sizes the QR code's modules by the screen's height."""
    tall.phone(c, v)
