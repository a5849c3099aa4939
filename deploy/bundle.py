"""A release bundle: one file with the project and every wheel it needs on a Pi, so an update needs no internet.

    python3 deploy/bundle.py [--out DIR]     (make bundle): dist/cantstop-box-<version>.bundle

The file is a tar of two members, in this order:

    bundle.json      {"name", "version", "schema", "payload_sha256", "payload_bytes", "wheels"}
    payload.tar.gz   src/ (the project's files as git tracks them), wheels/<arch>/*.whl
                     (the project's own wheel and its dependencies' for aarch64 and armhf,
                     Python 3.11 and 3.13: Raspberry Pi OS bookworm and trixie)

A dependency with no binary wheel for an architecture (spidev has none) is
left to the distribution's package, which deploy/install.sh installed; the
venvs see it (--system-site-packages). The updater reads bundle.json (a few
KB, limit checked), then checks the payload's size and SHA-256 before it
unpacks anything (``open_bundle``).
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zlib
from pathlib import Path

if __package__:  # deploy.bundle (the tests)
    from .releases import UpdateError, parse_version
else:  # a script beside releases.py (the box)
    from releases import UpdateError, parse_version

NAME = "cantstop-box"
MANIFEST_LIMIT = 256 * 1024
PAYLOAD_LIMIT = 400 * 1024 * 1024
#: The Pi's architectures (as the bundle names them) and the machine their wheels are tagged for.
ARCHES = {"aarch64": "aarch64", "armhf": "armv7l"}
#: The Pythons a bundle is for, and the newest glibc each system with it has (Raspberry Pi OS
#: bookworm: Python 3.11, glibc 2.36; trixie: 3.13, 2.41): a wheel for a newer glibc would not load.
GLIBC = {"3.11": 36, "3.13": 41}
MACHINES = {"aarch64": "aarch64", "armv7l": "armhf", "armv6l": "armhf"}
PYTHONS = list(GLIBC)
EXTRAS = "pi,web"


# -- reading one (on the box) ----------------------------------------------------------

#: The most the payload may unpack to, and the most files: today's is about 14 MB in 120 files. Ten
#: times that leaves room for growth; a payload that unpacks to more is not ours (a 298 KB one that
#: unpacked to 300 MB once filled the data partition, where the games are).
UNPACKED_LIMIT = 150 * 1024 * 1024
MEMBERS_LIMIT = 20_000
#: Room kept free on the data partition beside an update: the store, its backup before a migration,
#: and its journal (a box's store is a few MB; ten thousand games are about 40).
STORE_RESERVE = 128 * 1024 * 1024
#: The new release's venv, made from the wheels, takes about twice what they unpack to.
VENV_FACTOR = 3


class Bundle:
    """A bundle checked by :func:`open_bundle`: its payload is a private copy made while its checksum was
    taken (``payload_path``), so what is unpacked is what was checked, whoever can write the bundle's file.
    ``close()`` (or a ``with`` block) removes that copy."""

    def __init__(self, path: Path, manifest: dict, payload_path: Path) -> None:
        self.path, self.manifest, self.payload_path = path, manifest, payload_path
        self.version: str = manifest["version"]
        self.schema: int | None = manifest.get("schema")

    def close(self) -> None:
        self.payload_path.unlink(missing_ok=True)

    def __enter__(self) -> "Bundle":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _refused(self, why: str) -> UpdateError:
        return UpdateError(f"{self.path.name}: refused: {why}")

    def members(self) -> list[tarfile.TarInfo]:
        """The payload's members, each checked before anything is written: a plain file or folder, inside
        its folder, no file where another member needs a folder, within UNPACKED_LIMIT and MEMBERS_LIMIT."""
        files: set[str] = set()
        folders: set[str] = set()
        total, listed = 0, []
        try:
            with tarfile.open(self.payload_path, mode="r:gz") as inner:
                for member in inner:
                    parts = _parts(member.name)
                    name = "/".join(parts)
                    if (member.name.startswith("/") or ".." in parts or not name
                            or not (member.isfile() or member.isdir())):
                        raise self._refused(f"{member.name[:60]!r} is not a plain file in the bundle")
                    parents = {"/".join(parts[:i]) for i in range(1, len(parts))}
                    if parents & files or (member.isfile() and name in folders) or (member.isdir() and name in files):
                        raise self._refused(f"{name[:60]!r} is both a file and a folder in the bundle")
                    folders |= parents | ({name} if member.isdir() else set())
                    if member.isfile():
                        if name in files:
                            raise self._refused(f"{name[:60]!r} is in the bundle twice")
                        files.add(name)
                        total += member.size
                    listed.append(member)
                    if total > UNPACKED_LIMIT or len(listed) > MEMBERS_LIMIT:
                        raise self._refused(f"its payload unpacks to more than {UNPACKED_LIMIT >> 20} MB or "
                                            f"{MEMBERS_LIMIT} files, more than a bundle's")
        except (tarfile.TarError, EOFError, zlib.error) as err:
            raise self._failed(err) from None
        self.unpacked_bytes = total
        return listed

    def unpack(self, into: Path) -> None:
        """The payload's files under ``into``, a new or empty folder (src/, wheels/): checked first
        (:meth:`members`), then only if the partition keeps STORE_RESERVE free beside them and the venv
        they make. Any failure is one UpdateError, and ``into`` is left empty."""
        listed = self.members()
        into.mkdir(parents=True, exist_ok=True)
        free = shutil.disk_usage(into).free
        needed = self.unpacked_bytes * VENV_FACTOR + STORE_RESERVE
        if free < needed:
            raise UpdateError(f"{self.path.name}: no room: the update needs {needed >> 20} MB free beside the games, "
                              f"the data partition has {free >> 20} MB")
        try:
            with tarfile.open(self.payload_path, mode="r:gz") as inner:
                for at, member in enumerate(inner):
                    if at >= len(listed) or member.name != listed[at].name:
                        raise self._refused("its payload changed while it was read")
                    target = into.joinpath(*_parts(member.name))
                    if member.isdir():
                        target.mkdir(parents=True, exist_ok=True)
                        continue
                    target.parent.mkdir(parents=True, exist_ok=True)
                    with inner.extractfile(member) as src, open(target, "xb") as out:
                        while chunk := src.read(1 << 20):
                            out.write(chunk)
                    target.chmod(0o755 if member.mode & 0o100 else 0o644)
        except (UpdateError, OSError, tarfile.TarError, EOFError, zlib.error) as err:
            _empty(into)
            raise self._failed(err) from None

    def _failed(self, err: Exception) -> UpdateError:
        """An unpack's failure as its one line."""
        if isinstance(err, UpdateError):
            return err
        if isinstance(err, OSError) and err.errno == errno.ENOSPC:
            return UpdateError(f"{self.path.name}: the data partition filled while unpacking: nothing was "
                               "kept; free some room and try again")
        if isinstance(err, OSError):
            return UpdateError(f"{self.path.name}: cannot unpack it ({err.strerror or err}): nothing was kept")
        return UpdateError(f"{self.path.name}: its payload is not a whole .tar.gz "
                           f"({str(err)[:60] or type(err).__name__}): copy it again")


