"""deploy/install.sh with a camera over the board (deploy/camera.sh): what it adds for each [camera] source, and
that a box without a camera gets nothing new."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

import pytest

from deploy import wanted
from firmware.config import models
from tests.kit.deploykit import BASH, INSTALL, REPO, UNINSTALL, files_under, run

DROP_IN = "etc/systemd/system/cantstop-box.service.d/camera.conf"
MODULES = "etc/modules-load.d/cantstop-box.conf"


def with_camera(root: Path, source: str) -> None:
    etc = root / "etc/cantstop-box"
    etc.mkdir(parents=True, exist_ok=True)
    text = (REPO / "firmware/default_config.toml").read_text()
    folder = '\nfolder = "/var/lib/cantstop-box/photos"' if source == "folder" else ""
    assert text.count('source = "off"') == 1
    (etc / "config.toml").write_text(text.replace('source = "off"', f'source = "{source}"{folder}'))


def said(out: str, root: Path) -> str:
    """What the install said, without the paths (this checkout's folder may be called anything)."""
    return out.replace(str(REPO), "SRC").replace(str(root), "ROOT")


def pip_line(out: str) -> str:
    return next(line for line in out.splitlines() if "-m pip install" in line).replace("\\", "")


def boot_modules(root: Path) -> list[str]:
    text = (root / MODULES).read_text()
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_wanted_reads_the_sources_the_box_knows():
    assert wanted.CAMERA_SOURCES == models.CAMERA_SOURCES
    camera = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["camera"]
    opencv = next(r for r in camera if r.startswith("opencv"))
    assert f"OPENCV='{opencv}'" in (REPO / "deploy/camera.sh").read_text()  # the extra's own floor


def test_wanted_turns_an_unreadable_or_unknown_camera_off(tmp_path):
    config = tmp_path / "config.toml"
    for text, source in (('[camera]\nsource = "usb"\n', "usb"), ('[camera]\nsource = "webcam"\n', "off"),
                         ("[camera]\nsource = 3\n", "off"), ("camera = 1\n", "off"), ("[camera\n", "off"), ("", "off")):
        config.write_text(text)
        assert wanted.camera_source(config) == source, text
    assert wanted.camera_source(tmp_path / "none.toml") == "off"


def test_wanted_reads_all_install_asks_in_one_line(tmp_path):
    """install.sh starts python3 once for the settings (web view, camera, the display's bus module), not once
    for each; what cannot be read asks for nothing."""
    config = tmp_path / "config.toml"
    for text, line in (('[web]\nenabled = true\n[camera]\nsource = "usb"\n[display]\ninterface = "spi"\n', "1 usb spidev"),
                       ("", "0 off i2c-dev"), ('[display]\ninterface = "hdmi"\n', "0 off -"),
                       ("[display]\ninterface = 3\n", "0 off -"), ("display = 1\n", "0 off -"),
                       ("[web\n", "0 off -")):
        config.write_text(text)
        done = subprocess.run(["python3", str(REPO / "deploy/wanted.py"), "settings", str(config)],
                              capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stdout) == (0, line + "\n"), text
    assert wanted.settings_line(tmp_path / "none.toml") == "0 off -"
    assert "wanted.py\" settings" in INSTALL.read_text() and " -c 'import sys, tomllib" not in INSTALL.read_text()


def test_install_without_a_camera_adds_nothing_for_one(root):
    out = said(run(INSTALL, "--root", str(root)).stdout, root)
    assert pip_line(out).endswith("[pi]")
    assert "camera" not in out and "video" not in out
    assert not (root / "etc/systemd/system/cantstop-box.service.d").exists()
    assert boot_modules(root) == ["i2c-dev"]


@pytest.mark.parametrize("source", ["usb", "pi"])
def test_install_with_a_camera_device_gives_the_unit_its_devices(root, source):
    with_camera(root, source)
    out = run(INSTALL, "--root", str(root), env={"SYSTEM_NUMPY": "1.24.2"}).stdout
    assert (root / DROP_IN).read_bytes() == (REPO / f"systemd/camera/{source}.conf").read_bytes()
    assert oct((root / DROP_IN).stat().st_mode & 0o777) == "0o644"
    assert f'camera: [camera] source = "{source}": OpenCV and NumPy (the \'camera\' extra)' in out
    assert "would run: groupadd --system video" in out  # the root has no group video yet
    assert "--groups gpio\\,i2c\\,spi cantstop" in out  # the unit gets video from the drop-in, not the user
    assert boot_modules(root) == ["i2c-dev", "videodev"] + (["mc"] if source == "pi" else [])
    assert "NOTE" not in out


def test_install_with_the_pi_camera_takes_picamera2_from_apt_and_keeps_its_numpy(root):
    with_camera(root, "pi")
    out = run(INSTALL, "--root", str(root), env={"SYSTEM_NUMPY": "1.24.2"}).stdout
    assert "picamera2: from the distribution (python3-picamera2), for the Pi camera" in out
    apt = next(line for line in out.splitlines() if "apt-get install" in line)
    assert apt.endswith("python3-cbor2 python3-picamera2")
    # picamera2's simplejpeg is built against the system's NumPy: pip must not put another beside it
    assert pip_line(out).endswith(f"{REPO}[pi,camera] numpy==1.24.2")
    assert "NumPy stays the system's 1.24.2" in out


def test_install_with_a_webcam_takes_nothing_from_apt_and_numpy_from_pypi(root):
    with_camera(root, "usb")
    out = run(INSTALL, "--root", str(root), env={"SYSTEM_NUMPY": "1.24.2"}).stdout
    assert "picamera2" not in out
    assert pip_line(out).endswith(f"{REPO}[pi,camera]")


@pytest.mark.parametrize("source", ["folder", "scene"])
def test_install_with_a_camera_that_opens_no_device_takes_only_the_extra(root, source):
    with_camera(root, source)
    out = run(INSTALL, "--root", str(root)).stdout
    assert pip_line(out).endswith(f"{REPO}[pi,camera]")
    assert not (root / DROP_IN).exists() and "video" not in said(out, root)
    assert boot_modules(root) == ["i2c-dev"]


def test_install_with_the_web_view_and_a_camera_takes_both_extras(root):
    with_camera(root, "usb")
    config = root / "etc/cantstop-box/config.toml"
    config.write_text(config.read_text().replace("enabled = false", "enabled = true"))
    assert pip_line(run(INSTALL, "--root", str(root)).stdout).endswith(f"{REPO}[pi,web,camera]")


def test_install_without_picamera2_in_the_distribution_says_so(root, apt_knows):
    with_camera(root, "pi")
    apt_knows.write_text(apt_knows.read_text().replace("python3-picamera2\n", ""))
    out = run(INSTALL, "--root", str(root)).stdout
    assert 'NOTE: [camera] source = "pi": Debian GNU/Linux 12 (bookworm) has no python3-picamera2' in out
    assert "python3-picamera2" not in next(line for line in out.splitlines() if "apt-get install" in line)


def test_install_without_an_opencv_wheel_installs_the_rest(root, tmp_path, monkeypatch):
    """32-bit Pis: PyPI has no armv7l OpenCV; the box is installed without its camera, and says so."""
    with_camera(root, "usb")
    fake = tmp_path / "bin" / "pip"
    fake.parent.mkdir()
    fake.write_text(f'#!{BASH}\nwant=${{!#}}\ncase $want in opencv*) '
                    'echo "ERROR: No matching distribution found for opencv-python-headless" >&2; exit 1;; esac\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:{os.environ['PATH']}")
    out = run(INSTALL, "--root", str(root), env={"PIP": "pip"}).stdout
    assert pip_line(out).endswith(f"{REPO}[pi]")
    assert any("no OpenCV wheel for this Python" in line for line in out.splitlines() if line.startswith("NOTE"))
    assert (root / DROP_IN).exists()  # the sandbox is ready for when OpenCV comes


def test_install_dry_run_lists_the_camera_and_changes_nothing(root):
    with_camera(root, "pi")
    before = files_under(root)
    out = run(INSTALL, "--dry-run", "--root", str(root)).stdout
    assert files_under(root) == before
    assert f"would run: install -m 0644 {REPO}/systemd/camera/pi.conf {root}/{DROP_IN}" in out
    assert f"would write {root}/{MODULES}: i2c-dev, videodev, mc, loaded at every boot" in out
    assert "picamera2: from the distribution (python3-picamera2)" in out
    assert "[pi,camera]" in pip_line(out)


def test_install_takes_the_drop_in_away_when_the_camera_is_off_again(root):
    with_camera(root, "usb")
    run(INSTALL, "--root", str(root))
    assert (root / DROP_IN).exists()
    config = root / "etc/cantstop-box/config.toml"
    config.write_text(config.read_text().replace('source = "usb"', 'source = "off"'))
    out = run(INSTALL, "--root", str(root)).stdout
    assert not (root / DROP_IN).exists() and not (root / DROP_IN).parent.exists()
    assert 'the box opens no camera device any more ([camera] source = "off")' in out
    assert boot_modules(root) == ["i2c-dev"]
    assert pip_line(out).endswith("[pi]")


def test_install_with_a_camera_twice_changes_nothing_and_uninstall_takes_it_all(root):
    before_install = files_under(root)
    with_camera(root, "pi")
    settings = files_under(root)
    run(INSTALL, "--root", str(root))
    once = files_under(root)
    run(INSTALL, "--root", str(root))
    assert files_under(root) == once
    run(UNINSTALL, "--root", str(root))
    left = files_under(root)
    assert not (root / DROP_IN).exists() and not (root / MODULES).exists()
    assert left == settings and set(before_install) <= set(left)  # the edited settings stay, as ever
