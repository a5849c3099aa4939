"""The checks of `make boot-check`, in the order they run on one guest
(``Board``, in board.py, is the guest seen as the box's hardware).
"""

from __future__ import annotations

import time
from pathlib import Path

from firmware.cues import lamp_states  # the lamps a view lights, as the emulator's box lights them
from firmware.daemon.network import STATUS as NETWORK_FILE  # where the network service writes for the box

from . import image
from .board import STORE, UNIT, Board, press_until, same
from .check_lamps import (SETTINGS, box_settings, check_lamps_out, check_tones, gpio_lines, start_trace, stop_trace,
                          wire_lamps)
from .check_selftest import check_selftest
from .check_update import PLANNED as UPDATE_ROWS
from .check_update import Bundles, check_updates
from .guest import Guest
from .lamps import judge_screens, kernel_sets
from .parse import BUS_MODULE_FILE, bus_module_at_boot, exposure, first_frame_ns, journal_faults, monotonic_s, unit_starts
from .reference import Reference, comparable, rolls
from .wiring import LAMPS, PINS

CLONE = "/home/pi/cantstop-box"
# The scripted game: every button, each at least once where it changes the screen.
# A, B and C pick a pairing, so they do something only on a roll that offers one:
# before each, the harness asks the emulator (given the dice rolled so far) whether
# it would change the screen, and if not rolls on first (see ``play_script``).
SCRIPT = ["ROLL", "ROLL", "A", "ROLL", "B", "ROLL", "C", "STOP", "ROLL", "A", "MENU", "MENU", "ROLL", "B", "STOP"]
CHOICES = ("A", "B", "C")
TRIES = 6  # rolls at most before a pairing button is pressed anyway
INSTALL_WITHIN_S = 2400

PLANNED = ["plain Debian: no gpio group, chip root-only", "install from a fresh clone",
           "lamps and buzzer in the settings", "active at boot, no login", "i2c-dev loaded at boot by the install",
           "every button reaches the game", "each screen on the bus", "each lamp's line as the emulator's lamp",
           "each melody on the buzzer's line as the emulator's", "export equals the emulator's",
           "watchdog kills a stopped daemon", "power cut after a roll", "power cut after a move",
           "power cut during boot", "lamps out when the box stops",
           "selftest: each lamp alone, each melody, each button", *UPDATE_ROWS,
           "journal: no traceback, no denial", "systemd-analyze security <= 2.0",
           "uninstall leaves the games and the edited settings"]
(P_PLAIN, P_INSTALL, P_SETTINGS, P_BOOT, P_BUS_MODULE, P_BUTTONS, P_SCREENS, P_LAMPS, P_TONES, P_EXPORT, P_WATCHDOG,
 P_CUT_ROLL, P_CUT_MOVE, P_CUT_BOOT, P_LAMPS_OUT, P_SELFTEST, *_, P_JOURNAL, P_SECURITY, P_UNINSTALL) = PLANNED
#: --only update: the install, the boot, then the update rows (and the journal after them).
PLANNED_UPDATE = [P_PLAIN, P_INSTALL, P_SETTINGS, P_BOOT, P_BUS_MODULE, *UPDATE_ROWS, P_JOURNAL, P_SECURITY]


def say(text: str) -> None:
    image.say(text)


# -- the checks, in order -------------------------------------------------------------

def run_checks(board: Board, only: str | None = None) -> None:
    bundles = Bundles(board.tarball)  # made here while the guest installs
    try:
        _run_checks(board, only, bundles)
    finally:
        bundles.close()


