"""[camera]: off by default, each key checked in one line, and no seat's colour the runners' own."""

from __future__ import annotations

import pytest

from firmware import config


def _load(tmp_path, text):
    f = tmp_path / "c.toml"
    f.write_text(text)
    return config.load(f)


def test_config_camera_is_off_by_default(tmp_path):
    cam = _load(tmp_path, "").camera
    assert cam == config.CameraConfig() and not cam.on and cam.runner == "white"


def test_config_camera_takes_a_webcam(tmp_path):
    cam = _load(tmp_path, '[camera]\nsource = "usb"\ndevice = "/dev/video2"\npiece_mm = 20\n').camera
    assert cam.on and (cam.source, cam.device, cam.piece_mm) == ("usb", "/dev/video2", 20)


@pytest.mark.parametrize("text, said", [
    ('[camera]\nsource = "kinect"\n', '[camera] source = "kinect": must be one of'),
    ('[camera]\nsource = "folder"\n', 'needs folder = "..."'),
    ('[camera]\npiece_mm = 2\n', "[camera] piece_mm = 2: must be from 5 to 60 mm"),
    ('[camera]\nrunner = "grey"\n', '[camera] runner = "grey": must be one of'),
    ('[camera]\nsource = "usb"\n[game]\ncolours = ["Red", "Blue", "White", "Green"]\n',
     "is also a seat's colour in [game] colours (White)"),
])
def test_config_camera_refuses_in_one_line(tmp_path, text, said):
    with pytest.raises(config.ConfigError) as err:
        _load(tmp_path, text)
    assert said in str(err.value) and "\n" not in str(err.value)


def test_config_camera_off_lets_a_white_seat_be(tmp_path):
    cfg = _load(tmp_path, '[game]\ncolours = ["Red", "Blue", "White", "Green"]\n')
    assert not cfg.camera.on
