"""cantstop-box bench: the owner's report, read from a fake board's tree, and its hardware on mock pins."""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path

import pytest

from boxcli import bench, boardfacts, cli
from boxcli.boardfacts import Sysfs, text_lines
from firmware.screens import LAYOUTS, render, render_checked, render_pages
from hw.display import open_dummy
from hw.errors import ButtonError, DisplayError
from hw.fakes import FakeDisplay
from tests.kit.rig import mock_pins

I2C = "sys/devices/platform/soc/fe804000.i2c/i2c-1"
WIFI = "sys/devices/platform/soc/fe300000.mmcnr/mmc_host/mmc1/mmc1:0001/mmc1:0001:1"
OVERLAY_MOUNTS = (
    "21 1 0:27 / / rw,relatime shared:1 - overlay cantstop-root rw,lowerdir=/media/root-ro,upperdir=/media/root-rw/upper\n"
    "22 21 179:2 / /media/root-ro ro,relatime shared:2 - ext4 /dev/mmcblk0p2 ro\n"
    "23 21 0:26 / /media/root-rw rw,relatime shared:3 - tmpfs cantstop-rw rw,size=950000k\n"
    "30 21 0:8 / /sys/kernel/debug rw,nosuid,nodev - debugfs debugfs rw\n"
)
KMSG = (
    "6,1,100,-;Booting Linux on physical CPU 0x0\n"
    "6,402,5100,-;brcmfmac: F1 signature read @0x18000000=0x15264345\n"
    " SUBSYSTEM=sdio\n"
    "6,403,5200,-;brcmfmac: brcmf_fw_alloc_request: using brcm/brcmfmac43455-sdio for chip BCM4345/6\n"
    "4,404,5300,-;brcmfmac: brcmf_c_process_clm_blob: no clm_blob available (err=-2), device may have limited channels\n"
    "6,405,5400,-;brcmfmac: brcmf_c_preinit_dcmds: Firmware: BCM4345/6 wl0: Jan  4 2021 19:56:29 version 7.45.229\n"
    "6,406,5500,-;usb 1-1: new high-speed USB device\n"
)


def put(root: Path, name: str, content: str | bytes = "") -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)


def link(root: Path, name: str, target: str) -> None:
    """A relative link at ``name`` to ``target`` (both under ``root``), as sysfs makes them."""
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    (root / target).mkdir(parents=True, exist_ok=True)
    path.symlink_to(os.path.relpath(root / target, path.parent))


def pi_tree(root: Path) -> Path:
    """A Pi 4 as the report sees it: the card's overlay root, I2C at 400 kHz, one SPI device, two GPIO chips, Wi-Fi."""
    dt = "sys/firmware/devicetree/base"
    put(root, f"{dt}/model", b"Raspberry Pi 4 Model B Rev 1.4\0")
    put(root, f"{dt}/compatible", b"raspberrypi,4-model-b\0brcm,bcm2711\0")
    link(root, "proc/device-tree", dt)
    put(root, "proc/sys/kernel/osrelease", "6.6.51+rpt-rpi-v8\n")
    put(root, "proc/self/mountinfo", OVERLAY_MOUNTS)
    put(root, f"{dt}/soc/i2c@7e804000/clock-frequency", b"\x00\x06\x1a\x80")
    put(root, f"{I2C}/name", "bcm2835 (i2c@7e804000)\n")
    link(root, f"{I2C}/of_node", f"{dt}/soc/i2c@7e804000")
    link(root, "sys/class/i2c-adapter/i2c-1", I2C)
    put(root, "sys/kernel/debug/clk/fe804000.i2c_div/clk_rate", "399361\n")
    for dev in ("i2c-1", "spidev0.0", "gpiochip0", "gpiochip1", "gpiochip10"):
        put(root, f"dev/{dev}")
    put(root, "sys/bus/gpio/devices/gpiochip0/gpio/gpiochip512/label", "pinctrl-bcm2711\n")
    put(root, "sys/bus/gpio/devices/gpiochip0/gpio/gpiochip512/ngpio", "58\n")
    put(root, "sys/class/gpio/gpiochip570/label", "raspberrypi-exp-gpio\n")
    put(root, "sys/class/gpio/gpiochip570/ngpio", "8\n")
    link(root, "sys/class/gpio/gpiochip570/device", "sys/bus/gpio/devices/gpiochip1")
    put(root, f"{WIFI}/vendor", "0x02d0\n")
    put(root, f"{WIFI}/device", "0x4345\n")
    link(root, f"{WIFI}/driver", "sys/bus/sdio/drivers/brcmfmac")
    link(root, f"{WIFI}/subsystem", "sys/bus/sdio")
    link(root, "sys/class/net/wlan0/device", WIFI)
    put(root, "dev/kmsg", KMSG)
    return root


