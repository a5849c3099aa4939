"""A bundle read back on the box (deploy/bundle.py): refused in one line when it is damaged, not ours, or
would not unpack whole; what is unpacked is what was checked. Its signature: test_bundle_signing.py."""

from __future__ import annotations

import os
import re
import tarfile
from pathlib import Path

import pytest

from deploy.releases import UpdateError
from tests.kit.bundlekit import NEW, payload, tar_gz


def test_a_bundle_is_read_back_and_unpacked(tmp_path, bundles):
    bundle = bundles.open(bundles.at({"src/a.txt": b"hello", "wheels/aarch64/x.whl": b"w"}))
    assert (bundle.version, bundle.schema) == (NEW, 6)
    bundle.unpack(tmp_path / "r")
    assert (tmp_path / "r/src/a.txt").read_bytes() == b"hello" and (tmp_path / "r/wheels/aarch64/x.whl").exists()


def damaged(path: Path) -> Path:
    """One byte of the payload flipped, as a bad copy would."""
    with tarfile.open(path) as tar:
        at = tar.getmember("payload.tar.gz").offset_data + 1000
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("spoil, said", [
    (damaged, "checksum mismatch (the copy is damaged): copy it again"),
    (lambda p: p.write_bytes(p.read_bytes()[:3000]) and p, "not a whole bundle"),
    (lambda p: p.write_bytes(b"PK\x03\x04 a zip, say") and p, "not a whole bundle"),
    (lambda p: p.unlink() or p, "no such file (a bundle is made by 'make bundle')"),
])
def test_a_damaged_bundle_is_refused_in_one_line(tmp_path, bundles, spoil, said):
    path = spoil(bundles.at({"src/big": os.urandom(20000)}))
    with pytest.raises(UpdateError) as err:
        bundles.open(path)
    assert said in str(err.value) and "\n" not in str(err.value)


def test_a_bundle_of_another_name_or_version_is_refused(tmp_path, bundles):
    with pytest.raises(UpdateError, match="not a cantstop-box bundle"):
        bundles.open(bundles.at(name="other"))
    with pytest.raises(UpdateError, match="not a version"):
        bundles.open(bundles.at(version="latest"))
    tar = tmp_path / "plain.tar"
    with tarfile.open(tar, "w") as out:
        out.add(__file__, arcname="readme.txt")
    with pytest.raises(UpdateError, match="not a cantstop-box bundle .it holds readme.txt"):
        bundles.open(tar)


def test_a_bundle_member_outside_its_folder_is_refused_before_anything_is_written(tmp_path, bundles):
    bundle = bundles.open(bundles.at({"../escape": b"x"}))
    with pytest.raises(UpdateError, match="is not a plain file in the bundle"):
        bundle.unpack(tmp_path / "r")
    assert not (tmp_path / "escape").exists()


@pytest.mark.parametrize("entries, said", [
    ([("src/a", b"file"), ("src/a/b", b"under a file")], "'src/a/b' is both a file and a folder"),
    ([("src/a/b", b"x"), ("src/a", b"a file where a folder is")], "'src/a' is both a file and a folder"),
    ([(".", b"a file named dot")], "'.' is not a plain file"),
    ([("src/x", b"1"), ("src/x", b"2")], "'src/x' is in the bundle twice"),
])
def test_a_payload_that_cannot_unpack_is_one_line_and_nothing_is_written(tmp_path, bundles, entries, said):
    """Issue 45, item 1: FileExistsError, IsADirectoryError... escaped as tracebacks, leaving a half-written release."""
    into = tmp_path / "release"
    with bundles.open(bundles.of(tar_gz(entries))) as bundle:
        with pytest.raises(UpdateError, match=re.escape(said)):
            bundle.unpack(into)
    assert not into.exists() or not any(into.iterdir())


