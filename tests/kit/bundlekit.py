"""Bundles for the updater's tests (deploy/bundle.py): signed with a release key made for the run, read
back through a trust file that holds it, as a box that trusts that key reads them."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

from deploy import signing
from deploy.bundle import Bundle, open_bundle, write_bundle

NEW = "0.2.0"


def payload(files: dict[str, bytes]) -> bytes:
    """A payload of these files, as a .tar.gz."""
    return tar_gz(list(files.items()))


def tar_gz(entries) -> bytes:
    """A payload of (name, data or None for a folder) entries, in order."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in entries:
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            else:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def make_key(folder: Path, name: str = "release") -> Path:
    """A release key (and its .pub) in ``folder``, made by ssh-keygen as make release-key makes one."""
    key = folder / name
    signing.ensure_key(key)
    return key


class Bundles:
    """Bundles in ``folder`` signed with ``key``; ``signers``, a trust file with that key alone."""

    def __init__(self, folder: Path, key: Path, signers: Path) -> None:
        self.folder, self.key, self.signers = folder, key, signers

    def of(self, payload_bytes: bytes, file: str = "raw.bundle", key: Path | None = None, **manifest) -> Path:
        """A bundle whose manifest's size and checksum are its payload's, whatever that payload is."""
        target = self.folder / file
        write_bundle(target, {"version": NEW, "schema": 6, **manifest}, payload_bytes, key or self.key)
        return target

    def at(self, files: dict[str, bytes] | None = None, **manifest) -> Path:
        return self.of(payload(files or {"src/pyproject.toml": b"x"}), file="b.bundle", **manifest)

    def open(self, path: Path, spool: Path | None = None) -> Bundle:
        return open_bundle(path, self.signers, spool=spool)
