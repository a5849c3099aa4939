"""make boot-check's update rows (issue 34, docs/update.md): bundles made on this machine by
deploy/makebundle.py from the fresh clone, each a version of its own (0.1.0 is the one installed):

    0.1.1  good
    0.1.2  broken on purpose: ``run`` exits at once with one line (it never reaches READY)
    0.2.0  a store schema migration (SCHEMA_VERSION 6, one column more)

each signed by a release key the box trusts (boot-check's own, made for the run and given to
``install.sh --trust``; make image-check's is RELEASE_KEY's, which make image put on the card).
First two the box must refuse: 0.1.1 unsigned, and signed by another key. Then each is
taken to the booted box as an owner would, ``sudo cantstop-box-update FILE``: a good update;
the broken one, which must go back by itself with the game as it was; the migration followed by
``--rollback``, with every game (the one played on 0.2.0 too); then the plug pulled while the
updater switches to 0.2.0 again, and the box must boot into a version that runs, with its games.
"""

from __future__ import annotations

import io
import re
import shutil
import tarfile
import tempfile
import threading
import time
from pathlib import Path

from deploy import signing
from deploy.bundle import MEMBERS
from deploy.makebundle import make as make_bundle

from . import image
from .board import UNIT, Board, press_until
from .reference import comparable

P_UPDATE_REFUSED = "an unsigned bundle and one of another key: refused, nothing changed"
P_UPDATE_GOOD = "update to a good version (cantstop-box-update)"
P_UPDATE_BROKEN = "update to a broken version: back by itself, game intact"
P_UPDATE_SCHEMA = "update with a schema migration, then --rollback: every game"
P_UPDATE_CUT = "power cut during an update: boots with its games"
PLANNED = [P_UPDATE_REFUSED, P_UPDATE_GOOD, P_UPDATE_BROKEN, P_UPDATE_SCHEMA, P_UPDATE_CUT]

OPT = "/opt/cantstop-box"
UPDATE = "/usr/local/sbin/cantstop-box-update"
UPDATE_WITHIN_S = 1800
# The bound for READY and the check: 60 s on a Pi Zero 2 W (the default); the emulator on a
# shared machine starts the box slower (15 s to READY at best, twice that when busy).
BOUND = "--bound 120"
COUNTS = ("import sqlite3; db = sqlite3.connect('file:/var/lib/cantstop-box/games.sqlite3?mode=ro', uri=True); "
          "print(*(db.execute(q).fetchone()[0] for q in ('SELECT count(*) FROM games', 'SELECT count(*) FROM events', "
          "'PRAGMA user_version')))")
BROKEN_LINE = "broken on purpose (a boot-check update row)"
ROLLS = ("ROLL", "A", "A", "ROLL", "B", "B", "ROLL", "C", "C", "ROLL")


def say(text: str) -> None:
    image.say(text)


def variants(src: Path) -> dict[str, Path]:
    """The three versions' source trees, patched from the clone at ``src``."""
    out = {}
    for version in ("0.1.1", "0.1.2", "0.2.0"):
        tree = src.parent / f"v{version}"
        shutil.copytree(src, tree, symlinks=True)
        pyproject = tree / "pyproject.toml"
        pyproject.write_text(re.sub(r'^version = ".*"$', f'version = "{version}"', pyproject.read_text(), count=1,
                                    flags=re.M))
        if version == "0.1.2":
            run = tree / "boxcli/run.py"
            text = run.read_text()
            run.write_text(text.replace("def run_box(args) -> int:\n",
                                        f"def run_box(args) -> int:\n    raise SystemExit({'cantstop-box: ' + BROKEN_LINE!r})\n",
                                        1))
        if version == "0.2.0":
            schema = tree / "firmware/store/schema.py"
            text = schema.read_text().replace("SCHEMA_VERSION = 5\n", "SCHEMA_VERSION = 6\n", 1)
            text = text.replace("\n# The tables a file of each version must have.",
                                '\nMIGRATIONS[5] = "ALTER TABLE games ADD COLUMN boot_check INTEGER;"\n'
                                "\n# The tables a file of each version must have.", 1)
            schema.write_text(text)
        out[version] = tree
    for version, tree in out.items():
        if f'version = "{version}"' not in (tree / "pyproject.toml").read_text():
            raise OSError(f"{version}: pyproject.toml's version did not change")
    if BROKEN_LINE not in (out["0.1.2"] / "boxcli/run.py").read_text() or "MIGRATIONS[5]" not in (
            out["0.2.0"] / "firmware/store/schema.py").read_text():
        raise OSError("the broken or the migrating version could not be made (run.py, schema.py changed?)")
    return out


