#!/usr/bin/env python3
"""Update the Can't Stop box from a bundle, without internet and without a way to leave it dead (docs/update.md).

    sudo cantstop-box-update FILE [--allow-older]   install FILE beside, switch, keep it only if it proves itself
    sudo cantstop-box-update --rollback             back to the version before this one, with every game
    sudo cantstop-box-update --status               the versions installed and which one runs
    sudo cantstop-box-update --trust KEY.pub        take bundles signed by this release key only, from now on
    cantstop-box-update --recover                   (at boot, before the box) finish what a power cut left

Stdlib only, run with the system's python3 (deploy/install.sh puts it in
/opt/cantstop-box/updater and links /usr/local/sbin/cantstop-box-update).
Exit status 0 when done, 1 when the update failed and the old version runs
again (its reason on the box's screen and in the journal), 2 for a refusal:
among them a bundle not signed by a key the box trusts (deploy/signing.py).
"""

from __future__ import annotations

import argparse
import fcntl
import importlib.metadata
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

# Run as a script (through the /usr/local/sbin link too: Python puts the script's own folder,
# its links resolved, first on the path), so its parts beside it are found by their plain names.
import signing
from bundle import MACHINES, Bundle, open_bundle
from releases import Releases, UpdateError
from switching import Switcher
from wanted import CameraDroppedError, update_requirements

OPT = Path("/opt/cantstop-box")
STATE_DIR = Path("/var/lib/cantstop-box")
CONFIG = Path("/etc/cantstop-box/config.toml")


def system_numpy() -> str | None:
    """The NumPy of the system's python3 (this updater's: python3-picamera2's on Raspberry Pi OS), if any."""
    try:
        return importlib.metadata.version("numpy")
    except importlib.metadata.PackageNotFoundError:
        return None


def requirements(releases: Releases, bundle: Bundle, arch: str, config: Path, say) -> list[str]:
    """What pip installs from the bundle's wheels for ``arch``: the extras the box's settings ask for
    (deploy/wanted.py); a refusal (UpdateError) rather than a camera left without the OpenCV it has."""
    running = releases.current()
    has_opencv = bool(running) and any((releases.opt / "releases" / str(running) / "venv/lib").glob(
        "python3*/site-packages/cv2"))
    try:
        wanted, line = update_requirements(bundle.version, config, bundle.manifest.get("wheels", {}).get(arch, []),
                                           system_numpy(), has_opencv)
    except CameraDroppedError as err:
        raise UpdateError(f"{bundle.path.name}: refused: {err}") from None
    if line:
        say(line)
    return wanted


