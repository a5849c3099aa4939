"""The camera's wheels in a bundle (deploy/makebundle.py) and in an update (deploy/wanted.py's update_requirements):
a bundle always carries them; the updater installs them only where the box's settings turn the camera on."""

from __future__ import annotations

from pathlib import Path

import pytest

from deploy import bundle, makebundle
from deploy.wanted import CameraDroppedError, update_requirements

AARCH64 = ["cantstop_box-0.2.0-py3-none-any.whl", "numpy-2.4.6-cp311-cp311-manylinux_2_28_aarch64.whl",
           "opencv_python_headless-5.1.0.95-cp37-abi3-manylinux_2_17_aarch64.whl",
           "opencv_python_headless-4.11.0.86-cp37-abi3-manylinux_2_17_aarch64.whl"]
ARMHF = ["cantstop_box-0.2.0-py3-none-any.whl", "lgpio-0.2.2.0-cp311-cp311-manylinux_2_34_armv7l.whl"]


def settings(tmp_path: Path, source: str | None) -> Path:
    config = tmp_path / "config.toml"
    config.write_text("" if source is None else f'[camera]\nsource = "{source}"\n')
    return config


def test_a_bundle_carries_the_camera_extra():
    assert bundle.EXTRAS.split(",") == ["pi", "web", "camera"]


@pytest.mark.parametrize("source", [None, "off", "webcam"])
def test_an_update_without_a_camera_installs_no_camera(tmp_path, source):
    wanted, line = update_requirements("0.2.0", settings(tmp_path, source), AARCH64, "1.24.2")
    assert wanted == ["cantstop-box[pi,web]==0.2.0"] and line == ""


@pytest.mark.parametrize("source", ["usb", "folder", "scene"])
def test_an_update_with_a_camera_installs_the_camera_extra_and_numpy_from_the_bundle(tmp_path, source):
    wanted, line = update_requirements("0.2.0", settings(tmp_path, source), AARCH64, "1.24.2")
    assert wanted == ["cantstop-box[pi,web,camera]==0.2.0"] and line == ""


def test_an_update_with_the_pi_camera_keeps_the_systems_numpy(tmp_path):
    """picamera2's simplejpeg is built against python3-numpy: pip must take the bundle's OpenCV that runs on it."""
    config = settings(tmp_path, "pi")
    assert update_requirements("0.2.0", config, AARCH64, "1.24.2")[0] == \
        ["cantstop-box[pi,web,camera]==0.2.0", "numpy==1.24.2"]
    # no NumPy in the system (python3-picamera2 missing): nothing to keep
    assert update_requirements("0.2.0", config, AARCH64, None)[0] == ["cantstop-box[pi,web,camera]==0.2.0"]


def test_an_update_with_no_opencv_for_this_machine_leaves_the_camera_out_and_says_so(tmp_path):
    wanted, line = update_requirements("0.2.0", settings(tmp_path, "usb"), ARMHF)
    assert wanted == ["cantstop-box[pi,web]==0.2.0"]
    assert line == 'the camera ([camera] source = "usb") stays without OpenCV: the bundle has none for this machine'


def test_an_update_never_takes_opencv_away_from_a_camera_that_has_it(tmp_path):
    with pytest.raises(CameraDroppedError, match=r'it carries no OpenCV for this machine, and the camera is on '
                                                 r'\(\[camera\] source = "pi" in .*config.toml\)'):
        update_requirements("0.2.0", settings(tmp_path, "pi"), ARMHF, "1.24.2", running_has_opencv=True)


# -- make bundle: both OpenCVs, for every Pi PyPI has them for --------------------------------


class FakeIndex:
    """makebundle.download answered as PyPI would for the camera's wheels: aarch64 has all, armhf none."""

    NEWEST = {"numpy": "2.4.6", "opencv-python-headless": "5.1.0.95"}

    def __init__(self) -> None:
        self.asked: list[tuple[str, str, list[str], bool]] = []

    def __call__(self, arch: str, python: str, requirements: list[str], dest: Path, deps: bool) -> bool:
        self.asked.append((arch, python, list(requirements), deps))
        if arch != "aarch64":
            return False
        dest.mkdir(parents=True, exist_ok=True)
        for req in requirements:
            name = req.split("==")[0].split(">=")[0].split("<")[0]
            version = req.split("==")[1] if "==" in req else self.NEWEST[name]
            if "numpy<2" in requirements:  # the OpenCV that runs on NumPy 1
                version = {"numpy": "1.26.4", "opencv-python-headless": "4.11.0.86"}[name]
            (dest / f"{name.replace('-', '_')}-{version}-cp311-cp311-manylinux_2_28_aarch64.whl").write_bytes(b"w")
        return True


def test_make_bundle_carries_the_newest_opencv_and_the_one_for_numpy_1(tmp_path, monkeypatch):
    index = FakeIndex()
    monkeypatch.setattr(makebundle, "download", index)
    monkeypatch.setattr(makebundle, "requirements",
                        lambda src, own: ["numpy>=1.24", "opencv-python-headless>=4.8.0.74"])
    own = tmp_path / "cantstop_box-0.2.0-py3-none-any.whl"
    own.write_bytes(b"own")
    got, system = makebundle.fetch_wheels(tmp_path, own, tmp_path / "work", ["aarch64", "armhf"], ["3.11", "3.13"])
    names = "\n".join(got["aarch64"])
    assert "opencv_python_headless-5.1.0.95" in names and "opencv_python_headless-4.11.0.86" in names
    assert "numpy-2.4.6" in names and "numpy-1.26.4" not in names  # the Pi camera's NumPy is the system's
    assert got["armhf"] == [own.name]
    assert "opencv_python_headless==4.11.0.86 (Python 3.13)" in system["armhf"]
    assert (("aarch64", "3.11", makebundle.NUMPY_1_OPENCV, True)) in index.asked


def test_the_cap_holds_todays_payload_twice_and_refuses_the_one_that_filled_a_partition():
    """deploy/bundle.py's arithmetic: today's payload, camera's wheels and all (docs/update.md), is under half
    the cap; the 298 KB payload that unpacked to 300 MB (issue 45) is still over it."""
    measured = 121_078_301  # 2026-12-06: every Pi and Python, 398 files
    assert 2 * measured <= bundle.UNPACKED_LIMIT < 300_000_000
    assert 398 * 10 < bundle.MEMBERS_LIMIT