def _run_checks(board: Board, only: str | None, bundles: Bundles) -> None:
    report, guest = board.report, board.guest
    board.boot()
    t = time.monotonic()
    group = guest.run("/usr/bin/getent", "group", "gpio").stdout.strip()
    chip = guest.run("/usr/bin/stat", "-c", "%U:%G %a", "/dev/gpiochip0").stdout.strip()
    bus = guest.run("/usr/bin/stat", "-c", "%U:%G %a", "/dev/i2c-1").stdout.strip()
    label = guest.sh("cat /sys/bus/gpio/devices/gpiochip0/../*/label 2>/dev/null; "
                     "cat /sys/class/gpio/gpiochip*/label 2>/dev/null").stdout.split()
    report.add(P_PLAIN, not group and chip == "root:root 600", time.monotonic() - t,
               f"gpio group: {group or 'none'}; /dev/gpiochip0 {chip or 'missing'}; /dev/i2c-1 {bus or 'missing'}"
               + (f"; chips {' '.join(label)}" if label else ""))
    before = snapshot(guest)
    t = time.monotonic()
    guest.write("/home/pi/cantstop-box.tar.gz", board.tarball)
    board.as_pi("tar -xzf ~/cantstop-box.tar.gz && rm ~/cantstop-box.tar.gz")
    # The owner's release key (the public half), as docs/update.md has them give it to install.sh.
    guest.write("/home/pi/release-key.pub", bundles.public_key.read_bytes())
    done = board.as_pi(f"cd {CLONE} && sudo deploy/install.sh --trust ~/release-key.pub", timeout=INSTALL_WITHIN_S)
    (board.workdir / "install.log").write_text(done.stdout + done.stderr)
    why = ""
    if done.returncode:
        said = guest.sh("journalctl --no-pager -o cat -u cantstop-box | grep '^cantstop-box: ' | tail -1").stdout
        why = f"exit {done.returncode}: " + (said.strip() or (done.stderr.strip().splitlines() or ["?"])[-1])[:200]
    report.add(P_INSTALL, done.returncode == 0, time.monotonic() - t, why or "exit 0")
    # Loaded by the install itself on this running system (modprobe), before any reboot.
    board.bus_loaded_now = guest.run("/usr/bin/test", "-d", "/sys/module/i2c_dev").returncode == 0
    if guest.run("/usr/bin/test", "-e", f"/etc/systemd/system/{UNIT}").returncode:
        return  # nothing to boot into
    wire_lamps(board, P_SETTINGS)
    # The owner reboots, as the install says (and as a failed start would make them do).
    guest.shut_down()
    booted = check_boot(board)
    check_bus_module(board)
    if booted:
        check_booted(board, bundles, only)
    check_journal(board)
    if only != "update":
        check_uninstall(board, before)


def check_booted(board: Board, bundles: Bundles, only: str | None = None) -> None:
    """The rows on a booted box, in order (boot-check's and image-check's): every button, the watchdog, the
    power cuts, the lamps out, the self test, then the updates; ``only="update"``: the updates alone."""
    if only != "update":
        check_buttons(board)
        check_watchdog(board)
        check_power_cuts(board)
        check_lamps_out(board, P_LAMPS_OUT, UNIT)
        check_selftest(board, P_SELFTEST)  # as an owner runs it: with the service stopped
    check_updates(board, bundles)


def check_boot(board: Board, name: str = P_BOOT) -> bool:
    """Boot, wait for the unit; the times from power-on (the kernel's clock) to its start, READY=1 and the first frame."""
    report = board.report
    up = board.boot()
    state, waited = board.wait_active()
    unit = board.unit()
    messages = board.received()
    journal = board.guest.sh("journalctl -b --no-pager -o short-monotonic -u cantstop-box").stdout
    starts = unit_starts(journal)
    last, ready = monotonic_s(unit.get("ExecMainStartTimestampMonotonic")), monotonic_s(unit.get("ActiveEnterTimestampMonotonic"))
    first = starts[0] if starts else last
    frame_ns = first_frame_ns([m for m in messages if last is None or m.at_ns >= last * 1e9])
    frame = frame_ns / 1e9 if frame_ns else None
    restarts = unit.get("NRestarts", "?")
    if name == P_BOOT:
        report.figure("power-on to the guest agent (host clock)", up)
        report.figure("power-on (kernel start) to unit start", first)
        report.figure("power-on to READY=1", ready)
        report.figure("unit start to READY=1", ready - first if ready and first else None)
        report.figure("power-on to the first frame on the bus", frame)
        report.figure("unit start to the first frame on the bus", frame - first if frame and first else None)
    else:
        report.figure(f"{name}: power-on to READY=1", ready)
    why = "" if state == "active" else not_active(board)
    if restarts not in ("0", "?"):
        said = [line for line in journal.splitlines() if "cantstop-box[" in line]
        why += f"; restarted {restarts}x at boot: {said[0].split(': ', 1)[-1][:120] if said else '?'}"
    return report.add(name, state == "active" and restarts == "0", up + waited,
                      f"{state}; READY=1 {ready or 0:.1f} s, first frame {frame or 0:.1f} s after power-on" + why)


