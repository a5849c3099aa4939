"""A release bundle: one file with the project and every wheel it needs on a Pi, so an update needs no internet.

This is the format, its reading on the box (the updater) and its writing; deploy/makebundle.py makes
one (make bundle: dist/cantstop-box-<version>.bundle).

The file is a tar of three members, in this order:

    bundle.json      {"name", "version", "schema", "payload_sha256", "payload_bytes", "wheels"}
    bundle.json.sig  bundle.json's signature by the release key (deploy/signing.py: OpenSSH's)
    payload.tar.gz   src/ (the project's files as git tracks them), wheels/<arch>/*.whl
                     (the project's own wheel and its dependencies' for aarch64 and armhf,
                     Python 3.11 and 3.13: Raspberry Pi OS bookworm and trixie; the camera's
                     among them, installed only where the camera is on: deploy/wanted.py)

A dependency with no binary wheel for an architecture (spidev has none) is
left to the distribution's package, which deploy/install.sh installed; the
venvs see it (--system-site-packages). The updater reads bundle.json (a few
KB, limit checked) and its signature, checks it against the keys the box
trusts, then the payload's size and SHA-256, before it unpacks anything
(``open_bundle``).
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import shutil
import tarfile
import tempfile
import time
import zlib
from pathlib import Path

if __package__:  # deploy.bundle (the tests)
    from . import signing
    from .releases import UpdateError, parse_version
else:  # a script beside releases.py (the box)
    import signing
    from releases import UpdateError, parse_version

NAME = "cantstop-box"
MANIFEST_LIMIT = 256 * 1024
PAYLOAD_LIMIT = 400 * 1024 * 1024
#: The machine (platform.machine()) a Pi's system runs on, and the architecture its wheels are under.
MACHINES = {"aarch64": "aarch64", "armv7l": "armhf", "armv6l": "armhf"}
#: The extras whose wheels a bundle carries. The camera's (NumPy, OpenCV: most of a bundle's size) always,
#: so that a box with a camera keeps it across an update; the updater installs them only where the box's
#: settings turn the camera on (deploy/wanted.py).
EXTRAS = "pi,web,camera"
#: Where whoever builds releases keeps the key that signs them (make bundle, make image: RELEASE_KEY).
RELEASE_KEY = Path("~/.config/cantstop-box/release-key")


# -- reading one (on the box) ----------------------------------------------------------

#: The most the payload may unpack to, and the most files. A payload that unpacks to more is not ours
#: (a 298 KB one that unpacked to 300 MB once filled the data partition, where the games are). Today's
#: (2026-12-06, every Pi and Python) unpacks to 115.5 MiB in 398 files: 92.6 MiB of it the camera's
#: wheels (NumPy for Python 3.11 and 3.13, OpenCV twice: aarch64 only), which every bundle carries.
#: 250 MiB is 2.2 times that: room for a third Python's NumPy (15 MiB) and years of OpenCV's growth
#: (4.11 to 5.1: +6 MiB), and still under that 300 MB. The files are far from their cap (a wheel is one).
UNPACKED_LIMIT = 250 * 1024 * 1024
MEMBERS_LIMIT = 20_000
#: Room kept free on the data partition beside an update: the store, its backup before a migration,
#: and its journal (a box's store is a few MB; ten thousand games are about 40).
STORE_RESERVE = 128 * 1024 * 1024
#: The new release's venv, made from the wheels, takes about twice what they unpack to: with the payload
#: itself, three times. (Today a camera box's venv is 176 MB of the payload's 121 MB: NumPy and one
#: OpenCV for its one Python; a box without a camera needs far less than the rule keeps free.)
VENV_FACTOR = 3


class Bundle:
    """A bundle checked by :func:`open_bundle`: its payload is a private copy made while its checksum was
    taken (``payload_path``), so what is unpacked is what was checked, whoever can write the bundle's file.
    ``close()`` (or a ``with`` block) removes that copy."""

    def __init__(self, path: Path, manifest: dict, payload_path: Path, signed_by: str) -> None:
        self.path, self.manifest, self.payload_path = path, manifest, payload_path
        self.signed_by = signed_by  # the release key's fingerprint (SHA256:...)
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
        except (tarfile.TarError, EOFError, zlib.error, OSError) as err:
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


MEMBERS = ["bundle.json", "bundle.json.sig", "payload.tar.gz"]


def open_bundle(path: Path, signers: Path, spool: Path | None = None) -> Bundle:
    """The bundle at ``path``, checked: its manifest, its signature by a key in the trust file ``signers``
    (deploy/signing.py), its payload's size and checksum (UpdateError: one line). The payload is copied
    into a private file in ``spool`` (default: the system's temporary folder) as its checksum is taken:
    the bundle's file is read once, and only that copy is unpacked."""
    path = Path(path)
    if not path.is_file():
        raise UpdateError(f"{path}: no such file (a bundle is made by 'make bundle')")
    copy = None
    try:
        with tarfile.open(path, mode="r:") as outer:
            members = outer.getmembers()
            names = [m.name for m in members]
            if names == ["bundle.json", "payload.tar.gz"]:
                raise UpdateError(f"{path.name}: refused: it is not signed (a bundle from before bundles were "
                                  "signed, or made by hand): this box takes only bundles signed by its release key")
            if names != MEMBERS:
                raise UpdateError(f"{path.name}: not a cantstop-box bundle (it holds {', '.join(names[:3]) or 'nothing'})")
            info, sig, payload = members
            if info.size > MANIFEST_LIMIT or sig.size > signing.SIGNATURE_LIMIT:
                raise UpdateError(f"{path.name}: its bundle.json is {info.size} bytes and its signature {sig.size}: "
                                  "not a bundle's")
            text = outer.extractfile(info).read()
            signed_by = signing.verify(path.name, text, outer.extractfile(sig).read(), signers)
            manifest = json.loads(text)
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
    return Bundle(path, manifest, copy, signed_by)


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


def write_bundle(target: Path, manifest: dict, payload: bytes, key: Path) -> None:
    """The three members: the manifest saying the payload's size and checksum, its signature with the
    release key at ``key``, the payload."""
    manifest = {"name": NAME, **manifest, "payload_sha256": hashlib.sha256(payload).hexdigest(),
                "payload_bytes": len(payload)}
    text = json.dumps(manifest, indent=1, sort_keys=True).encode()
    signature = signing.sign(text, key)
    tmp = target.with_name(target.name + ".tmp")
    with tarfile.open(tmp, mode="w:", format=tarfile.PAX_FORMAT) as out:
        for name, data in zip(MEMBERS, (text, signature, payload)):
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), int(time.time()), 0o644
            out.addfile(info, io.BytesIO(data))
    tmp.replace(target)


def own_signers(key: Path, folder: Path) -> Path:
    """A trust file in ``folder`` holding the release key at ``key`` alone: the builder reads its own
    bundles back with it, as a box that trusts that key would."""
    signers = folder / signing.TRUST_FILE
    signing.trust(Path(key).expanduser().with_name(Path(key).expanduser().name + ".pub"), signers)
    return signers
