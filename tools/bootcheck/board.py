"""The booted guest seen as the box's hardware, for `make boot-check`: press a button
(pull the simulated line down and up), read what the display received and play it
into the controller model, read the lamps' lines, ask systemd about the unit, export the game.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from . import image
from .guest import Guest
from .lamps import read_lamps, sampling_script, sim_value_paths
from .parse import Report, play, sim_pull_paths, sink_messages, systemctl_show
from .wiring import BUZZER, LAMPS, PINS

UNIT = "cantstop-box.service"
BOX = "/opt/cantstop-box/venv/bin/cantstop-box"
STORE = "/var/lib/cantstop-box"
SINK = "/sys/kernel/debug/i2c-sink/received"
ACTIVE_WITHIN_S = 300  # after the guest agent answers


def say(text: str) -> None:
    image.say(text)


class Board:
    def __init__(self, guest: Guest, report: Report, tarball: bytes, workdir: Path, started: float) -> None:
        self.guest = guest
        self.report = report
        self.tarball = tarball
        self.workdir = workdir
        self.started = started
        self.pulls: dict[str, str] = {}
        self.values: dict[str, str] = {}  # each lamp's sim_gpioN/value
        self.lamp_log: list[str] = []  # every reading's rows, for $BOOT_CHECK_CACHE/run/lamps.txt
        self.lamp_s = 0.0  # time spent reading them
        self.settings = b""  # the settings as the check edited them
        self.bus_loaded_now = False  # i2c-dev loaded by the install before the reboot
        self.controller = None
        self.seen = 0  # messages of this boot already played
        # How the owner runs a command as root, and where they put a file: on a Pi OS install, the user pi
        # with sudo; on the card image, root over SSH (it has no other login).
        self.owner = "pi"

    # -- power --------------------------------------------------------------------

    def boot(self) -> float:
        """Power on and wait for the agent; a fresh display (the panel lost power too)."""
        from hw.oled_model import SSD1306

        self.guest.power_on()
        up = self.guest.wait_agent()
        self.controller = SSD1306(64)
        self.seen = 0
        say(f"boot {self.guest.boots}: the guest agent answers {up:.0f} s after power-on")
        return up

    def wait_active(self, within: float = ACTIVE_WITHIN_S) -> tuple[str, float]:
        start = time.monotonic()
        state = "?"
        while time.monotonic() - start < within:
            state = self.guest.run("/bin/systemctl", "is-active", UNIT).stdout.strip()
            if state in ("active", "failed"):
                break
            time.sleep(2)
        return state, time.monotonic() - start

    def unit(self) -> dict[str, str]:
        return systemctl_show(self.guest.run("/bin/systemctl", "show", UNIT, "-p", "MainPID", "-p", "NRestarts",
                                             "-p", "ExecMainStartTimestampMonotonic", "-p",
                                             "ActiveEnterTimestampMonotonic", "-p", "ActiveState").stdout)

    # -- the display ----------------------------------------------------------------

    def received(self):
        return sink_messages(self.guest.read(SINK))

    def screen(self, settle: float = 1.5, within: float = 20.0):
        """What the panel shows once the bus has been quiet for ``settle`` seconds."""
        start = time.monotonic()
        count, quiet_since = -1, time.monotonic()
        messages = []
        while time.monotonic() - start < within:
            messages = self.received()
            if len(messages) != count:
                count, quiet_since = len(messages), time.monotonic()
            elif time.monotonic() - quiet_since >= settle:
                break
            time.sleep(0.3)
        play(self.controller, messages[self.seen:])
        self.seen = len(messages)
        return self.controller.glass()

    # -- the buttons ----------------------------------------------------------------

    def find_lines(self) -> None:
        listing = self.guest.sh("ls /sys/devices/platform/gpio-sim.*/gpiochip*/sim_gpio*/pull").stdout
        self.pulls = sim_pull_paths(listing, PINS)

    def find_lamps(self) -> None:
        listing = self.guest.sh("ls /sys/devices/platform/gpio-sim.*/gpiochip*/sim_gpio*/value").stdout
        self.values = sim_value_paths(listing, LAMPS)

    def lamps(self) -> dict[str, str]:
        """Each lamp off, lit or pulsing, as its line reads over about a second (tools/bootcheck/lamps.py)."""
        t = time.monotonic()
        done = self.guest.sh(sampling_script(self.values), timeout=60)
        self.lamp_s += time.monotonic() - t
        # Which lines are claimed, and how, as the kernel says: for the log only.
        lines = "|".join(str(pin) for pin in (*LAMPS.values(), BUZZER))
        claimed = self.guest.sh(f"grep -E 'GPIO({lines}) ' /sys/kernel/debug/gpio").stdout
        self.lamp_log.append(claimed + done.stdout)
        (self.workdir / "lamps.txt").write_text("\n\n".join(self.lamp_log))
        if done.returncode:
            raise OSError(f"cannot read the lamps' lines: {done.stderr.strip()[:120]}")
        try:
            return read_lamps(done.stdout, list(self.values))
        except ValueError as err:  # the run stops with the table, as when the guest stops answering
            raise OSError(f"the lamps' lines: {err}") from None

    def press(self, button: str) -> None:
        pull = self.pulls[button]
        done = self.guest.sh(f"echo pull-down > {pull} && sleep 0.15 && echo pull-up > {pull}")
        if done.returncode:
            raise OSError(f"cannot press {button}: {done.stderr.strip()}")

    def export(self) -> dict | None:
        done = self.guest.run("/usr/sbin/runuser", "-u", "cantstop", "--", BOX, "export", "--state-dir", STORE,
                              timeout=180)
        return json.loads(done.stdout) if done.returncode == 0 else None

    def as_pi(self, command: str, timeout: float = 600.0):
        return self.guest.run("/usr/sbin/runuser", "-l", "pi", "-c", command, timeout=timeout)

    def as_owner_root(self, command: str, timeout: float = 600.0):
        """``command`` as root, the way this box's owner gets there (sudo as pi, or root itself on the card)."""
        if self.owner == "root":
            return self.guest.run("/bin/sh", "-c", command, timeout=timeout)
        return self.as_pi(f"sudo {command}", timeout=timeout)

    @property
    def owner_home(self) -> str:
        return "/root" if self.owner == "root" else "/home/pi"


def same(a, b) -> bool:
    return a is not None and b is not None and a.convert("1").tobytes() == b.convert("1").tobytes()


def press_until(board: Board, buttons: tuple[str, ...], kind: str):
    """Press ``buttons`` in turn until the stored game gains an event of ``kind`` ("roll", "move"):
    the screen then and the record, or None when none did.

    A press that stores nothing (a flash such as "Choose A, B or C", or a pairing's
    "which one?" question) leaves nothing a restart must bring back, so the cut
    waits for the press that stored something.
    """
    events = len((board.export() or {}).get("events", []))
    for button in buttons:
        board.press(button)
        screen = board.screen(settle=1.0)
        record = board.export() or {}
        if any(kind in event for event in record.get("events", [])[events:]):
            return screen, record
        events = len(record.get("events", []))
    return None
