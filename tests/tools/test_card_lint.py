"""The card lint (tools/image/lint.py) on today's card as kept in tests/fixtures/card-10db1a9 (the boards'
own trees, cmdline.txt and config.txt of the card built at 10db1a9, and what its kernel serves), and on
that card as the build now makes it: each rule fails on the first for the reason the issue found, and
passes on the second."""

from __future__ import annotations

import copy
import re
import subprocess
from pathlib import Path

import pytest

from tools.image import boards, build, card, dtpatch, fdt, lint
from tools.image.cardfacts import Card, cpio_names, load_fixture, of_aliases

TODAY = Path(__file__).resolve().parents[1] / "fixtures/card-10db1a9"
ALL_BOARDS = [b.name for b in boards.BOARDS]
PI4 = ["4B", "400", "CM4"]


@pytest.fixture(scope="module")
def today() -> Card:
    return load_fixture(TODAY)


def fixed(today: Card) -> Card:
    """Today's card with each of the build's fixes applied as the build applies them."""
    new = copy.deepcopy(today)
    for b in boards.BOARDS:
        new.boot[b.dtb] = dtpatch.patch(fdt.parse(new.boot[b.dtb])).to_bytes()
    new.kernel.initramfs = {m.replace("-", "_") for m in card.INITRAMFS_MODULES} | {"mmc_core", "sdhci"}
    new.boot["cmdline.txt"] = re.sub(rb" cma=\S+", b"", new.boot["cmdline.txt"])
    new.udev_rules = card.SPIDEV_RULE
    new.firmware |= {f.removeprefix("usr/lib/firmware/") for f in card.FIRMWARE_FILES}
    return new


def statuses(results, rule: str) -> dict[str, str]:
    return {name: row[rule].status for name, row in results.items()}


def failing(results, rule: str) -> list[str]:
    return [name for name, row in results.items() if row[rule].status == "FAIL"]


# -- the tree reader -----------------------------------------------------------------------

def test_each_boards_tree_reads_and_writes_back_the_same(today):
    for b in boards.BOARDS:
        tree = fdt.parse(today.boot[b.dtb])
        again = fdt.parse(tree.to_bytes())
        assert [(n.path, n.props) for n in again.root.walk()] == [(n.path, n.props) for n in tree.root.walk()]
        assert again.reserved == tree.reserved and tree.reserved != b"\0" * 16  # the spin table's page kept
        assert tree.model.startswith("Raspberry Pi")


@pytest.mark.parametrize("data, said", [(b"", "shorter"), (b"\0" * 64, "magic"),
                                        (b"\xd0\x0d\xfe\xed" + b"\xff" * 60, "past its end")])
def test_bytes_that_are_not_a_tree_say_so_in_one_line(data, said):
    with pytest.raises(fdt.NotATree, match=said):
        fdt.parse(data)


def test_a_file_far_bigger_than_any_tree_is_refused_before_it_is_read():
    with pytest.raises(fdt.NotATree, match="more than a device tree"):
        fdt.parse(b"\0" * (fdt.MAX_BYTES + 1))


def test_the_kernels_lists_are_read_as_modprobe_reads_them():
    text = "alias of:N*T*Cregulator-gpioC* gpio_regulator\nalias of:N*T*Cregulator-gpio gpio_regulator\nalias pci:v* x\n"
    assert of_aliases(text) == {"regulator-gpio": {"gpio_regulator"}}


def newc(*names: str) -> bytes:
    """A cpio archive in the kernel's newc format, as initramfs-tools writes it."""
    out = b""
    for name in (*names, "TRAILER!!!"):
        data = b"" if name == "TRAILER!!!" else b"module"
        fields = [0, 0o100644, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name) + 1, 0]
        out += b"070701" + b"".join(b"%08X" % f for f in fields) + name.encode() + b"\0"
        out += b"\0" * (-len(out) % 4) + data + b"\0" * (-len(data) % 4)
    return out


def test_an_initramfs_is_listed_across_its_archives_plain_and_gzip():
    import gzip
    assert cpio_names(newc("a/x.ko") + b"\0" * 8 + gzip.compress(newc("b/y.ko", "c"))) == ["a/x.ko", "b/y.ko", "c"]


def test_an_initramfs_with_bytes_that_are_no_archive_says_where():
    with pytest.raises(ValueError, match="neither cpio nor gzip"):
        cpio_names(newc("a") + b"junk")


# -- each rule on today's card -------------------------------------------------------------