def not_active(board: Board) -> str:
    """Why a booted box is not active, for its row: the system's state, the failed units and the jobs still
    running; those and the boot's journal (the agent's own lines left out) kept in the run's folder."""
    guest = board.guest
    system = guest.sh("systemctl is-system-running").stdout.strip()
    failed = guest.sh("systemctl --failed --no-legend --no-pager --plain").stdout.strip()
    jobs = guest.sh("systemctl list-jobs --no-legend --no-pager").stdout.strip()
    journal = guest.sh(f"systemctl status --no-pager {UNIT}; journalctl -b --no-pager -o short-monotonic "
                       "| grep -v qemu-ga | tail -n 600", timeout=180).stdout
    kept = board.workdir / f"boot-{guest.boots}-journal.txt"
    kept.write_text(f"system: {system}\n$ systemctl --failed\n{failed}\n$ systemctl list-jobs\n{jobs}\n\n{journal}")
    failed_units = [line.split()[0] for line in failed.splitlines()]
    running = [fields[1] for fields in map(str.split, jobs.splitlines()) if len(fields) > 3 and fields[3] == "running"]
    return (f"; system {system}; failed: {', '.join(failed_units[:4]) or 'none'}; jobs running: "
            f"{', '.join(running[:4]) or 'none'} ({kept.name})")


def check_bus_module(board: Board) -> None:
    """The boot after the install loaded i2c-dev from the installer's modules-load file (the guest's own loads
    only the simulated board's modules, as a Raspberry Pi OS root loads none)."""
    t = time.monotonic()
    guest = board.guest
    conf = guest.sh(f"cat {BUS_MODULE_FILE} 2>/dev/null").stdout
    naming = guest.sh("grep -lsxE 'i2c[-_]dev' /etc/modules /etc/modules-load.d/*.conf /run/modules-load.d/*.conf "
                      "/usr/lib/modules-load.d/*.conf").stdout.split()
    # By its unit and by its name: early in the boot, before journald runs, systemd-modules-load logs to the
    # kernel's buffer, and journald takes those lines in later without the unit (a run here missed them).
    journal = guest.sh("journalctl -b --no-pager -o cat -u systemd-modules-load.service; "
                       "journalctl -b --no-pager -o cat -t systemd-modules-load").stdout
    ok, detail = bus_module_at_boot(conf, naming, journal)
    bus = guest.run("/usr/bin/test", "-c", "/dev/i2c-1").returncode == 0
    now = board.bus_loaded_now
    board.report.add(P_BUS_MODULE, ok and bus and now, time.monotonic() - t,
                     detail + ("; /dev/i2c-1 there" if bus else "; no /dev/i2c-1")
                     + ("; loaded by the install before the reboot" if now else "; not loaded by the install itself"))


def guest_network(board: Board) -> str | None:
    """The booted box's network status (its menu's last row), for the emulator to show the same; None without one."""
    try:
        return board.guest.read(str(NETWORK_FILE)).decode("utf-8", "replace")
    except Exception:  # no such file in the guest: the agent says so as an error
        return None


def peek(dice: list, presses: list[str], button: str) -> bool:
    """Whether ``button``, pressed after ``presses`` with these dice, changes the emulator's screen."""
    reference = Reference(box_settings(), dice)
    try:
        for pressed in presses:
            reference.press(pressed)
        before = reference.screen
        reference.press(button)
        return not same(before, reference.screen)
    except RuntimeError:  # it would roll dice not yet rolled on the box
        return False
    finally:
        reference.close()


def play_script(board: Board, shown: list, lamps: list | None = None) -> list[str]:
    """Press SCRIPT on the booted box, rolling on (or choosing another pairing) until a pairing button tells;
    each screen into ``shown`` and, given ``lamps``, what the lamps show then."""
    presses: list[str] = []
    dice: list = []
    stale = False

    def press(button: str) -> None:
        nonlocal stale
        board.press(button)
        shown.append(board.screen())
        if lamps is not None:
            lamps.append(board.lamps())
        presses.append(button)
        stale = stale or button == "ROLL"

    for step in SCRIPT:
        for _ in range(TRIES if step in CHOICES else 0):
            if stale:
                dice, stale = rolls(board.export() or {}), False
            if peek(dice, presses, step):
                break
            other = next((b for b in CHOICES if b != step and peek(dice, presses, b)), None)
            if other is not None:
                press(other)
            press("ROLL")
        press(step)
    return presses