def install(releases: Releases, bundle: Bundle, say, config: Path = CONFIG) -> Path:
    """Step 1: the bundle's version in a folder of its own with its own venv, from its wheels only."""
    arch = MACHINES.get(platform.machine())
    if arch is None:
        raise UpdateError(f"this machine is {platform.machine()}: a bundle carries wheels for aarch64 and armhf only")
    wanted = requirements(releases, bundle, arch, config, say)  # a refusal before a byte is written
    place = releases.begin(bundle.version)
    say(f"installing {bundle.version}, signed by {bundle.signed_by}, in {place} (the box plays on meanwhile)")
    bundle.unpack(place)
    wheels = place / "wheels" / arch
    if not wheels.is_dir():
        raise UpdateError(f"{bundle.path.name} has no wheels for {arch}")
    nice = ["nice", "-n", "10"]
    done = subprocess.run([*nice, sys.executable, "-m", "venv", "--system-site-packages", str(place / "venv")],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise UpdateError(f"cannot make the venv: {(done.stderr.strip().splitlines() or ['?'])[-1]} "
                          "(sudo apt install python3-venv)")
    done = subprocess.run([*nice, str(place / "venv/bin/python"), "-m", "pip", "install", "--quiet", "--no-cache-dir",
                           "--disable-pip-version-check", "--no-index", "--only-binary=:all:", "--find-links",
                           str(wheels), *wanted],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        said = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        raise UpdateError(f"pip could not install {bundle.version} from the bundle's wheels: "
                          f"{(said or ['?'])[-1][:160]}")
    releases.mark_complete(bundle.version)
    return place


def status(releases: Releases) -> str:
    state = releases.state()
    lines = [f"running: {releases.current() or 'none'}; installed: {', '.join(releases.installed()) or 'none'}",
             f"for --rollback: {state.get('previous') or 'none'}; state: {state['phase']}"]
    if state.get("failed"):
        lines.append(f"last failed update: {state['failed']}")
    try:
        lines.append(f"takes bundles signed by: {', '.join(signing.trusted(releases.opt / signing.TRUST_FILE))}")
    except UpdateError as err:
        lines.append(f"takes no bundle: {err}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cantstop-box-update", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", metavar="FILE", help="a bundle made by 'make bundle'")
    parser.add_argument("--allow-older", action="store_true", help="install FILE even if it is not newer")
    parser.add_argument("--rollback", action="store_true", help="back to the version before this one")
    parser.add_argument("--recover", action="store_true", help="finish an update a power cut left (at boot)")
    parser.add_argument("--status", action="store_true", help="the versions installed and the one running")
    parser.add_argument("--trust", metavar="KEY.pub", help="take bundles signed by this release key (its public "
                        "half) only, from now on")
    parser.add_argument("--bound", type=float, default=60.0, metavar="S", help="seconds the new version has to "
                        "reach READY and pass its check (default 60)")
    parser.add_argument("--opt", default=str(OPT), help=argparse.SUPPRESS)
    parser.add_argument("--state-dir", default=str(STATE_DIR), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    chosen = [bool(args.file), args.rollback, args.recover, args.status, bool(args.trust)]
    if sum(chosen) != 1:
        parser.error("give one of FILE, --rollback, --recover, --status, --trust KEY.pub")
    from system import RealSystem  # noqa: E402

    releases = Releases(Path(args.opt), Path(args.state_dir))
    if args.status:
        try:
            print(status(releases))
        except UpdateError as err:
            print(f"cantstop-box-update: {err}", file=sys.stderr)
            return 2
        return 0
    if os.geteuid() != 0:
        print("cantstop-box-update: needs root: sudo cantstop-box-update ...", file=sys.stderr)
        return 2
    if args.trust:
        try:
            said = signing.trust(Path(args.trust), releases.opt / signing.TRUST_FILE)
        except (UpdateError, OSError) as err:
            print(f"cantstop-box-update: {err}", file=sys.stderr)
            return 2
        print(f"cantstop-box-update: this box takes bundles signed by {said} only, from now on")
        return 0
    system = RealSystem(releases, bound_s=args.bound)
    switcher = Switcher(releases, system)
    releases.opt.mkdir(parents=True, exist_ok=True)
    with open(releases.opt / "update.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("cantstop-box-update: another update is running", file=sys.stderr)
            return 2
        started = time.monotonic()
        try:
            if args.recover:
                line = switcher.recover()
                if line:
                    system.log(line)
                releases.set_pending(False)
                return 0
            releases.set_pending(True)
            if releases.state()["phase"] != "idle":
                system.log(switcher.recover() or "finished an earlier update")
                system.start(releases.current())
            if args.rollback:
                system.log(switcher.rollback())
                releases.set_pending(False)
                return 0
            # The payload is copied beside the releases as it is checked, and only that copy unpacked.
            with open_bundle(Path(args.file), releases.opt / signing.TRUST_FILE, spool=releases.opt) as bundle:
                switcher.check_update(bundle.version, args.allow_older)
                install(releases, bundle, system.log)
            system.log(switcher.switch_to(bundle.version, bundle.schema)
                       + f" ({time.monotonic() - started:.0f} s in all)")
            releases.set_pending(False)
            return 0
        except UpdateError as err:
            system.log(str(err))
            releases.clear_partials()  # a version half installed goes; the running one stays
            try:
                idle = releases.state()["phase"] == "idle"
            except UpdateError:  # the state itself is what failed: its line is said, and update-pending stays
                idle = False
            if idle:
                releases.set_pending(False)
            # A failure after the switch went back by itself (exit 1); before it, nothing changed (2).
            return 1 if "back on" in str(err) else 2
        except subprocess.TimeoutExpired as err:
            system.log(f"gave up: {' '.join(map(str, err.cmd))[:80]} took over {err.timeout:.0f} s")
            return 1


if __name__ == "__main__":
    sys.exit(main())
