"""The board's revision code where Debian's kernel does not give it (hw/boardrev.py): gpiozero refused a Pi
booted on the upstream trees ("unable to locate Pi revision"), so the box never started on the card."""

from __future__ import annotations

import struct

import pytest
from gpiozero import pi_info
from gpiozero.exc import PinUnknownPi
from gpiozero.pins.local import LocalPiFactory

from hw import boardrev
from hw.buttons import knowing_the_revision

MODELS = {"raspberrypi,model-zero-2-w": "Zero2W", "raspberrypi,3-model-b": "3B", "raspberrypi,3-model-b-plus": "3B+",
          "raspberrypi,3-model-a-plus": "3A+", "raspberrypi,4-model-b": "4B", "raspberrypi,400": "400",
          "raspberrypi,4-compute-module": "CM4", "raspberrypi,5-model-b": "5B", "raspberrypi,model-zero-w": "Zero W",
          "raspberrypi,2-model-b": "2B", "raspberrypi,3-compute-module": "CM3"}


@pytest.mark.parametrize("compatible", sorted(boardrev.BY_COMPATIBLE))
def test_each_models_code_is_that_model_in_gpiozeros_own_table(compatible):
    assert pi_info(f"{boardrev.BY_COMPATIBLE[compatible]:x}").model == MODELS[compatible]


def test_the_firmwares_code_comes_first_then_cpuinfos_then_the_trees_model():
    pi4 = b"raspberrypi,4-model-b\0brcm,bcm2711\0"
    assert boardrev.revision_of(struct.pack(">L", 0xD03114), "Revision\t: a02082\n", pi4) == 0xD03114
    assert boardrev.revision_of(None, "Hardware\t: BCM2835\nRevision\t: a02082\n", pi4) == 0xA02082
    assert boardrev.revision_of(None, "processor\t: 0\nBogoMIPS\t: 108.00\n", pi4) == 0xC03111  # Debian arm64
    # A zero (the upstream 32-bit kernels' "Revision : 0000", or an unfilled placeholder) is no code.
    assert boardrev.revision_of(b"\0\0\0\0", "Revision\t: 0000\n", pi4) == 0xC03111
    assert boardrev.revision_of(None, "Revision\t: 1000002\n", None) == 0x0002  # over-volted: gpiozero's rule
    assert boardrev.revision_of(None, None, b"qemu,virt\0") is None  # not a Pi: gpiozero's own error stands


def test_read_revision_reads_the_machines_files_with_a_limit(tmp_path):
    (tmp_path / "proc/device-tree").mkdir(parents=True)
    (tmp_path / "proc/device-tree/compatible").write_bytes(b"raspberrypi,3-model-b\0brcm,bcm2837\0")
    (tmp_path / "proc/cpuinfo").write_text("processor\t: 0\n" * 10)
    assert boardrev.read_revision(tmp_path) == 0xA02082
    assert boardrev.read_revision(tmp_path / "nothing") is None


class _Local(LocalPiFactory):
    """gpiozero's own base of the lgpio and native factories, with nothing to open."""


def test_a_factory_told_the_code_knows_its_board_where_gpiozero_alone_refuses(monkeypatch):
    import gpiozero.pins.local as local

    def not_found():
        raise PinUnknownPi("unable to locate Pi revision in /proc/device-tree or /proc/cpuinfo")

    monkeypatch.setattr(local, "get_pi_revision", not_found)  # Debian's arm64 kernel on a Pi 4
    with pytest.raises(PinUnknownPi):
        _Local().board_info
    told = knowing_the_revision(_Local, boardrev.revision_of(None, None, b"raspberrypi,4-model-b\0"))()
    assert told.board_info.model == "4B" and told.board_info.soc == "BCM2711"
    assert told.board_info.to_gpio(17) == "GPIO17" and told.board_info.to_gpio("J8:11") == "GPIO17"
    assert knowing_the_revision(_Local, None) is _Local