def check_buttons(board: Board) -> None:
    report = board.report
    t = time.monotonic()
    board.find_lines()
    board.find_lamps()
    shown = [board.screen()]
    lamps = [board.lamps()]
    lines = gpio_lines(board)
    start_trace(board, lines.values())
    script = play_script(board, shown, lamps)
    trace = stop_trace(board, "gpio-trace.txt")
    record = board.export()
    pressed_s = time.monotonic() - t - board.lamp_s
    if record is None:
        report.add(P_BUTTONS, False, pressed_s, "no game to export after the presses")
        return
    reference = Reference(box_settings(), rolls(record), network=guest_network(board))
    try:
        expected = [reference.screen]
        lit, kinds = [lamp_states(reference.box.last_view)], [type(reference.box.last_view).__name__]
        for button in script:
            reference.press(button)
            expected.append(reference.screen)
            lit.append(lamp_states(reference.box.last_view))
            kinds.append(type(reference.box.last_view).__name__)
        settled = reference.restarted_screen
        played = reference.played
        wanted = reference.export()
    finally:
        reference.close()
    changed = {b for i, b in enumerate(script) if not same(expected[i], expected[i + 1])
               and same(shown[i + 1], expected[i + 1])}
    missing = [b for b in PINS if b not in changed]
    report.add(P_BUTTONS, not missing, pressed_s,
               f"{len(script)} presses ({' '.join(script)}); " + (f"no visible effect of {', '.join(missing)}" if missing else
                                             "each button changed the screen as in the emulator"))
    differ = [i for i in range(len(shown)) if not same(shown[i], expected[i])]
    for i in differ[:3]:
        shown[i].save(board.workdir / f"screen-{i}-booted.png")
        expected[i].save(board.workdir / f"screen-{i}-emulator.png")
    report.add(P_SCREENS, not differ, None, f"{len(shown) - len(differ)} of {len(shown)} screens the same"
               + (f"; differ after presses {differ[:5]} (PNGs in {board.workdir})" if differ else ""))
    ok, detail = judge_screens(lamps, [{b: lit[i][b] for b in LAMPS} for i in range(len(lit))], kinds, list(LAMPS))
    if not ok:
        detail += "; " + kernel_sets(trace, {b: lines[b] for b in LAMPS})
    report.add(P_LAMPS, ok, board.lamp_s, detail)
    check_tones(board, P_TONES, trace, lines["buzzer"], played)
    report.add(P_EXPORT, comparable(record) == comparable(wanted), None,
               f"{len(record.get('events', []))} events, {len(rolls(record))} rolls")
    board.last_screen = settled if same(shown[-1], expected[-1]) else shown[-1]
    board.last_record = record


def check_watchdog(board: Board) -> None:
    report, guest = board.report, board.guest
    t = time.monotonic()
    before = board.unit()
    pid = before.get("MainPID", "0")
    guest.run("/bin/kill", "-STOP", pid)
    restarts = before.get("NRestarts", "0")
    deadline = time.monotonic() + 90
    now = before
    while time.monotonic() < deadline:
        now = board.unit()
        if now.get("NRestarts") != restarts and now.get("ActiveState") == "active":
            break
        time.sleep(2)
    screen = board.screen()
    record = board.export()
    restarted = now.get("NRestarts") != restarts and now.get("MainPID") not in ("0", pid)
    resumed = same(screen, getattr(board, "last_screen", None)) and comparable(record or {}) == comparable(
        getattr(board, "last_record", {}) or {})
    report.add(P_WATCHDOG, restarted and now.get("ActiveState") == "active" and resumed, time.monotonic() - t,
               f"restarts {restarts} -> {now.get('NRestarts')}; " + ("same screen and game" if resumed else
                                                                      "the game did not resume as it was"))


