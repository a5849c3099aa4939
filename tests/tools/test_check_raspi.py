"""The raspi boot rows' pieces (tools/image/check_raspi.py) that run without QEMU: the report appended to
the card's initramfs, the check's command line and its copy of the Pi 4's tree, QEMU's arguments, and the
rows read from a console."""

from __future__ import annotations

import gzip
from pathlib import Path

from tools.bootcheck.parse import Report, table
from tools.image import check_raspi as c
from tools.image import fdt
from tools.image.cardfacts import cpio_files

TODAY = Path(__file__).resolve().parents[1] / "fixtures/card-10db1a9"
CARD_CMDLINE = ("console=ttyS1,115200 console=tty1 root=LABEL=cantstop-root rw fsck.repair=yes net.ifnames=0 "
                "rootwait ro quiet")


def test_the_report_is_appended_after_the_cards_own_initramfs_and_runs_last_in_init_bottom():
    card = gzip.compress(c.newc([("scripts/init-bottom/ORDER", 0o100755, b"/scripts/init-bottom/overlay \"$@\"\n"),
                                 ("init", 0o100755, b"#!/bin/sh\n")]))
    files = cpio_files(c.initrd_with_report(card))
    assert files["init"] == b"#!/bin/sh\n"  # the card's own files are kept
    order = files["scripts/init-bottom/ORDER"].decode().splitlines()
    assert order[0] == '/scripts/init-bottom/overlay "$@"' and "cantstop-check" in order[1]
    assert b"cantstop-box bench --text-only" in files["cantstop-check/usr/local/sbin/cantstop-check-report"]
    link = "cantstop-check/etc/systemd/system/multi-user.target.wants/cantstop-check-report.service"
    assert files[link] == b"/etc/systemd/system/cantstop-check-report.service"


def test_the_check_trades_the_cards_consoles_for_the_models_serial_port_and_keeps_the_rest():
    line = c.check_cmdline(CARD_CMDLINE, c.MODELS["raspi4b"])
    assert line.split()[-2:] == ["earlycon=pl011,mmio32,0xfe201000", "console=ttyAMA0,115200"]
    assert "quiet" not in line.split() and "console=tty1" not in line
    assert "root=LABEL=cantstop-root" in line and "rootwait" in line
    assert c.check_cmdline(CARD_CMDLINE, c.MODELS["raspi3b"]).endswith("console=ttyS1,115200")


def test_the_pi4_tree_copy_disables_what_qemu_lacks_and_moves_the_sd_supplies_to_the_socs_gpio():
    original = (TODAY / "bcm2711-rpi-4-b.dtb").read_bytes()
    data, changes = c.adapt_tree(original, c.MODELS["raspi4b"])
    tree, before = fdt.parse(data), fdt.parse(original)
    assert not tree.find("/soc/interrupt-controller@7ef00100").enabled
    assert not tree.find("/soc/clock@7ef00000").enabled
    soc = tree.compatible_nodes("brcm,bcm2711-gpio")[0].cells("phandle")[0]
    for name, prop, line in (("/sd_vcc_reg", "gpio", 6), ("/sd_io_1v8_reg", "gpios", 4)):
        assert tree.find(name).cells(prop)[:2] == [soc, line]
        assert before.find(name).cells(prop)[0] != soc
        assert any(name in ch and f"line {line}" in ch for ch in changes)
    assert tree.find("/emmc2bus/mmc@7e340000").enabled  # the Pi 4's own SD controller stays
    assert c.adapt_tree((TODAY / "bcm2837-rpi-3-b.dtb").read_bytes(), c.MODELS["raspi3b"])[1] == []


def test_qemu_puts_the_card_on_emmc2_and_the_console_on_the_models_port():
    four = c.qemu_command(c.MODELS["raspi4b"], "/w", "x", True)
    assert "sd-card,drive=card,bus=/generic-sdhci/sd-bus" in four
    serial = [four[i + 1] for i, a in enumerate(four) if a == "-serial"]
    assert serial == ["file:/w/console.log", "null"]
    assert "ssd0303,bus=i2c-bus.1,address=0x3c" in four
    three = c.qemu_command(c.MODELS["raspi3b"], "/w", "x", False)
    assert "file=/w/card.img,if=sd,format=raw" in three and "-trace" not in three
    assert [three[i + 1] for i, a in enumerate(three) if a == "-serial"] == ["null", "file:/w/console.log"]


GOOD = """\
[ 1.0] cantstop-check: up 40.1
[ 2.0] cantstop-check: root /dev/mmcblk1p2 label=cantstop-root root=LABEL=cantstop-root
[ 2.0] cantstop-check: overlay overlay
[ 2.0] cantstop-check: unit active restarts=0
[ 2.0] cantstop-check: status waiting for its display: no display answers at 0x3c on /dev/i2c-1
[ 2.0] cantstop-check: ready_us 45200000
[ 2.0] cantstop-check: machine-id 0123 image=ffff
[ 2.0] cantstop-check: data 68000000000 fs=67000000000
[ 2.0] cantstop-check: clock /dev/mmcblk1p3[/timesync]
[ 2.0] cantstop-check: i2c-1 /dev/i2c-1 node=/sys/firmware/devicetree/base/soc/i2c@7e804000
[ 2.0] cantstop-check: i2c-1 tree 400000
[ 2.0] cantstop-check: clk fe804000.i2c_div/clk_rate 399503
[ 2.0] cantstop-check: spidev /dev/spidev0.0 /dev/spidev0.1
[ 2.0] cantstop-check: done
"""


