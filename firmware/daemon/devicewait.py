"""As a service, wait (a bounded time) for the buttons' GPIO chip and the display's bus to be there and ours.

At boot the unit may start before udev has made /dev/i2c-1 (its driver
loads when udev gets to it) or has given /dev/gpiochip0 to the 'gpio' group
(deploy/60-cantstop-box.rules). Opening them then fails, and only
``Restart=`` would hide the race. So ``cantstop-box run`` under systemd first
waits until every device the config needs exists and is open to it (read and
write, with the unit's groups), telling systemd what it waits for (STATUS=)
and keeping its start time-out ahead (EXTEND_TIMEOUT_USEC=). A device still
missing after ``DEVICE_WAIT_S`` seconds is one line and exit status 69, as
any hardware fault (the unit retries it). At the command line there is no
wait: the fault shows at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: How long the service waits for its devices before it gives up (then systemd retries it).
DEVICE_WAIT_S = 30.0
#: How often it looks again.
POLL_S = 0.25
#: Start time the service asks systemd for beyond each look, so that the replay after the wait has its 60 s.
EXTEND_S = 60.0


def needed(display, board) -> list[tuple[str, str]]:
    """The device nodes ``cantstop-box run`` opens for this ``[display]`` config on this board (a
    ``hw.board.Board``: which GPIO chip the buttons are on), each with its group."""
    from hw.devices import GPIO_GROUP, I2C_GROUP, SPI_GROUP

    if display.interface == "spi":
        bus = (f"/dev/spidev0.{display.spi_device}", SPI_GROUP)
    else:
        bus = (f"/dev/i2c-{display.port}", I2C_GROUP)
    return [(board.chip_path(), GPIO_GROUP), bus]


def _hint(path: str, problem: str) -> str:
    if not problem.endswith("there is no such device"):
        return ""
    if "/i2c-" in path:
        return " (is I2C on? sudo deploy/install.sh turns it on in config.txt; then reboot)"
    if "/spidev" in path:
        return " (is SPI on? sudo deploy/install.sh turns it on in config.txt; then reboot)"
    return " (the buttons need a Raspberry Pi's GPIO; elsewhere try 'cantstop-box emulate')"


def wait_for_devices(devices: list[tuple[str, str]], notifier, *, timeout: float | None = None,
                     clock: Callable[[], float] = time.monotonic,
                     sleep: Callable[[float], None] = time.sleep) -> str | None:
    """None once every (path, group) in ``devices`` exists and is open to this process; else, after
    ``timeout`` seconds (default ``DEVICE_WAIT_S``), one line saying which is not and why."""
    from hw.devices import access_problem

    timeout = DEVICE_WAIT_S if timeout is None else timeout
    start = clock()
    told = None
    while True:
        problems = [(path, problem) for path, group in devices
                    if (problem := access_problem(path, group)) is not None]
        if not problems:
            if told is not None:
                notifier.status("devices ready")
            return None
        waited = clock() - start
        if waited >= timeout:
            path, problem = problems[0]
            return f"after {timeout:g} s, {problem}{_hint(path, problem)}"
        if told != problems[0][0]:
            told = problems[0][0]
            notifier.status(f"waiting for {told} (up to {timeout:g} s)")
        notifier.extend_timeout(EXTEND_S)
        sleep(min(POLL_S, max(0.0, timeout - waited)))