def check_power_cuts(board: Board) -> None:
    # ROLL rolls only once the pairing is chosen (and a hand-over page may take a press): choose, then roll.
    steps = ((P_CUT_ROLL, "roll", ("ROLL", "A", "A", "ROLL", "B", "B", "ROLL", "C", "C", "ROLL")),
             (P_CUT_MOVE, "move", ("A", "A", "B", "B", "C", "C")))  # the second press answers "which one?"
    for name, kind, buttons in steps:
        t = time.monotonic()
        pressed = press_until(board, buttons, kind)
        if pressed is None and kind == "move":  # that roll bust: roll again
            pressed = press_until(board, steps[0][2], "roll") and press_until(board, buttons, kind)
        if pressed is None:
            board.report.add(name, False, time.monotonic() - t, f"no {kind} stored after {' '.join(buttons)}")
            continue
        screen, record = pressed
        board.guest.cut_power()
        ok = check_boot(board, f"boot after: {name}")
        after_screen, after_record = board.screen(), board.export()
        kept = comparable(after_record or {}) == comparable(record or {})
        if not same(after_screen, screen):
            slug = name.replace(" ", "-")
            screen.save(board.workdir / f"{slug}-before.png")
            after_screen.save(board.workdir / f"{slug}-after.png")
        board.report.add(name, ok and kept and same(after_screen, screen), time.monotonic() - t,
                         ("game kept, no roll re-drawn" if kept else "the game changed") + "; "
                         + ("same screen" if same(after_screen, screen) else
                            f"another screen (PNGs {slug}-*.png in {board.workdir})"))
        board.last_screen, board.last_record = after_screen, after_record
    # During boot: the plug pulled as the unit starts.
    t = time.monotonic()
    board.guest.cut_power()
    board.boot()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if board.guest.run("/bin/systemctl", "is-active", UNIT).stdout.strip() in ("activating", "active"):
            break
        time.sleep(0.5)
    board.guest.cut_power()
    ok = check_boot(board, f"boot after: {P_CUT_BOOT}")
    after_screen, after_record = board.screen(), board.export()
    kept = comparable(after_record or {}) == comparable(board.last_record or {})
    board.report.add(P_CUT_BOOT, ok and kept and same(after_screen, board.last_screen), time.monotonic() - t,
                     ("game kept" if kept else "the game changed") + "; "
                     + ("same screen" if same(after_screen, board.last_screen) else "another screen"))


def check_journal(board: Board) -> None:
    report, guest = board.report, board.guest
    t = time.monotonic()
    text = guest.sh("journalctl --no-pager -o cat -u cantstop-box; journalctl --no-pager -o cat -k").stdout
    (board.workdir / "journal.txt").write_text(text)
    faults = journal_faults(text)
    report.add(P_JOURNAL, not faults, time.monotonic() - t, "; ".join(f[:80] for f in faults[:2]) or
               f"{len(text.splitlines())} lines read")
    done = guest.run("/usr/bin/systemd-analyze", "security", "--no-pager", UNIT)
    level = exposure(done.stdout + done.stderr)
    report.add(P_SECURITY, level is not None and level <= 2.0, None, f"exposure {level}")


# Not the box's: what the system writes for itself. Among them the bytecode that dpkg's Python tools (py3compile,
# py3clean) leave of their own modules in debpython/__pycache__ the first time apt runs them (the install's apt-get
# of python3-venv and the others; a root built by debootstrap has the folder, empty).
EXCLUDED = ("proc", "sys", "dev", "run", "tmp", "var/tmp", "var/log", "var/cache", "var/lib/apt", "var/lib/dpkg",
            "var/lib/systemd", "var/lib/private", "home/pi", "root", "etc/ld.so.cache", "etc/passwd-", "etc/group-",
            "etc/shadow-", "etc/gshadow-", "etc/subuid-", "etc/subgid-", "usr/lib/python3/dist-packages/__pycache__",
            "usr/share/python3/debpython/__pycache__/")


def snapshot(guest: Guest) -> dict[str, str]:
    text = guest.sh("cd / && find . -xdev \\( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run \\) -prune "
                    "-o -printf '%P\\t%m %y %l\\n'", timeout=600).stdout
    out = {}
    for line in text.splitlines():
        path, _, what = line.partition("\t")
        if path and not path.startswith(EXCLUDED):
            out[path] = what
    return out


def check_uninstall(board: Board, before: dict[str, str]) -> None:
    t = time.monotonic()
    done = board.as_pi(f"cd {CLONE} && sudo deploy/uninstall.sh", timeout=900)
    after = snapshot(board.guest)
    # The settings the owner edited stay, as the uninstall says; it keeps them as they were.
    kept = {SETTINGS.lstrip("/"), str(Path(SETTINGS).parent).lstrip("/")} if board.settings else set()
    left = sorted(p for p in set(after) - set(before) - kept if not p.startswith(STORE.lstrip("/")))
    settings = board.guest.read(SETTINGS) if kept and SETTINGS.lstrip("/") in after else None
    gone = sorted(set(before) - set(after))
    changed = sorted(p for p in set(before) & set(after) if before[p] != after[p])
    games = any(p.startswith(STORE.lstrip("/") + "/") for p in after)
    why = (f"exit {done.returncode}" if done.returncode else f"left {left[:3]}" if left else
           f"changed {changed[:3]}" if changed else f"removed {gone[:3]}" if gone else
           "" if games else "the games are gone")
    if kept and settings != board.settings and not why:
        why = f"the edited settings are {'changed' if settings else 'gone'}"
    board.report.add(P_UNINSTALL, not why, time.monotonic() - t,
                     why or "only the game store" + (" and the edited settings are" if kept else " is") + " left")