def resigned(bundle: Path, target: Path, key: Path | None) -> Path:
    """``bundle``'s members again in ``target``: its manifest signed with ``key`` instead, or (None) no
    signature at all, as a bundle from before signing was."""
    with tarfile.open(bundle) as tar:
        data = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}
    if key is None:
        data.pop("bundle.json.sig")
    else:
        data["bundle.json.sig"] = signing.sign(data["bundle.json"], key)
    with tarfile.open(target, mode="w:", format=tarfile.PAX_FORMAT) as out:
        for name in [n for n in MEMBERS if n in data]:
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data[name]), 0o644
            out.addfile(info, io.BytesIO(data[name]))
    return target


class Bundles:
    """The bundles, made in a thread while the guest installs (pip downloads them: a few minutes), signed
    with ``key`` (a private key's path), or without one with a key made for this run (``public_key``,
    for install.sh --trust). Two more the box must refuse: "unsigned" and "foreign" (another key's)."""

    def __init__(self, tarball: bytes, key: Path | None = None) -> None:
        self.tarball = tarball
        self.made: dict[str, Path] = {}
        self.error: str | None = None
        self.seconds = 0.0
        self.tmp = Path(tempfile.mkdtemp(prefix="boot-check-bundles-"))
        self.key = Path(key) if key else self.tmp / "keys/release"
        self.foreign = self.tmp / "keys/foreign"
        signing.ensure_key(self.key)
        signing.ensure_key(self.foreign)
        self.public_key = self.key.with_name(self.key.name + ".pub")
        self.thread = threading.Thread(target=self._make, daemon=True)
        self.thread.start()

    def _make(self) -> None:
        t = time.monotonic()
        try:
            with tarfile.open(fileobj=io.BytesIO(self.tarball)) as tar:
                tar.extractall(self.tmp / "clone")
            trees = variants(self.tmp / "clone/cantstop-box")
            for version, tree in trees.items():  # the wheels fetched once, for the first
                first = self.made.get("0.1.1")
                self.made[version] = make_bundle(tree, self.tmp / "out", ["aarch64"], ["3.11"], self.key, reuse=first)
                say(f"bundle {version}: {self.made[version].stat().st_size / 1e6:.1f} MB")
            self.made["unsigned"] = resigned(self.made["0.1.1"], self.tmp / "out/unsigned-0.1.1.bundle", None)
            self.made["foreign"] = resigned(self.made["0.1.1"], self.tmp / "out/foreign-0.1.1.bundle", self.foreign)
        except Exception as err:  # shown in the table's rows
            self.error = f"{type(err).__name__}: {str(err)[:160]}"
        self.seconds = time.monotonic() - t

    def join(self) -> None:
        """Until they are made (or could not be: :meth:`wait` then says why)."""
        self.thread.join()

    def wait(self) -> dict[str, Path]:
        self.join()
        if self.error:
            raise OSError(f"cannot make the bundles: {self.error}")
        return self.made

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


def counts(board: Board) -> tuple[int, int, int] | None:
    """(games, events, schema) of the store, read as the box's user."""
    done = board.guest.run("/usr/sbin/runuser", "-u", "cantstop", "--", "/usr/bin/python3", "-c", COUNTS)
    try:
        games, events, schema = (int(x) for x in done.stdout.split())
    except ValueError:
        return None
    return games, events, schema


def current(board: Board) -> str:
    return board.guest.run("/usr/bin/readlink", f"{OPT}/current").stdout.strip().rsplit("/", 1)[-1]


def update(board: Board, *args: str) -> tuple[int, str, float]:
    t = time.monotonic()
    done = board.as_owner_root(f"{UPDATE} {BOUND} {' '.join(args)}", timeout=UPDATE_WITHIN_S)
    out = (done.stdout + done.stderr).strip()
    (board.workdir / "update.log").open("a").write(f"$ cantstop-box-update {' '.join(args)}\n{out}\n\n")
    return done.returncode, (out.splitlines() or ["no output"])[-1], time.monotonic() - t


def send(board: Board, bundle: Path) -> str:
    target = f"{board.owner_home}/{bundle.name}"
    board.guest.write(target, bundle.read_bytes())
    return target


def active(board: Board) -> bool:
    return board.guest.run("/bin/systemctl", "is-active", UNIT).stdout.strip() == "active"