def _parts(name: str) -> list[str]:
    """A member's path as its parts, without empty ones and ``.`` ("./src//a" is src, a)."""
    return [p for p in name.split("/") if p not in ("", ".")]


def _empty(folder: Path) -> None:
    """What an unpack wrote into ``folder`` goes (the folder stays, as it was: new and empty)."""
    for item in folder.iterdir() if folder.is_dir() else []:
        if item.is_dir() and not item.is_symlink():
            shutil.rmtree(item, ignore_errors=True)
        else:
            item.unlink(missing_ok=True)


def open_bundle(path: Path, spool: Path | None = None) -> Bundle:
    """The bundle at ``path``, checked: its manifest, its payload's size and checksum (UpdateError: one line).
    The payload is copied into a private file in ``spool`` (default: the system's temporary folder) as its
    checksum is taken: the bundle's file is read once, and only that copy is unpacked."""
    path = Path(path)
    if not path.is_file():
        raise UpdateError(f"{path}: no such file (a bundle is made by 'make bundle')")
    copy = None
    try:
        with tarfile.open(path, mode="r:") as outer:
            members = outer.getmembers()
            names = [m.name for m in members]
            if names[:2] != ["bundle.json", "payload.tar.gz"] or len(names) != 2:
                raise UpdateError(f"{path.name}: not a cantstop-box bundle (it holds {', '.join(names[:3]) or 'nothing'})")
            info, payload = members
            if info.size > MANIFEST_LIMIT:
                raise UpdateError(f"{path.name}: its bundle.json is {info.size} bytes: not a bundle's")
            manifest = json.loads(outer.extractfile(info).read())
            check_manifest(path, manifest, payload.size)
            if spool is not None:
                spool.mkdir(parents=True, exist_ok=True)
                free = shutil.disk_usage(spool).free
                if free < payload.size + STORE_RESERVE:
                    raise UpdateError(f"{path.name}: no room for its {payload.size >> 20} MB beside the games "
                                      f"({free >> 20} MB free)")
            digest = hashlib.sha256()
            fd, name = tempfile.mkstemp(prefix=".bundle-payload-", dir=spool)
            copy = Path(name)
            data = outer.extractfile(payload)
            with os.fdopen(fd, "wb") as out:
                while chunk := data.read(1 << 20):
                    digest.update(chunk)
                    out.write(chunk)
    except UpdateError:
        if copy is not None:
            copy.unlink(missing_ok=True)
        raise
    except (tarfile.TarError, EOFError, ValueError, OSError, RecursionError) as err:
        if copy is not None:
            copy.unlink(missing_ok=True)
        raise UpdateError(f"{path.name}: not a whole bundle ({str(err)[:80] or type(err).__name__}): copy it again") from None
    if digest.hexdigest() != manifest["payload_sha256"]:
        copy.unlink(missing_ok=True)
        raise UpdateError(f"{path.name}: checksum mismatch (the copy is damaged): copy it again")
    return Bundle(path, manifest, copy)


