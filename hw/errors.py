"""Hardware faults, as one-line messages a player can act on.

Every adapter wraps the library's own exception (luma, gpiozero, lgpio,
OSError) in one of these, keeping the original as ``__cause__`` for the
journal, so no raw traceback type reaches the screen or the CLI.
"""

from __future__ import annotations


def one_line(err: BaseException | str, limit: int | None = None) -> str:
    """An error (or a message) as the one line a person reads: its words on one line, the name of its type
    when it says nothing, at most ``limit`` characters. The one owner of this policy: the store, the config,
    the web view and the adapters all say their errors through it."""
    text = " ".join(str(err).split()) or (type(err).__name__ if isinstance(err, BaseException) else "")
    return text if limit is None else text[:limit]


class HardwareError(Exception):
    """A piece of hardware is missing, busy or misbehaving."""

    def __init__(self, message: str) -> None:
        # One line, always: the CLI prints str(error) as is.
        super().__init__(one_line(str(message)))


class DisplayError(HardwareError):
    """The OLED cannot be opened or stopped answering."""


class ButtonError(HardwareError):
    """A button's GPIO pin cannot be claimed, or there is no GPIO at all."""


class LampError(HardwareError):
    """A button lamp's GPIO pin cannot be claimed."""


class BuzzerError(HardwareError):
    """The buzzer's GPIO pin cannot be claimed."""
