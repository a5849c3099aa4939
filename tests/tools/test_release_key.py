"""The release key's way through the build (docs/update.md, "The release key"): make passes it to make
bundle, make image and make image-check, and each refuses in one line to run without one."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tools.image import build, check

REPO = Path(__file__).resolve().parents[2]


def dry_run(target: str, key: str) -> str:
    done = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(REPO), target, f"RELEASE_KEY={key}"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_make_signs_bundles_and_bakes_cards_with_the_one_release_key():
    key = "/keys/ours"
    assert "deploy/signing.py key /keys/ours" in dry_run("release-key", key)
    assert "deploy/makebundle.py --key /keys/ours " in dry_run("bundle", key)
    for target in ("image", "image-dev"):
        said = dry_run(target, key)
        assert "deploy/signing.py key /keys/ours" in said and "-m tools.image" in said
        assert "--release-key /keys/ours.pub" in said  # the card gets the public half only
    assert "-m tools.image.check --release-key /keys/ours " in dry_run("image-check", key)
    # ssh-keygen comes with the targets, as every target installs what it needs
    assert "deploy/ci-deps.sh ssh-keygen=openssh-client" in dry_run("release-key", key)
    assert "deploy/ci-deps.sh ssh-keygen=openssh-client" in dry_run("test", key)


def test_make_image_without_a_release_key_says_so_in_one_line(capsys, tmp_path):
    assert build.main(["--out", str(tmp_path)]) == 1
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "needs --release-key KEY.pub" in said
    bad = tmp_path / "bad.pub"
    bad.write_text("hello\n")
    assert build.main(["--out", str(tmp_path), "--release-key", str(bad)]) == 1
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "not one OpenSSH public key" in said


@pytest.mark.parametrize("only", [None, "update"])
def test_image_checks_update_rows_need_the_key_the_card_trusts(capsys, tmp_path, only):
    args = ["--only", only] if only else []
    assert check.main([*args, "--release-key", str(tmp_path / "missing")]) == 1
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "the update rows need --release-key KEY" in said and "missing" in said