PI_LINES = [
    "board: Raspberry Pi 4 Model B Rev 1.4",
    "compatible: raspberrypi,4-model-b brcm,bcm2711",
    "kernel: 6.6.51+rpt-rpi-v8",
    "root: cantstop-root (overlay, rw)",
    "root-ro: /dev/mmcblk0p2 (ext4, ro)",
    "root overlay: yes (writes go to tmpfs at /media/root-rw)",
    "i2c: /dev/i2c-1 present",
    "i2c adapter: bcm2835 (i2c@7e804000)",
    "i2c node: /soc/i2c@7e804000",
    "i2c clock-frequency: 400000 Hz (device tree)",
    "i2c clock: 399361 Hz (the kernel's fe804000.i2c_div)",
    "spi0.0: /dev/spidev0.0 present",
    "spi0.1: /dev/spidev0.1 missing",
    "gpiochip0: pinctrl-bcm2711, 58 lines",
    "gpiochip1: raspberrypi-exp-gpio, 8 lines",
    "gpiochip10: label unknown (no sysfs entry, and the chip does not say)",
    "wifi: wlan0",
    "wifi driver: brcmfmac",
    "wifi chip: 0x02d0:0x4345 (sdio)",
    # the firmware lines first, three at most, in the log's order
    "wifi log: brcmfmac: F1 signature read @0x18000000=0x15264345",
    "wifi log: brcmfmac: brcmf_fw_alloc_request: using brcm/brcmfmac43455-sdio for chip BCM4345/6",
    "wifi log: brcmfmac: brcmf_c_preinit_dcmds: Firmware: BCM4345/6 wl0: Jan  4 2021 19:56:29 version 7.45.229",
]


def test_bench_reads_every_fact_of_a_pi_from_its_tree(tmp_path):
    assert text_lines(Sysfs(pi_tree(tmp_path))) == PI_LINES


def test_bench_on_an_empty_tree_says_what_is_missing_line_by_line(tmp_path):
    assert text_lines(Sysfs(tmp_path)) == [
        "board: unknown (no /proc/device-tree/model nor /sys/firmware/devicetree/base/model: not a device-tree board)",
        "compatible: unknown",
        "kernel: unknown",
        "root: unknown (neither /proc/self/mountinfo nor /proc/mounts could be read)",
        "i2c: /dev/i2c-1 missing (is I2C on? dtparam=i2c_arm=on in config.txt, and the i2c-dev module)",
        "i2c adapter: none (/sys/class/i2c-adapter/i2c-1 missing)",
        "spi0.0: /dev/spidev0.0 missing",
        "spi0.1: /dev/spidev0.1 missing",
        "gpio: no /dev/gpiochip* (no GPIO on this machine, or its driver is not loaded)",
        "wifi: none (no /sys/class/net/wlan0, no wireless interface)",
        "wifi log: kernel log not readable (/dev/kmsg: No such file or directory; no journalctl)",
    ]


def test_bench_names_the_configured_bus_and_a_plain_root_from_proc_mounts(tmp_path):
    """No mountinfo: /proc/mounts; the bus is [display] port's; a bus whose node sets no clock runs at 100 kHz."""
    put(tmp_path, "proc/mounts", "/dev/mmcblk0p2 / ext4 rw,noatime 0 0\nproc /proc proc rw 0 0\n")
    bus = "sys/devices/platform/soc/fe205000.i2c/i2c-3"
    put(tmp_path, f"{bus}/name", "bcm2835 (i2c@7e205600)\n")
    link(tmp_path, f"{bus}/device/of_node", "sys/firmware/devicetree/base/soc/i2c@7e205600")
    link(tmp_path, "sys/class/i2c-adapter/i2c-3", bus)
    put(tmp_path, "dev/i2c-3")
    lines = text_lines(Sysfs(tmp_path), port=3, log=lambda fs: [])
    assert lines[3:11] == [
        "root: /dev/mmcblk0p2 (ext4, rw)",
        "root-ro: none (/media/root-ro not mounted)",
        "root overlay: no (/ is ext4: writes go to /dev/mmcblk0p2)",
        "i2c: /dev/i2c-3 present",
        "i2c adapter: bcm2835 (i2c@7e205600)",
        "i2c node: /soc/i2c@7e205600",
        "i2c clock-frequency: not in the device tree (i2c-bcm2835 then runs at 100000 Hz;"
        " /sys/firmware/devicetree/base/soc/i2c@7e205600/clock-frequency missing)",
        "i2c clock: not readable (debugfs is not mounted: sudo mount -t debugfs none /sys/kernel/debug)",
    ]
    assert lines[-1] == "wifi log: no brcmfmac line in the kernel log"


