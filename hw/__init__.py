"""Thin hardware adapters: gpiozero buttons, luma OLED, terminal emulator, fakes.

Nothing here knows the game: ``hw`` never imports ``engine`` or ``firmware``.
The daemon's wiring picks real or fake adapters and passes them in (the pin
factory too: never gpiozero's global ``Device.pin_factory``).

Modules are imported explicitly (``from hw.buttons import GpioButtons``) so a
laptop never pays for, or trips over, a backend it does not use.
"""