def test_rows_pass_on_a_good_report_and_name_each_failure():
    report = Report()
    c.rows(report, c.MODELS["raspi4b"], "10.0", GOOD, 90.0, "", False)
    assert report.passed, [(x.name, x.detail) for x in report.checks if not x.passed]
    bad = Report()
    c.rows(bad, c.MODELS["raspi4b"], "10.0", GOOD.replace("tree 400000", "tree 100000")
           .replace("label=cantstop-root ", "label= "), 90.0, "", False)
    failed = {x.name for x in bad.checks if not x.passed}
    assert failed == {"raspi4b (QEMU 10.0): root mounted by its label",
                      "raspi4b (QEMU 10.0): /dev/i2c-1 is the header's bus, at 400 kHz in its tree"}


def test_the_unit_row_needs_the_unit_up_and_waiting_only_when_there_is_no_display():
    def unit_row(text: str, with_display: bool, trace: str = ""):
        report = Report()
        c.rows(report, c.MODELS["raspi4b"], "10.0", text, 90.0, trace, with_display)
        row = next(x for x in report.checks if "the box's unit started" in x.name)
        return row, report
    row, report = unit_row(GOOD, False)
    assert row.passed and "waiting for its display" in row.name
    assert any("to READY" in what for what, _ in report.figures)
    failed = GOOD.replace("unit active restarts=0", "unit failed restarts=5")
    row, report = unit_row(failed, False)  # five restarts and given up: the fault the waiting mends
    assert not row.passed
    assert not any("to READY" in what for what, _ in report.figures)
    row, _ = unit_row(GOOD, True)  # QEMU's display at 0x3c is there: still waiting is a failure
    assert not row.passed and "its display answering" in row.name
    running = GOOD.replace("status waiting for its display: no display answers at 0x3c on /dev/i2c-1", "status ")
    row, _ = unit_row(running, True, "i2c_send bus:1 addr:0x3c\n" * 1024)
    assert row.passed


TIMED_OUT = "[ 102.2] i2c-bcm2835 fe804000.i2c: i2c transfer timed out\n"


def test_raspi4bs_unwired_i2c_interrupt_is_a_row_qemu_cannot_show_only_with_its_signature():
    report = Report()
    c.rows(report, c.MODELS["raspi4b"], "10.0", GOOD + TIMED_OUT, 90.0, "", True, "later")
    assert report.passed, [(x.name, x.detail) for x in report.checks if not x.passed]
    (gap,) = report.gaps
    assert gap.name == "raspi4b (QEMU 10.0): frames reach the display at 0x3c on bus 1"
    assert "GIC" in gap.detail and "0 bytes reached 0x3c" in gap.detail
    unit = next(x for x in report.checks if "unit started" in x.name)
    assert unit.name.endswith("waiting for its display") and unit.passed  # what a box with a silent display does
    assert "| QEMU cannot show |" in "\n".join(table(report, []))
    # Without the kernel's time-outs, no bytes at 0x3c is the box's failure, not QEMU's.
    silent = Report()
    c.rows(silent, c.MODELS["raspi4b"], "10.0", GOOD, 90.0, "", True, "later")
    assert not silent.gaps and not silent.passed
    assert {x.name for x in silent.checks if not x.passed} >= {"raspi4b (QEMU 10.0): frames reach the display at 0x3c on bus 1"}


def test_raspi3b_on_qemu_72_has_no_bsc_so_the_kernels_clock_is_a_gap_and_its_tree_still_counts():
    old = GOOD.replace("clk fe804000.i2c_div/clk_rate 399503", "clk 3f804000.i2c_div/clk_rate 0")
    report = Report()
    c.rows(report, c.MODELS["raspi3b"], "7.2", old, 90.0, "", False, "bookworm")
    assert report.passed, [(x.name, x.detail) for x in report.checks if not x.passed]
    (gap,) = report.gaps
    assert gap.name == "raspi3b (QEMU 7.2): the kernel set the header's bus to 400 kHz" and "no BSC" in gap.detail
    # The same clock on QEMU 10, which has the BSC, is a failure.
    later = Report()
    c.rows(later, c.MODELS["raspi3b"], "10.0", old, 90.0, "", False, "later")
    assert not later.passed and not later.gaps


def test_raspi3b_on_qemu_10_sends_frames_at_the_clock_the_kernel_set():
    three = (GOOD.replace("clk fe804000.i2c_div/clk_rate 399503", "clk 3f804000.i2c_div/clk_rate 400641")
             .replace("status waiting for its display: no display answers at 0x3c on /dev/i2c-1", "status "))
    report = Report()
    c.rows(report, c.MODELS["raspi3b"], "10.0", three, 90.0, "i2c_send bus:1 addr:0x3c\n" * 2048, True, "later")
    assert report.passed and not report.gaps, [(x.name, x.detail) for x in report.checks if not x.passed]
    assert any(what == "raspi3b (QEMU 10.0): power-on (kernel start) to READY" for what, _ in report.figures)


def test_the_runs_are_raspi3b_on_both_qemus_and_raspi4b_on_the_later():
    assert c.RUNS == (("raspi3b", "bookworm"), ("raspi3b", "later"), ("raspi4b", "later"))
    assert set(c.I2C_GAPS) <= set(c.RUNS)


def test_a_boot_that_never_reports_fails_with_the_consoles_last_lines():
    report = Report()
    c.rows(report, c.MODELS["raspi4b"], "10.0", "ALERT!  LABEL=cantstop-root does not exist.  Dropping to a shell!\n",
           1200.0, "", False)
    (row,) = report.checks
    assert not row.passed and "LABEL=cantstop-root does not exist" in row.detail