def check_updates(board: Board, bundles: Bundles) -> None:
    report = board.report
    # The rows before (lamps out, the self test) leave the service stopped, as an owner's self test does.
    board.guest.run("/bin/systemctl", "start", UNIT, timeout=300)
    state, _ = board.wait_active()
    if state != "active":
        report.add(P_UPDATE_GOOD, False, None, f"the box did not start again after the self test: {state}")
        return
    board.find_lines()
    if press_until(board, ROLLS, "roll") is None:
        report.add(P_UPDATE_GOOD, False, None, "no game to carry across: no roll stored")
        return
    try:
        made = bundles.wait()
    except OSError as err:
        report.add(P_UPDATE_GOOD, False, None, str(err))
        return
    report.figure("bundle for aarch64, Python 3.11 (make bundle --arch aarch64 --python 3.11)",
                  f"{made['0.1.1'].stat().st_size / 1e6:.1f} MB")
    report.figure("the three bundles made on this machine in", f"{bundles.seconds:.0f} s")

    # 0. Refused: unsigned, and signed by another key; the box plays on, as it was.
    before, was, t = counts(board), current(board), time.monotonic()
    unsigned, unsigned_said, _ = update(board, send(board, made["unsigned"]))
    foreign, foreign_said, _ = update(board, send(board, made["foreign"]))
    ok = (unsigned == 2 and "refused: it is not signed" in unsigned_said and foreign == 2
          and "refused: signed by another key" in foreign_said and current(board) == was and active(board)
          and counts(board) == before)
    report.add(P_UPDATE_REFUSED, ok, time.monotonic() - t,
               f"exit {unsigned} and {foreign}; current {current(board)}; {unsigned_said[-60:]} / {foreign_said[-70:]}")

    # 1. A good version.
    before, record = counts(board), board.export()
    t = time.monotonic()
    status, said, took = update(board, send(board, made["0.1.1"]))
    ok = status == 0 and current(board) == "0.1.1" and active(board)
    kept = comparable(board.export() or {}) == comparable(record or {})
    report.figure("an update in the emulator (copy excluded): cantstop-box-update 0.1.0 -> 0.1.1", f"{took:.0f} s")
    report.add(P_UPDATE_GOOD, ok and kept and counts(board) == before, time.monotonic() - t,
               f"exit {status}; current {current(board)}; " + ("game kept" if kept else "the game changed") + f"; {said[:90]}")

    # 2. A broken one: back by itself.
    before, record = counts(board), board.export()
    t = time.monotonic()
    status, said, took = update(board, send(board, made["0.1.2"]))
    journal = board.guest.sh("journalctl -b --no-pager -o cat -t cantstop-box-update -t cantstop-box | tail -40").stdout
    told = "Update undone: update to 0.1.2 failed" in journal  # the box's own notice, as it put it on the screen
    kept = comparable(board.export() or {}) == comparable(record or {}) and counts(board) == before
    ok = status == 1 and current(board) == "0.1.1" and active(board) and BROKEN_LINE in said
    report.add(P_UPDATE_BROKEN, ok and told and kept, time.monotonic() - t,
               f"exit {status} in {took:.0f} s; current {current(board)}; " + ("game intact" if kept else "the game changed")
               + ("; the box showed why" if told else "; no notice from the box") + f"; {said[:100]}")

    # 3. A migration, a game played on it, then --rollback.
    t = time.monotonic()
    status, said, took = update(board, send(board, made["0.2.0"]))
    migrated = counts(board)
    played = press_until(board, ROLLS, "roll")
    after_play = counts(board)
    back, back_said, back_took = update(board, "--rollback")
    final = counts(board)
    ok = (status == 0 and migrated is not None and migrated[2] == 6 and played is not None and back == 0
          and current(board) == "0.1.1" and active(board) and final is not None and after_play is not None
          and final[2] == 5 and final[0] >= after_play[0] and final[1] >= after_play[1])
    report.add(P_UPDATE_SCHEMA, ok, time.monotonic() - t,
               f"update exit {status} ({took:.0f} s), store schema {migrated and migrated[2]}; games/events "
               f"{after_play and after_play[:2]} on 0.2.0; --rollback exit {back} ({back_took:.0f} s): "
               f"{final and final[:2]}, schema {final and final[2]}; {back_said[:80]}")

    # 4. The plug pulled as the updater switches (0.1.1 -> 0.2.0 again).
    t = time.monotonic()
    before = counts(board)
    target = send(board, made["0.2.0"])
    board.guest.sh(f"nohup {UPDATE} {BOUND} {target} > /var/tmp/update-cut.log 2>&1 &")
    seen, deadline = "", time.monotonic() + UPDATE_WITHIN_S
    while time.monotonic() < deadline:
        state = board.guest.sh(f"grep -o '\"phase\": \"[a-z-]*\"' {OPT}/update-state.json; readlink {OPT}/current").stdout
        if "trying" in state and "0.2.0" in state:
            seen = "as 0.2.0 starts (current switched, state trying)"
            break
        if "idle" in state and "0.2.0" in state:
            seen = "too late: the update had finished"
            break
        time.sleep(0.3)
    board.guest.cut_power()
    board.boot()
    state, _ = board.wait_active()
    now = current(board)
    after = counts(board)
    recovered = board.guest.sh("journalctl -b --no-pager -o cat -t cantstop-box-update").stdout.strip().splitlines()
    games_kept = after is not None and before is not None and after[0] >= before[0] and after[1] >= before[1]
    ok = bool(seen) and "too late" not in seen and state == "active" and now in ("0.1.1", "0.2.0") and games_kept \
        and after is not None and after[2] == (6 if now == "0.2.0" else 5)
    report.add(P_UPDATE_CUT, ok, time.monotonic() - t,
               f"cut {seen or 'never saw the switch'}; booted {now}, {state}; games/events {after and after[:2]} "
               f"(before {before and before[:2]}); {(recovered or ['recover said nothing'])[-1][:90]}")
