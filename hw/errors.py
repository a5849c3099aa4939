"""Hardware faults, as one-line messages a player can act on.

Every adapter wraps the library's own exception (luma, gpiozero, lgpio,
OSError) in one of these, keeping the original as ``__cause__`` for the
journal, so no raw traceback type reaches the screen or the CLI.
"""

from __future__ import annotations


class HardwareError(Exception):
    """A piece of hardware is missing, busy or misbehaving."""

    def __init__(self, message: str) -> None:
        # One line, always: the CLI prints str(error) as is.
        super().__init__(" ".join(str(message).split()))


class DisplayError(HardwareError):
    """The OLED cannot be opened or stopped answering."""


class ButtonError(HardwareError):
    """A button's GPIO pin cannot be claimed, or there is no GPIO at all."""


class LampError(HardwareError):
    """A button lamp's GPIO pin cannot be claimed."""


class BuzzerError(HardwareError):
    """The buzzer's GPIO pin cannot be claimed."""