def test_bench_kernel_clock_missing_under_a_mounted_debugfs_and_an_odd_clock_frequency(tmp_path):
    pi_tree(tmp_path)
    (tmp_path / "sys/kernel/debug/clk/fe804000.i2c_div/clk_rate").unlink()
    put(tmp_path, "sys/firmware/devicetree/base/soc/i2c@7e804000/clock-frequency", b"\x00\x06\x1a")
    lines = text_lines(Sysfs(tmp_path))
    assert "i2c clock-frequency: unknown (/sys/firmware/devicetree/base/soc/i2c@7e804000/clock-frequency" \
           " holds 3 bytes, not 4)" in lines
    assert ("i2c clock: not readable (/sys/kernel/debug/clk/fe804000.i2c_div/clk_rate: No such file or directory;"
            " not the Pi's i2c-bcm2835?)") in lines


def test_bench_a_probe_that_breaks_is_one_line_and_the_report_goes_on(tmp_path, monkeypatch):
    def broken(fs, port, table):
        raise ValueError("a tree nobody foresaw")

    monkeypatch.setattr(boardfacts, "i2c_lines", broken)
    lines = text_lines(Sysfs(pi_tree(tmp_path)))
    assert lines == PI_LINES[:6] + ["i2c: probe failed: ValueError: a tree nobody foresaw"] + PI_LINES[11:]


def test_bench_wifi_without_an_interface_still_says_what_the_driver_logged(tmp_path):
    put(tmp_path, "dev/kmsg", "3,9,900,-;brcmfmac: brcmf_sdio_htclk: HT Avail timeout (1000000): clkctl 0x50\n")
    assert boardfacts.wifi_lines(Sysfs(tmp_path)) == [
        "wifi: none (no /sys/class/net/wlan0, no wireless interface)",
        "wifi log: brcmfmac: brcmf_sdio_htclk: HT Avail timeout (1000000): clkctl 0x50",
    ]


