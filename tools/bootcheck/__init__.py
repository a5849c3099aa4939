"""make boot-check (``sudo .venv/bin/python -m tools.bootcheck``): Debian bookworm arm64 booted in
qemu-system-aarch64, the box installed there as an owner would, and checked on a real kernel.

    check           the command: build or find the cached guest, boot it, run the checks, the table
    check_steps     the checks, in the order they run on one guest
    check_lamps     the lamp and buzzer steps on the booted guest (settings, the kernel's trace)
    check_selftest  `cantstop-box selftest` on the booted guest
    board           the booted guest seen as the box's hardware: presses, the display, the lamps
    wiring          where the buttons, the lamps and the buzzer are on the simulated header
    guest           qemu and its guest agent: power, commands, files
    image           the cached kernel, modules, device tree and disk
    reference       the emulator's box pressed as the booted one was
    parse, lamps, tones   the pure readings: the display's bytes, systemd, the lamps, the buzzer
    modules/        the guest's I2C sink, a kernel module of the project's own
"""