def test_todays_card_fails_the_pi_4s_sd_card_for_want_of_its_two_regulators(today):
    results = lint.lint(today)
    assert failing(results, "sd") == PI4
    detail = results["4B"]["sd"].detail
    assert "regulator-gpio (vqmmc-supply of mmc@7e340000): gpio_regulator.ko not in the initramfs" in detail
    assert "regulator-fixed (vmmc-supply of mmc@7e340000): fixed.ko not in the initramfs" in detail
    assert results["Zero 2 W"]["sd"].status == "ok"  # sdhost's bcm2835.ko was there


def test_todays_card_fails_every_board_on_the_cma_of_its_command_line(today):
    results = lint.lint(today)
    assert failing(results, "cmdline") == ALL_BOARDS
    assert "cma=64M" in results["4B"]["cmdline"].detail


def test_todays_card_fails_its_dtparams_which_no_upstream_tree_can_take(today):
    results = lint.lint(today)
    assert failing(results, "config") == ALL_BOARDS
    assert "dtparam=i2c_arm_baudrate=400000: no __overrides__" in results["3B"]["config"].detail


def test_todays_card_runs_the_header_i2c_at_100_khz_with_no_alias(today):
    results = lint.lint(today)
    assert failing(results, "i2c") == ALL_BOARDS
    assert "at 100 kHz, not 400" in results["4B"]["i2c"].detail and "i2c1 is no alias" in results["4B"]["i2c"].detail


def test_todays_card_has_spi0_off_and_nothing_for_spidev(today):
    results = lint.lint(today)
    assert failing(results, "spi") == ALL_BOARDS
    assert results["3B"]["spi"].detail.startswith("disabled; GPIO7-11 not muxed to it; no device at CE0 and CE1")


def test_todays_card_lacks_the_zero_2_w_and_cm4_wifi_settings(today):
    results = lint.lint(today)
    assert failing(results, "wifi") == ["Zero 2 W", "CM4"]
    assert "brcmfmac43430-sdio.raspberrypi,model-zero-2-w.txt" in results["Zero 2 W"]["wifi"].detail
    assert not lint.passed(results)


# -- the card as the build makes it ----------------------------------------------------------

def test_the_card_as_built_now_passes_every_rule_on_every_board_but_a_said_gap(today):
    results = lint.lint(fixed(today))
    assert lint.passed(results), lint.table(results)
    for rule in lint.RULES:
        assert set(statuses(results, rule).values()) <= {"ok", "gap"}
    assert [n for n, row in results.items() if row["wifi"].status == "gap"] == ["Zero 2 W"]
    assert "CYW43436: brcmfmac43430b0-sdio.bin is in no Debian package" in results["Zero 2 W"]["wifi"].detail
    assert "gpio_regulator" in results["4B"]["sd"].detail and "fixed" in results["4B"]["sd"].detail


def test_the_build_puts_the_header_buses_into_each_tree_and_names_them(today):
    tree = dtpatch.patch(fdt.parse(today.boot["bcm2711-rpi-4-b.dtb"]))
    again = fdt.parse(tree.to_bytes())
    i2c, spi = again.find("i2c1"), again.find("spi0")
    assert i2c.path == "/soc/i2c@7e804000" and i2c.cells("clock-frequency") == [400_000] and i2c.enabled
    assert spi.path == "/soc/spi@7e204000" and spi.enabled
    assert again.by_phandle[spi.cells("pinctrl-0")[0]].cells("brcm,pins") == [7, 8, 9, 10, 11]
    assert [c.name for c in spi.children] == ["display@0", "display@1"]
    assert dtpatch.patch(fdt.parse(tree.to_bytes())).to_bytes() == tree.to_bytes()  # twice is once


def test_a_tree_without_the_header_controller_cannot_be_patched(today):
    tree = fdt.parse(today.boot["bcm2837-rpi-3-b.dtb"])
    soc = tree.root.child("soc")
    soc.children = [c for c in soc.children if c.name != dtpatch.SPI0]
    with pytest.raises(dtpatch.CannotPatch, match="no /soc/spi@7e204000"):
        dtpatch.patch(tree)


def test_a_dtoverlay_with_no_file_and_a_dtparam_nothing_takes_fail(today):
    new = fixed(today)
    new.boot["config.txt"] += b"\n[pi4]\ndtoverlay=vc4-kms-v3d\n[all]\ndtparam=audio=on\n"
    results = lint.lint(new)
    assert failing(results, "config") == ALL_BOARDS
    assert "dtoverlay=vc4-kms-v3d: no overlays/vc4-kms-v3d.dtbo" in results["4B"]["config"].detail
    assert "dtoverlay" not in results["3B"]["config"].detail  # [pi4] is not the 3B's
    assert "dtparam=audio=on" in results["3B"]["config"].detail