def test_a_payload_whose_checksum_matches_but_is_not_a_whole_tar_gz_is_refused(tmp_path, bundles):
    whole = tar_gz([("src/a", os.urandom(50_000))])
    for broken in (whole[: len(whole) // 2], b"not gzip at all"):
        with bundles.open(bundles.of(broken)) as bundle:
            with pytest.raises(UpdateError, match="its payload is not a whole .tar.gz"):
                bundle.unpack(tmp_path / "r")
        assert not (tmp_path / "r").exists() or not any((tmp_path / "r").iterdir())


def test_a_payload_that_unpacks_past_the_cap_is_refused_before_a_byte_is_written(tmp_path, bundles, monkeypatch):
    """Issue 45, item 2: 298 KB that unpacked to 300 MB filled the data partition."""
    from deploy import bundle as bundle_mod

    monkeypatch.setattr(bundle_mod, "UNPACKED_LIMIT", 1_000_000)
    zeros = tar_gz([("src/small", b"x"), ("src/zeros", bytes(2_000_000))])  # a few KB, 2 MB unpacked
    assert len(zeros) < 20_000
    with bundles.open(bundles.of(zeros)) as bundle:
        with pytest.raises(UpdateError, match="unpacks to more than"):
            bundle.unpack(tmp_path / "r")
    assert not (tmp_path / "r").exists()  # refused from the listing: not even the folder was made
    assert bundle_mod.UNPACKED_LIMIT >= 1_000_000 and bundle_mod.STORE_RESERVE >= 64 << 20


def test_an_update_that_would_leave_no_room_for_the_games_is_refused(tmp_path, bundles, monkeypatch):
    from collections import namedtuple

    from deploy import bundle as bundle_mod

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(bundle_mod.shutil, "disk_usage", lambda path: usage(1 << 30, 1 << 30, 100 << 20))
    with bundles.open(bundles.at({"src/a": b"hello"})) as bundle:
        with pytest.raises(UpdateError, match="no room: the update needs 128 MB free beside the games"):
            bundle.unpack(tmp_path / "r")
    assert not any((tmp_path / "r").iterdir())


def test_a_disk_that_fills_while_unpacking_is_one_line_and_leaves_nothing(tmp_path, bundles, monkeypatch):
    import builtins
    import errno

    from deploy import bundle as bundle_mod

    written = []

    def filling(path, mode="r", *args, **kwargs):
        if "x" in mode and written:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(path)
        return builtins.open(path, mode, *args, **kwargs)

    monkeypatch.setattr(bundle_mod, "open", filling, raising=False)
    with bundles.open(bundles.at({"src/a": b"1", "src/b": b"2", "src/c": b"3"})) as bundle:
        with pytest.raises(UpdateError, match="the data partition filled while unpacking: nothing was kept"):
            bundle.unpack(tmp_path / "r")
    assert written and not any((tmp_path / "r").iterdir())


def test_what_is_unpacked_is_the_payload_that_was_checked_even_if_the_file_changes(tmp_path, bundles):
    """Issue 45, item 4: the sha was taken on the file, then the file was opened again to unpack."""
    path = bundles.at({"src/a.txt": b"checked"})
    with bundles.open(path, spool=tmp_path / "spool") as bundle:
        bundles.of(payload({"src/a.txt": b"swapped in"}), file=path.name)  # after the check
        bundle.unpack(tmp_path / "r")
        copy = bundle.payload_path
        assert copy.parent == tmp_path / "spool" and oct(copy.stat().st_mode & 0o777) == "0o600"
    assert (tmp_path / "r/src/a.txt").read_bytes() == b"checked"
    assert not copy.exists()  # the private copy goes with the bundle




def test_a_spooled_copy_that_went_missing_is_one_line(tmp_path, bundles):
    """The private copy is the box's own; if something removes it (a cleaner of /tmp), the listing says so."""
    with bundles.open(bundles.at({"src/a": b"1"}), spool=tmp_path / "spool") as bundle:
        bundle.payload_path.unlink()
        with pytest.raises(UpdateError, match=r"b\.bundle: cannot unpack it \(No such file or directory\)"):
            bundle.unpack(tmp_path / "r")