def check_manifest(path: Path, manifest, size: int) -> None:
    if not isinstance(manifest, dict) or manifest.get("name") != NAME:
        raise UpdateError(f"{path.name}: not a {NAME} bundle")
    parse_version(manifest.get("version"))
    schema = manifest.get("schema")
    if schema is not None and not (isinstance(schema, int) and 0 <= schema < 10_000):
        raise UpdateError(f"{path.name}: its store schema {str(schema)[:20]!r} is not a number")
    if not isinstance(manifest.get("payload_sha256"), str) or manifest.get("payload_bytes") != size:
        raise UpdateError(f"{path.name}: not a whole bundle (payload {size} bytes, the manifest says "
                          f"{manifest.get('payload_bytes')}): copy it again")
    if size > PAYLOAD_LIMIT:
        raise UpdateError(f"{path.name}: its payload is {size / 1e6:.0f} MB, over the {PAYLOAD_LIMIT / 1e6:.0f} MB a bundle may be")


def write_bundle(target: Path, manifest: dict, payload: bytes) -> None:
    """The two members, the manifest saying the payload's size and checksum."""
    manifest = {"name": NAME, **manifest, "payload_sha256": hashlib.sha256(payload).hexdigest(),
                "payload_bytes": len(payload)}
    text = json.dumps(manifest, indent=1, sort_keys=True).encode()
    tmp = target.with_name(target.name + ".tmp")
    with tarfile.open(tmp, mode="w:", format=tarfile.PAX_FORMAT) as out:
        for name, data in (("bundle.json", text), ("payload.tar.gz", payload)):
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), int(time.time()), 0o644
            out.addfile(info, io.BytesIO(data))
    tmp.replace(target)


# -- making one (make bundle) --------------------------------------------------------

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
    wanted = pins(first)
    got: dict[str, list[str]] = {}
    for arch in arches:
        dest = work / "wheels" / arch
        dest.mkdir(parents=True)
        (dest / own.name).write_bytes(own.read_bytes())
        for python in pythons:
            if download(arch, python, wanted, dest, deps=False):
                continue
            for pin in wanted:  # one at a time: which have no wheel here
                if not download(arch, python, [pin], dest, deps=False):
                    system.setdefault(arch, []).append(f"{pin} (Python {python})")
        system[arch] = sorted(set(system.get(arch, [])))
        got[arch] = sorted(p.name for p in dest.iterdir())
    return got, system


def make(src: Path, out_dir: Path, arches: list[str], pythons: list[str], reuse: Path | None = None) -> Path:
    """The bundle: the dependencies resolved once (for the first arch and Python), then each of them
    fetched as a binary wheel for every arch and Python; one without is left to the distribution.
    ``reuse``, an earlier bundle of the same dependencies: its wheels, without asking the index."""
    version = project_version(src)
    with tempfile.TemporaryDirectory(prefix="bundle-") as tmp:
        work = Path(tmp)
        built = pip("wheel", "--quiet", "--no-deps", "--wheel-dir", str(work / "own"), str(src))
        if built.returncode:
            raise UpdateError(f"cannot build the project's wheel: {(built.stderr.strip().splitlines() or ['?'])[-1]}")
        own = next((work / "own").glob("*.whl"))
        if reuse is not None:
            with open_bundle(reuse, spool=work) as earlier:
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
                     payload.getvalue())
    return target


def bundle_member_sizes(bundle: Bundle, prefix: str) -> dict[str, int]:
    return {m.name: m.size for m in bundle.members() if m.name.startswith(prefix)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make bundle", description="a release bundle for an offline update")
    parser.add_argument("--out", default="dist", help="the folder to write it in (default dist/)")
    parser.add_argument("--arch", action="append", choices=list(ARCHES), help="only this architecture (again for more; "
                        "default: all)")
    parser.add_argument("--python", action="append", choices=PYTHONS, help="only this Python (default: all)")
    parser.add_argument("--src", default=str(Path(__file__).resolve().parents[1]), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        target = make(Path(args.src), Path(args.out), args.arch or list(ARCHES), args.python or PYTHONS)
        bundle = open_bundle(target)
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
          f"made in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
