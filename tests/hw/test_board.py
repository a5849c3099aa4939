"""What a board is (hw/board.py): read from a machine's files, here a fake tree under tmp_path."""

from __future__ import annotations

import dataclasses
import struct

import pytest

from hw.board import PI5_SOC, Board, read_board


def _tree(root, *, compatible: bytes | None = None, chips=(), gpiomem: bool = False, revision: int | None = None):
    """A machine's files under ``root``: its device tree's compatible and revision, its /dev nodes."""
    (root / "dev").mkdir(parents=True, exist_ok=True)
    (root / "proc/device-tree/system").mkdir(parents=True, exist_ok=True)
    if compatible is not None:
        (root / "proc/device-tree/compatible").write_bytes(compatible)
    if revision is not None:
        (root / "proc/device-tree/system/linux,revision").write_bytes(struct.pack(">L", revision))
    for chip in chips:
        (root / "dev" / f"gpiochip{chip}").touch()
    if gpiomem:
        (root / "dev/gpiomem").touch()
    return root


def test_board_read_from_a_pi5s_files(tmp_path):
    root = _tree(tmp_path, compatible=b"raspberrypi,5-model-b\0brcm,bcm2712\0", chips=(0, 4, 10, 11, 12, 13),
                 revision=0xD04170)
    board = read_board(root)
    assert board == Board(compatible=("raspberrypi,5-model-b", "brcm,bcm2712"),
                          gpiochips=tuple(f"{tmp_path}/dev/gpiochip{n}" for n in (0, 4, 10, 11, 12, 13)),
                          gpiomem=False, revision=0xD04170, dev=f"{tmp_path}/dev")
    assert board.soc == PI5_SOC and board.is_pi5 and board.has_gpio
    assert board.chip_path() == f"{tmp_path}/dev/gpiochip4"  # the RP1's, where gpiozero's lgpio factory looks
    assert board.chip_path(0) == f"{tmp_path}/dev/gpiochip0"


def test_board_read_from_a_pi4_on_debians_kernel_has_the_models_revision(tmp_path):
    """The upstream trees give no linux,revision and Debian's arm64 /proc/cpuinfo none: the model's code."""
    root = _tree(tmp_path, compatible=b"raspberrypi,4-model-b\0brcm,bcm2711\0", chips=(0, 1), gpiomem=True)
    (root / "proc/cpuinfo").write_text("processor\t: 0\nBogoMIPS\t: 108.00\n")
    board = read_board(root)
    assert board.soc == "brcm,bcm2711" and not board.is_pi5
    assert board.gpiomem and board.gpiomem_path == f"{tmp_path}/dev/gpiomem"
    assert board.revision == 0xC03111
    assert board.chip_path() == f"{tmp_path}/dev/gpiochip0"


def test_board_read_from_a_pi5_without_its_gpiochip4_opens_gpiochip0(tmp_path):
    board = read_board(_tree(tmp_path, compatible=b"raspberrypi,5-model-b\0brcm,bcm2712\0", chips=(0,)))
    assert board.is_pi5 and board.chip_path() == f"{tmp_path}/dev/gpiochip0"


def test_board_read_from_a_laptop_is_the_empty_board_with_its_dev(tmp_path):
    board = read_board(_tree(tmp_path))
    assert board == dataclasses.replace(Board(), dev=f"{tmp_path}/dev")
    assert board.soc == "" and not board.is_pi5 and not board.has_gpio and not board.gpiomem


def test_board_read_from_nothing_at_all_is_still_a_board(tmp_path):
    board = read_board(tmp_path / "nothing")
    assert board.compatible == () and board.gpiochips == () and board.revision is None


def test_board_soc_is_the_first_broadcom_name_of_the_tree():
    assert Board(compatible=("raspberrypi,3-model-b", "brcm,bcm2837")).soc == "brcm,bcm2837"
    assert Board(compatible=("qemu,virt",)).soc == ""


def test_board_is_a_frozen_value():
    board = Board(gpiochips=("/dev/gpiochip0",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.gpiochips = ()
    assert board == Board(gpiochips=("/dev/gpiochip0",)) and hash(board) == hash(Board(gpiochips=("/dev/gpiochip0",)))


def test_board_read_of_this_machine_names_its_dev():
    assert read_board().dev == "/dev" and read_board().chip_path().startswith("/dev/gpiochip")
