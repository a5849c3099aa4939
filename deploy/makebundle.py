"""make bundle: a release bundle (deploy/bundle.py's format) from this checkout, signed with the release key.

    python3 deploy/makebundle.py [--out DIR] [--key KEY]     dist/cantstop-box-<version>.bundle

The project's own wheel and its dependencies' for aarch64 and armhf, Python 3.11 and
3.13 (pip download, binary wheels only: never a compiler on the Pi); a dependency
with no binary wheel for an architecture is left to the distribution's package.
The camera's wheels (NumPy, OpenCV) are carried always, and OpenCV twice: the newest,
and the newest that runs on NumPy 1 (the Pi camera's, NUMPY_1_OPENCV); the updater
installs them only where the box's settings turn the camera on.
Runs on the builder's machine (needs PyPI), never on the box.
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

if __package__:  # deploy.makebundle (the tests, boot-check)
    from . import signing
    from .bundle import EXTRAS, NAME, RELEASE_KEY, Bundle, open_bundle, own_signers, write_bundle
    from .releases import UpdateError, parse_version
else:  # python3 deploy/makebundle.py (make bundle)
    import signing
    from bundle import EXTRAS, NAME, RELEASE_KEY, Bundle, open_bundle, own_signers, write_bundle
    from releases import UpdateError, parse_version

#: The Pi's architectures (as the bundle names them) and the machine their wheels are tagged for.
ARCHES = {"aarch64": "aarch64", "armhf": "armv7l"}
#: The Pythons a bundle is for, and the newest glibc each system with it has (Raspberry Pi OS
#: bookworm: Python 3.11, glibc 2.36; trixie: 3.13, 2.41): a wheel for a newer glibc would not load.
GLIBC = {"3.11": 36, "3.13": 41}
PYTHONS = list(GLIBC)
#: Beside the newest OpenCV, the newest that runs on NumPy 1: the Pi camera's picamera2 is Raspberry Pi OS's
#: own, its compiled parts built against the system's NumPy (bookworm: python3-numpy 1.24.2), which the
#: updater keeps in the venv (deploy/wanted.py); the newest OpenCV asks for NumPy 2 (5.1.0.95: numpy>=2).
NUMPY_1_OPENCV = ["opencv-python-headless>=4.8.0.74", "numpy<2"]


def project_version(src: Path) -> str:
    text = (src / "pyproject.toml").read_text()
    found = re.search(r'^version\s*=\s*"([^"]+)"', text, re.M)
    if not found:
        raise UpdateError("pyproject.toml names no version")
    parse_version(found.group(1))
    return found.group(1)


def store_schema(src: Path) -> int:
    found = re.search(r"^SCHEMA_VERSION\s*=\s*(\d+)", (src / "firmware/store/schema.py").read_text(), re.M)
    if not found:
        raise UpdateError("firmware/store/schema.py names no SCHEMA_VERSION")
    return int(found.group(1))


#: Left out of a bundle's src/: what only a developer's machine uses (the screens' pictures, the tests).
NOT_SHIPPED = ("docs/gallery/", "tests/")


#: Never in a bundle, in a tree that is not a git checkout (a copy of a fresh clone).
NOT_TRACKED = {".git", ".venv", ".venv-floors", "build", "dist", "__pycache__"}


def tracked_files(src: Path) -> list[str]:
    """The project's files: as git tracks them, or (no git checkout) every file but a build's."""
    done = subprocess.run(["git", "-C", str(src), "ls-files", "-z"], capture_output=True, check=False)
    if done.returncode == 0:
        names = done.stdout.decode().split("\0")
    else:
        names = [p.relative_to(src).as_posix() for p in sorted(src.rglob("*"))
                 if p.is_file() and not NOT_TRACKED & set(p.relative_to(src).parts)
                 and not any(part.endswith(".egg-info") for part in p.parts)]
    return [name for name in names if name and (src / name).is_file() and not name.startswith(NOT_SHIPPED)]


def pip(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                          capture_output=True, text=True, check=False)


def requirements(src: Path, wheel: Path) -> list[str]:
    """What the project's wheel asks for with its extras, one requirement per line (markers kept)."""
    import zipfile
    with zipfile.ZipFile(wheel) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        lines = z.read(meta).decode().splitlines()
    wanted = set(EXTRAS.split(","))
    out = []
    for line in lines:
        if not line.startswith("Requires-Dist: "):
            continue
        req = line[len("Requires-Dist: "):]
        extra = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", req)
        if extra and extra.group(1) not in wanted:
            continue
        out.append(re.sub(r"\s*(and\s+)?extra\s*==\s*['\"][^'\"]+['\"]", "", req).rstrip(" ;"))
    return out


