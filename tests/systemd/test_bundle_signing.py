"""A bundle's signature (deploy/signing.py, issue 45 item 5): made with OpenSSH's ssh-keygen for real, and
the box takes a bundle only when a key it trusts signed its manifest. Every refusal is one line, before
a byte of the payload is copied."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from deploy import signing
from deploy.bundle import MEMBERS
from deploy.releases import UpdateError
from tests.kit.bundlekit import payload
from tests.kit.deploykit import INSTALL, run

UPDATE = Path(__file__).resolve().parents[2] / "deploy/update.py"
SIGNING = Path(__file__).resolve().parents[2] / "deploy/signing.py"
# The updater as root runs it (deploy/ first on its path, as a script), with os.geteuid saying root.
AS_ROOT = ("import os, runpy, sys; sys.path.insert(0, os.path.dirname(sys.argv[1])); os.geteuid = lambda: 0; "
           "runpy.run_path(sys.argv.pop(1), run_name='__main__')")


def members(path: Path) -> dict[str, bytes]:
    with tarfile.open(path) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers()}


def rewrite(path: Path, data: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:", format=tarfile.PAX_FORMAT) as out:
        for name in [n for n in MEMBERS if n in data]:
            info = tarfile.TarInfo(name)
            info.size = len(data[name])
            out.addfile(info, io.BytesIO(data[name]))
    return path


def pub(key: Path) -> Path:
    return key.with_name(key.name + ".pub")


def refused(bundles, path: Path) -> str:
    with pytest.raises(UpdateError) as err:
        bundles.open(path, spool=bundles.folder / "spool")
    said = str(err.value)
    assert "\n" not in said
    assert not (bundles.folder / "spool").exists() or not any((bundles.folder / "spool").iterdir())
    return said


def test_a_bundle_signed_by_the_trusted_key_is_taken_and_says_which_key(bundles):
    with bundles.open(bundles.at({"src/a": b"1"})) as bundle:
        assert bundle.signed_by == signing.fingerprint(signing.public_key(pub(bundles.key)))
        assert bundle.signed_by.startswith("SHA256:")


def test_a_bundle_without_a_signature_is_refused(bundles):
    path = bundles.at()
    data = members(path)
    del data["bundle.json.sig"]
    said = refused(bundles, rewrite(path, data))
    assert said == ("b.bundle: refused: it is not signed (a bundle from before bundles were signed, or made by "
                    "hand): this box takes only bundles signed by its release key")


def test_a_bundle_signed_by_another_key_is_refused_naming_both_keys(bundles, release_key):
    _, foreign = release_key
    said = refused(bundles, bundles.of(payload({"src/a": b"1"}), key=foreign))
    theirs = signing.fingerprint(signing.public_key(pub(foreign)))
    ours = signing.fingerprint(signing.public_key(pub(bundles.key)))
    assert said == (f"raw.bundle: refused: signed by another key ({theirs}), not by this box's release key ({ours})")


def test_a_manifest_changed_after_signing_is_refused_even_with_its_checksum_made_again(bundles):
    """The tampered bundle a checksum cannot catch: a payload swapped and its sha recomputed."""
    path = bundles.at({"src/a": b"the signed one"})
    data = members(path)
    evil = payload({"src/a": b"swapped in"})
    manifest = json.loads(data["bundle.json"])
    manifest |= {"payload_sha256": hashlib.sha256(evil).hexdigest(), "payload_bytes": len(evil)}
    data |= {"bundle.json": json.dumps(manifest).encode(), "payload.tar.gz": evil}
    said = refused(bundles, rewrite(path, data))
    assert said.startswith("b.bundle: refused: its signature does not match its manifest")


def test_the_release_keys_signature_for_another_use_is_not_a_bundles(bundles):
    """The namespace: the same key's signature of the same bytes for, say, git is refused."""
    path = bundles.at()
    data = members(path)
    done = subprocess.run(["ssh-keygen", "-Y", "sign", "-q", "-f", str(bundles.key), "-n", "git"],
                          input=data["bundle.json"], capture_output=True, check=True)
    data["bundle.json.sig"] = done.stdout
    assert "refused: its signature does not match its manifest" in refused(bundles, rewrite(path, data))


def test_an_oversized_signature_is_refused_before_it_is_read(bundles):
    path = bundles.at()
    data = members(path)
    data["bundle.json.sig"] = b"x" * (signing.SIGNATURE_LIMIT + 1)
    assert "not a bundle's" in refused(bundles, rewrite(path, data))


def test_a_box_that_trusts_no_key_takes_no_bundle_and_says_how_to_trust_one(bundles):
    path = bundles.at()
    bundles.signers.unlink()
    assert refused(bundles, path) == ("this box trusts no release key yet, so it takes no bundle: "
                                      "sudo cantstop-box-update --trust KEY.pub (docs/update.md)")


@pytest.mark.parametrize("text, said", [
    ("", "holds no key"),
    ("# only a comment\n", "holds no key"),
    ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE0 x\n", "line 1 is not a release key's line"),
    ('release namespaces="git" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE0\n', "line 1 is not a release key's line"),
])
def test_a_trust_file_not_ours_is_one_line(bundles, text, said):
    path = bundles.at()
    bundles.signers.write_text(text)
    assert said in refused(bundles, path)