def test_bench_text_report_on_this_machine_is_made_and_exits_0(capsys):
    assert cli.main(["bench", "--text-only"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("config: ") and f"kernel: {platform.release()}" in out
    assert all(": " in line for line in out) and out[-1].startswith("hardware: not probed (--text-only")
    assert not any(line.startswith(("display:", "press to glass:")) for line in out)


def test_bench_a_config_error_is_said_and_the_report_made_with_the_defaults(capsys, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[display]\nport = 'one'\n")
    assert cli.main(["bench", "--text-only", "--config", str(config)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"config: error, the defaults used: {config}: [display] port")
    assert any(line.startswith("i2c: /dev/i2c-1 ") for line in out)


# -- press to glass ---------------------------------------------------------------


class SlowDisplay(FakeDisplay):
    """A display whose every frame takes ``seconds`` to write, as a slow bus would."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    def show(self, image) -> None:
        time.sleep(self.seconds)
        super().show(image)


def test_bench_press_to_glass_times_each_press_to_its_frame_on_the_dummy_display():
    display = open_dummy()
    times = bench.press_to_glass(display, presses=20)
    assert len(times) == 20 and all(0 < t < 5 for t in times)
    assert display.device.image.getbbox() is not None  # the game's frames reached the glass
    slow = SlowDisplay(0.004)
    slow_times = bench.press_to_glass(slow, presses=5)
    assert len(slow_times) == 5 and min(slow_times) >= 0.004  # the frame's write is inside the time
    assert len(slow.frames) >= 6  # the new-game screen, then a frame for each press timed


def test_bench_press_to_glass_on_a_display_that_stops_answering_raises_one_line():
    display = FakeDisplay()
    display.fail = "the SSD1306 display on I2C bus 1 at address 0x3C stopped answering (Remote I/O error)"
    with pytest.raises(DisplayError, match="stopped answering"):
        bench.press_to_glass(display, presses=3)


def test_bench_glass_line_gives_median_and_worst():
    assert bench.glass_line([0.004, 0.010, 0.006]) == "press to glass: median 6.0 ms, worst 10.0 ms (3 presses)"
    assert bench.glass_line([]) == "press to glass: no press changed the screen"


@pytest.mark.parametrize("size", list(LAYOUTS), ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("times, hz", [([0.0041, 0.0169], 400_000), ([0.150, 0.999], 100_000), (None, None), ([], None)])
def test_bench_summary_on_the_screen_is_one_page_with_nothing_cut(size, times, hz):
    view = bench.summary_view(times, hz)
    assert len(render_pages(view, size)) == 1 and render_checked(view, size).cuts == ()


# -- the hardware, on mock pins -----------------------------------------------------


@pytest.fixture
def pins(monkeypatch):
    factory = mock_pins(pwm=True)
    monkeypatch.setattr("hw.buttons.real_pin_factory", lambda: factory)
    yield factory
    factory.reset()


def hardware(cfg_text: str, tmp_path) -> list[str]:
    from firmware.config import load

    config = tmp_path / "config.toml"
    config.write_text(cfg_text)
    lines: list[str] = []
    bench.hardware_lines(load(config), lines.append, presses=3)
    return lines


def test_bench_finds_display_lamps_and_buzzer_and_leaves_the_summary_on_the_screen(pins, monkeypatch, tmp_path):
    display = open_dummy()
    device = display.device  # closing the display lets go of it
    monkeypatch.setattr("hw.display.open_oled", lambda driver, **options: display)
    monkeypatch.setattr("hw.display.i2c_clock_hz", lambda port, sys_dir=None: 400_000 if port == 1 else None)
    monkeypatch.setattr(bench, "press_to_glass", lambda shown, presses: [0.004, 0.012, 0.006])
    lines = hardware("[lights]\nroll = 17\nstop = 27\n[sound]\npin = 18\n", tmp_path)
    assert lines == [
        "buttons: pins free: ROLL GPIO5 STOP GPIO6 A GPIO13 B GPIO19 C GPIO26 MENU GPIO16",
        "display: found: SSD1306 over I2C",
        "lamps: found: ROLL GPIO17 STOP GPIO27",
        "buzzer: found: buzzer GPIO18",
        "press to glass: median 6.0 ms, worst 12.0 ms (3 presses)",
    ]
    summary = render(bench.summary_view([0.004, 0.012, 0.006], 400_000), (128, 64))
    assert device.image.tobytes() == summary.tobytes() and device.persist
    assert all(pins.pin(p).state == 0 for p in (17, 27))  # claimed, and let go


def test_bench_measures_press_to_glass_on_the_display_it_opened(pins, monkeypatch, tmp_path):
    monkeypatch.setattr("hw.display.open_oled", lambda driver, **options: open_dummy())
    lines = hardware("", tmp_path)
    assert lines[2:4] == ["lamps: none configured ([lights])", "buzzer: none configured ([sound] pin)"]
    assert lines[4].startswith("press to glass: median ") and lines[4].endswith(" ms (3 presses)")


def test_bench_pins_in_use_say_so_and_leave_the_running_box_s_display_alone(pins, monkeypatch, tmp_path):
    def busy(*args, **kwargs):
        raise ButtonError("GPIO5 (ROLL) is already in use by another program")

    def never(driver, **options):
        raise AssertionError("the display was opened beside the running box")

    monkeypatch.setattr("hw.buttons.GpioButtons", busy)
    monkeypatch.setattr("hw.display.open_oled", never)
    lines = hardware("", tmp_path)
    assert lines == [
        "buttons: FAILED: GPIO5 (ROLL) is already in use by another program" + bench.BUSY_HINT,
        "display: not opened: the buttons' pins are in use, the box is likely running" + bench.BUSY_HINT,
        "lamps: none configured ([lights])",
        "buzzer: none configured ([sound] pin)",
        "press to glass: no display",
    ]


def test_bench_without_gpio_or_display_each_part_says_why(monkeypatch, tmp_path):
    def no_gpio():
        raise ButtonError("GPIO backend unavailable: this machine has no GPIO (try 'cantstop-box emulate')")

    def nothing_answers(driver, **options):
        raise DisplayError("no SSD1306 display answers on I2C bus 1 at address 0x3C (Remote I/O error)")

    monkeypatch.setattr("hw.buttons.real_pin_factory", no_gpio)
    monkeypatch.setattr("hw.display.open_oled", nothing_answers)
    assert hardware("[lights]\nroll = 17\n", tmp_path) == [
        "gpio backend: FAILED: GPIO backend unavailable: this machine has no GPIO (try 'cantstop-box emulate')",
        "display: NOT FOUND: no SSD1306 display answers on I2C bus 1 at address 0x3C (Remote I/O error)",
        "lamps: not probed (no GPIO backend)",
        "buzzer: none configured ([sound] pin)",
        "press to glass: no display",
    ]


def test_bench_command_with_the_hardware_exits_0_and_shows_the_summary(capsys, pins, monkeypatch):
    display = open_dummy()
    device = display.device
    monkeypatch.setattr("hw.display.open_oled", lambda driver, **options: display)
    assert cli.main(["bench", "--presses", "2"]) == 0
    out = capsys.readouterr().out
    assert "\ndisplay: found: SSD1306 over I2C\n" in out and "ms (2 presses)\n" in out
    assert device.image.getbbox() is not None and device.persist and display.device is None  # kept, closed