def download(arch: str, python: str, requirements: list[str], dest: Path, deps: bool) -> bool:
    """Binary wheels of ``requirements`` for ``arch`` and ``python`` into ``dest``; False when pip finds none."""
    machine = ARCHES[arch]
    tags = [f"manylinux_2_{minor}_{machine}" for minor in range(17, GLIBC[python] + 1)]
    plat = [a for tag in (*tags, f"manylinux2014_{machine}", f"linux_{machine}") for a in ("--platform", tag)]
    done = pip("download", "--quiet", "--only-binary=:all:", *plat, "--python-version", python,
               "--implementation", "cp", "--dest", str(dest), *([] if deps else ["--no-deps"]), *requirements)
    said = done.stderr + done.stdout
    if done.returncode and "No matching distribution" not in said and "ResolutionImpossible" not in said:
        raise UpdateError(f"pip download for {arch}: {(said.strip().splitlines() or ['?'])[-1]}")
    return done.returncode == 0


def pins(wheels: Path) -> list[str]:
    """name==version of each wheel pip chose (a wheel's file name starts with both)."""
    return sorted({"==".join(w.name.split("-")[:2]) for w in wheels.glob("*.whl")})


def fetch_wheels(src: Path, own: Path, work: Path, arches: list[str], pythons: list[str]):
    """work/wheels/<arch>/: the project's wheel and its dependencies'; (the wheels by arch, what has none)."""
    reqs = [r.split(";")[0].strip() for r in requirements(src, own)]
    first = work / "resolved"
    system: dict[str, list[str]] = {}
    if not download(arches[0], pythons[0], reqs, first, deps=True):
        # One has no wheel at all (spidev): the others resolved without it.
        lacking = [r for r in reqs if not download(arches[0], pythons[0], [r], work / "probe", deps=True)]
        system[arches[0]] = [f"{r} (Python {pythons[0]})" for r in lacking]
        reqs = [r for r in reqs if r not in lacking]
        if not reqs or not download(arches[0], pythons[0], reqs, first, deps=True):
            raise UpdateError(f"no binary wheels of {', '.join(reqs)} for {arches[0]}, Python {pythons[0]}")
    sets = [pins(first)]
    if any(r.startswith("opencv-python-headless") for r in reqs) and \
            download(arches[0], pythons[0], NUMPY_1_OPENCV, work / "numpy-1", deps=True):
        opencv = [p for p in pins(work / "numpy-1") if p.startswith("opencv") and p not in sets[0]]
        sets += [opencv] if opencv else []  # the same OpenCV already: one is enough
    got: dict[str, list[str]] = {}
    for arch in arches:
        dest = work / "wheels" / arch
        dest.mkdir(parents=True)
        (dest / own.name).write_bytes(own.read_bytes())
        for python, wanted in ((python, wanted) for python in pythons for wanted in sets):
            if download(arch, python, wanted, dest, deps=False):
                continue
            for pin in wanted:  # one at a time: which have no wheel here
                if not download(arch, python, [pin], dest, deps=False):
                    system.setdefault(arch, []).append(f"{pin} (Python {python})")
        system[arch] = sorted(set(system.get(arch, [])))
        got[arch] = sorted(p.name for p in dest.iterdir())
    return got, system