def test_without_ssh_keygen_the_box_says_what_to_install(bundles, monkeypatch):
    path = bundles.at()
    monkeypatch.setenv("PATH", str(bundles.folder / "nothing-here"))
    assert refused(bundles, path) == signing.NO_TOOL


def test_trust_takes_only_a_public_key(tmp_path, release_key):
    key, _ = release_key
    for not_public in (key, tmp_path / "missing.pub"):
        with pytest.raises(UpdateError) as err:
            signing.trust(not_public, tmp_path / "keys")
        assert "\n" not in str(err.value)
    assert not (tmp_path / "keys").exists()


def updater(tmp_path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", AS_ROOT, str(UPDATE), *args, "--opt", str(tmp_path / "opt"),
                           "--state-dir", str(tmp_path / "state")], capture_output=True, text=True, timeout=60)


def test_the_updater_trusts_one_key_at_a_time_and_status_names_it(tmp_path, bundles, release_key):
    key, foreign = release_key
    done = updater(tmp_path, "--trust", str(pub(key)))
    ours = signing.fingerprint(signing.public_key(pub(key)))
    assert done.returncode == 0 and done.stdout.strip() == \
        f"cantstop-box-update: this box takes bundles signed by {ours} only, from now on"
    trust_file = tmp_path / "opt" / signing.TRUST_FILE
    assert signing.trusted(trust_file) == [ours]
    # Replacing the key: the old one's bundles are refused from then on.
    theirs = signing.fingerprint(signing.public_key(pub(foreign)))
    assert updater(tmp_path, "--trust", str(pub(foreign))).returncode == 0
    assert signing.trusted(trust_file) == [theirs]
    bundles.signers = trust_file
    assert "refused: signed by another key" in refused(bundles, bundles.at())
    with bundles.open(bundles.of(payload({"src/a": b"1"}), key=foreign)) as bundle:
        assert bundle.signed_by == theirs


def test_the_updater_refuses_a_foreign_bundle_in_one_line_and_installs_nothing(tmp_path, bundles, release_key):
    key, foreign = release_key
    assert updater(tmp_path, "--trust", str(pub(key))).returncode == 0
    (tmp_path / "opt/update-state.json").write_text('{"phase": "idle", "good": "0.1.0", "previous": null}\n')
    done = updater(tmp_path, str(bundles.of(payload({"src/a": b"1"}), key=foreign)), "--allow-older")
    said = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 2 and len(said) == 1 and "Traceback" not in done.stderr, said
    assert "refused: signed by another key" in said[0]
    assert not (tmp_path / "opt/releases").exists() or not any((tmp_path / "opt/releases").iterdir())
    assert not list((tmp_path / "opt").glob(".bundle-payload-*"))  # no spooled payload left beside


def test_the_updater_status_says_when_no_key_is_trusted(tmp_path):
    (tmp_path / "opt").mkdir()
    (tmp_path / "opt/update-state.json").write_text('{"phase": "idle", "good": "0.1.0", "previous": null}\n')
    done = updater(tmp_path, "--status")
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == ("takes no bundle: this box trusts no release key yet, so it takes no "
                                            "bundle: sudo cantstop-box-update --trust KEY.pub (docs/update.md)")


def test_the_updater_says_trust_of_a_private_key_is_refused_in_one_line(tmp_path, release_key):
    key, _ = release_key
    done = updater(tmp_path, "--trust", str(key))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "not one OpenSSH public key" in done.stderr


def test_release_key_makes_a_private_key_once_and_says_its_fingerprint(tmp_path):
    key = tmp_path / "conf/cantstop-box/release-key"
    first = subprocess.run([sys.executable, str(SIGNING), "key", str(key)], capture_output=True, text=True, timeout=60)
    assert first.returncode == 0 and "made now" in first.stdout, first.stderr
    assert oct(key.stat().st_mode & 0o777) == "0o600" and oct(key.parent.stat().st_mode & 0o777) == "0o700"
    before = key.read_bytes()
    again = subprocess.run([sys.executable, str(SIGNING), "key", str(key)], capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and "made now" not in again.stdout and key.read_bytes() == before
    assert again.stdout.split()[-1] == signing.fingerprint(signing.public_key(pub(key)))


def test_install_trusts_the_key_it_is_given_and_keeps_it_on_the_next_install(root, release_key):
    key, _ = release_key
    keys = root / "opt/cantstop-box" / signing.TRUST_FILE
    out = run(INSTALL, "--root", str(root)).stdout
    assert "update bundles: none taken until this box trusts a release key" in out and not keys.exists()
    out = run(INSTALL, "--root", str(root), "--trust", str(pub(key))).stdout
    ours = signing.fingerprint(signing.public_key(pub(key)))
    assert f"takes bundles signed by {ours}" in out and signing.trusted(keys) == [ours]
    out = run(INSTALL, "--root", str(root)).stdout
    assert "kept the release keys" in out and signing.trusted(keys) == [ours]
    # The updater on the box has what it checks signatures with.
    assert (root / "opt/cantstop-box/updater/signing.py").read_bytes() == SIGNING.read_bytes()


def test_install_with_a_key_that_is_not_one_fails_in_one_line(root, tmp_path):
    bad = tmp_path / "bad.pub"
    bad.write_text("not a key\n")
    done = run(INSTALL, "--root", str(root), "--trust", str(bad), check=False)
    assert done.returncode == 1 and "not one OpenSSH public key" in done.stderr
    assert not (root / "opt/cantstop-box" / signing.TRUST_FILE).exists()