def test_a_line_under_none_or_another_boards_filter_does_not_apply():
    board = next(b for b in boards.BOARDS if b.name == "Zero 2 W")
    text = "a=1\n[pi4]\nb=2\n[none]\nc=3\n[pi02]\nd=4\n[EDID=X]\ne=5\n[all]\nf=6\n"
    assert [k for k, _ in lint.config_lines(text, board)] == ["a", "d", "e", "f"]


def test_a_disabled_supply_of_the_sd_controller_fails(today):
    new = fixed(today)
    tree = fdt.parse(new.boot["bcm2711-rpi-4-b.dtb"])
    tree.find("/sd_vcc_reg").props["status"] = b"disabled\0"
    new.boot["bcm2711-rpi-4-b.dtb"] = tree.to_bytes()
    result = lint.lint(new)["4B"]["sd"]
    assert result.status == "FAIL" and "sd_vcc_reg (vmmc-supply of mmc@7e340000) is disabled" in result.detail


def test_the_spi_devices_need_the_udev_rule_that_gives_them_to_spidev(today):
    new = fixed(today)
    new.udev_rules = ""
    assert lint.lint(new)["3B"]["spi"].detail == "no udev rule gives its devices to spidev"


def test_a_missing_tree_fails_its_board_in_every_rule(today):
    new = fixed(today)
    del new.boot["bcm2711-rpi-400.dtb"]
    row = lint.lint(new)["400"]
    assert all(row[r].status == "FAIL" for r in lint.RULES[:-1]) and "no bcm2711-rpi-400.dtb" in row["sd"].detail


def test_the_table_has_a_row_a_board_and_a_line_for_each_result_not_ok(today):
    text = lint.table(lint.lint(fixed(today)))
    lines = text.splitlines()
    assert lines[0].split() == ["board", *lint.RULES] and len([l for l in lines[1:8] if l]) == 7
    assert [l for l in lines if l.startswith("Zero 2 W wifi: gap:")]
    assert lint.table(lint.lint(fixed(today)), markdown=True).startswith("| board | tree | sd |")


# -- the build's own steps -----------------------------------------------------------------

def test_the_firmware_hook_runs_as_a_kernel_update_runs_it(tmp_path):
    """Debian's kernel hooks read the maintainer step from DEB_MAINT_PARAMS and do nothing without it
    (the kernel handbook's "Kernel hooks"): a hook that keeps that contract writes only when run so."""
    hook = tmp_path / "hook"
    hook.write_text(f'#!/bin/sh\nversion=$1\neval set -- "$DEB_MAINT_PARAMS"\n'
                    f'case "$1" in configure) ;; *) exit 0 ;; esac\necho "$version ran" > {tmp_path}/out\n')
    hook.chmod(0o755)
    argv = [str(hook), *build.firmware_hook("6.1.0-50-arm64")[1:]]
    subprocess.run(argv, env={"PATH": "/usr/bin:/bin", **build.FIRMWARE_HOOK_ENV}, check=True)
    assert (tmp_path / "out").read_text() == "6.1.0-50-arm64 ran\n"


def descriptor_reach(img: Path) -> int:
    """How big (bytes) an ext4 can grow online: its group descriptor blocks, reserved ones included,
    times the groups a block of descriptors describes, times a group's size."""
    head = subprocess.run(["dumpe2fs", "-h", str(img)], capture_output=True, text=True, check=True).stdout
    field = {k.strip(): v.strip() for k, _, v in (l.partition(":") for l in head.splitlines())}
    block, per_group = int(field["Block size"]), int(field["Blocks per group"])
    groups = -(-int(field["Block count"]) // per_group)
    desc = int(field.get("Group descriptor size", "32"))
    gdt_blocks = -(-groups * desc // block) + int(field.get("Reserved GDT blocks", "0"))
    return gdt_blocks * (block // desc) * per_group * block


def test_the_data_partition_can_grow_online_to_the_biggest_card_an_mbr_table_holds(tmp_path):
    img = tmp_path / "data.img"
    (tmp_path / "tree").mkdir()
    subprocess.run(["mkfs.ext4", *build.mkfs_args("data", "cantstop-data", 10), "-d", str(tmp_path / "tree"),
                    str(img), "200M"], check=True, capture_output=True)
    assert descriptor_reach(img) >= 2 ** 32 * 512  # 2 TiB: past it an MBR partition cannot go
    # what mke2fs made of the same partition by itself (1 KiB blocks): its reserve ends well short of 64 GB
    plain = tmp_path / "plain.img"
    subprocess.run(["mkfs.ext4", "-q", "-F", str(plain), "200M"], check=True, capture_output=True)
    assert descriptor_reach(plain) < 64 * 10 ** 9