def make(src: Path, out_dir: Path, arches: list[str], pythons: list[str], key: Path,
         reuse: Path | None = None) -> Path:
    """The bundle, signed with the release key at ``key``: the dependencies resolved once (for the first
    arch and Python), then each of them fetched as a binary wheel for every arch and Python; one without
    is left to the distribution. ``reuse``, an earlier bundle of the same dependencies signed with the
    same key: its wheels, without asking the index."""
    version = project_version(src)
    with tempfile.TemporaryDirectory(prefix="bundle-") as tmp:
        work = Path(tmp)
        built = pip("wheel", "--quiet", "--no-deps", "--wheel-dir", str(work / "own"), str(src))
        if built.returncode:
            raise UpdateError(f"cannot build the project's wheel: {(built.stderr.strip().splitlines() or ['?'])[-1]}")
        own = next((work / "own").glob("*.whl"))
        if reuse is not None:
            with open_bundle(reuse, own_signers(key, work), spool=work) as earlier:
                earlier.unpack(work / "earlier")
            got, system = {}, earlier.manifest.get("from_the_system", {})
            for arch in arches:
                dest = work / "wheels" / arch
                dest.mkdir(parents=True)
                for wheel in (work / "earlier/wheels" / arch).glob("*.whl"):
                    if not wheel.name.startswith(f"{NAME.replace('-', '_')}-"):
                        wheel.rename(dest / wheel.name)
                (dest / own.name).write_bytes(own.read_bytes())
                got[arch] = sorted(p.name for p in dest.iterdir())
        else:
            got, system = fetch_wheels(src, own, work, arches, pythons)
        payload = io.BytesIO()
        with tarfile.open(fileobj=payload, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
            for name in tracked_files(src):
                tar.add(src / name, arcname=f"src/{name}", recursive=False)
            for arch in arches:
                for wheel in sorted((work / "wheels" / arch).iterdir()):
                    tar.add(wheel, arcname=f"wheels/{arch}/{wheel.name}")
        out_dir.mkdir(parents=True, exist_ok=True)
        target = out_dir / f"{NAME}-{version}.bundle"
        write_bundle(target, {"version": version, "schema": store_schema(src), "wheels": got, "pythons": pythons,
                              "from_the_system": system, "made": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
                     payload.getvalue(), key)
    return target


def bundle_member_sizes(bundle: Bundle, prefix: str) -> dict[str, int]:
    return {m.name: m.size for m in bundle.members() if m.name.startswith(prefix)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make bundle", description="a release bundle for an offline update")
    parser.add_argument("--out", default="dist", help="the folder to write it in (default dist/)")
    parser.add_argument("--arch", action="append", choices=list(ARCHES), help="only this architecture (again for more; "
                        "default: all)")
    parser.add_argument("--python", action="append", choices=PYTHONS, help="only this Python (default: all)")
    parser.add_argument("--key", default=str(RELEASE_KEY), help=f"the release key to sign it with, made if missing "
                        f"(default {RELEASE_KEY}; RELEASE_KEY= with make)")
    parser.add_argument("--src", default=str(Path(__file__).resolve().parents[1]), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    started = time.monotonic()
    key = Path(args.key).expanduser()
    try:
        if signing.ensure_key(key):
            print(f"made a release key: {key} (keep it, and its .pub, safe: every box you build trusts it; "
                  "docs/update.md)")
        target = make(Path(args.src), Path(args.out), args.arch or list(ARCHES), args.python or PYTHONS, key)
        with tempfile.TemporaryDirectory(prefix="bundle-check-") as tmp:
            bundle = open_bundle(target, own_signers(key, Path(tmp)))
    except (UpdateError, subprocess.CalledProcessError) as err:
        print(f"bundle: {err}", file=sys.stderr)
        return 1
    m = bundle.manifest
    with bundle:
        for arch, names in m["wheels"].items():
            size = sum(bundle_member_sizes(bundle, f"wheels/{arch}/").values())
            print(f"{arch}: {len(names)} wheels, {size / 1e6:.1f} MB" +
                  (f"; from the distribution: {', '.join(m['from_the_system'][arch])}" if m["from_the_system"].get(arch) else ""))
    print(f"{target}: version {bundle.version}, store schema {bundle.schema}, {target.stat().st_size / 1e6:.1f} MB, "
          f"signed by {bundle.signed_by} ({key}), made in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
