"""make boot-check: boot Debian bookworm arm64 in qemu-system-aarch64 -M virt, install the
box there from a fresh clone as an owner would, reboot, and check it works on a
real kernel with real GPIO and I2C devices and systemd as PID 1.

The board: the GPIO simulator's chip as gpiochip0 (its line N is GPIO N; a press
pulls the line down through its sysfs 'pull', and a lamp's line is read back
through its sysfs 'value', the level the box drives), an I2C bus 1 whose device at
0x3c keeps every plain write it gets (tools/bootcheck/modules/i2c-sink.c), and the
board revision of a Pi Zero 2 W in the device tree. The guest is driven with
the QEMU guest agent only. What is built is cached (tools/bootcheck/image.py).

    sudo .venv/bin/python -m tools.bootcheck [--build-only] [--only update] [--markdown FILE] [--keep] [--packages]

--only update runs the install, the boot and the update rows (tools/bootcheck/check_update.py) only.

Prints a table of each check and its time; also written to
$BOOT_CHECK_CACHE/booted-in.md (docs/verified.md keeps the last one).
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
import tarfile
import tempfile
import time
import traceback
from pathlib import Path

from tools.picheck.check import fresh_clone, head_commit
from tools.picheck.roots import ensure_binfmt

from . import image
from .board import Board
from .check_steps import PLANNED, PLANNED_UPDATE, run_checks
from .guest import AgentError, Guest
from .parse import Report, table

REPO = Path(__file__).resolve().parents[2]


def clone_tarball() -> bytes:
    """A fresh clone of this checkout's HEAD, as a .tar.gz of cantstop-box/."""
    with tempfile.TemporaryDirectory(prefix="boot-check-") as tmp:
        clone = fresh_clone(Path(tmp) / "cantstop-box")
        out = io.BytesIO()
        with tarfile.open(fileobj=out, mode="w:gz") as tar:
            tar.add(clone, arcname="cantstop-box")
        return out.getvalue()


def check_fault(report: Report, err: Exception, workdir: Path) -> None:
    """A fault in the check's own code (not the box's, not the guest's): a failed row that names it, its
    traceback kept in ``workdir``, so the rows already run still make the table."""
    kept = workdir / "check-traceback.txt"
    kept.write_text("".join(traceback.format_exception(err)))
    where = traceback.extract_tb(err.__traceback__)[-1]
    report.add("the check itself", False, None,
               f"{type(err).__name__}: {str(err)[:120]} at {Path(where.filename).name}:{where.lineno} (all of it: {kept})")
    image.say(f"stopped by a fault in the check: {err} (traceback: {kept})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="boot-check", description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-only", action="store_true", help="build the cached kernel, modules and disk; boot nothing")
    parser.add_argument("--markdown", metavar="FILE", help="also write the table as Markdown to FILE")
    parser.add_argument("--only", choices=["update"], help="only the install, the boot and these rows")
    parser.add_argument("--keep", action="store_true", help="keep the run's disk and logs in $BOOT_CHECK_CACHE/run")
    parser.add_argument("--packages", action="store_true",
                        help="list the Debian packages it installs on this machine when missing; do nothing")
    args = parser.parse_args(argv)
    if args.packages:
        for package, there in image.host_packages().items():
            print(f"{package}\t{'installed' if there else 'missing: installed by the check'}")
        return 0
    if os.geteuid() != 0:
        print("boot-check: needs root (debootstrap, chroot, mounts): sudo make boot-check", file=sys.stderr)
        return 1
    started = time.monotonic()
    image.ensure_host_tools()
    ensure_binfmt()
    files = image.build_all()
    image.say(f"built or found in the cache in {time.monotonic() - started:.0f} s")
    if args.build_only:
        return 0
    if not (REPO / ".venv/bin/cantstop-box").exists():
        raise SystemExit("boot-check: .venv is missing: run make setup first")
    workdir = image.CACHE / "run"
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    guest = Guest(files, workdir)
    guest.new_disk()
    report = Report()
    commit = head_commit()
    try:
        run_checks(Board(guest, report, clone_tarball(), workdir, started), args.only)
    except (AgentError, OSError, TimeoutError) as err:
        report.add("the guest answers", False, None, str(err)[:160])
        image.say(f"stopped: {err} (console: {workdir}/console.log.*)")
    except Exception as err:  # a fault in the check itself: the rows so far still make the table
        check_fault(report, err, workdir)
    finally:
        guest.cut_power()
    report.figure("the whole run", time.monotonic() - started)
    lines = table(report, PLANNED_UPDATE if args.only == "update" else PLANNED)
    print("\n".join(lines))
    target = Path(args.markdown) if args.markdown else image.CACHE / "booted-in.md"
    stamp = time.strftime("%Y-%m-%d", time.gmtime())
    target.write_text(f"make boot-check, {stamp}, commit {commit}:\n\n" + "\n".join(lines) + "\n")
    image.say(f"table written to {target}")
    if not args.keep and report.passed:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if report.passed else 1

