"""make boot-check's own logic (tools/bootcheck/): reading the display's bytes, systemd's
answers and the journal, the device tree it boots with, and the table.

The check itself needs root, qemu and a booted guest: it runs with `make boot-check`, not here.
"""

from __future__ import annotations

import base64
import struct
from pathlib import Path

import pytest

from hw.oled import ssd1306
from hw.oled_model import SSD1306
from tools.bootcheck import image as boot_image
from tools.bootcheck import parse as boot_parse
from tools.bootcheck.guest import exec_reply
from tools.bootcheck.reference import Reference, comparable, rolls

ROOT = Path(__file__).resolve().parents[2]


def record(at_ns: int, payload: bytes) -> bytes:
    return struct.pack("<QH", at_ns, len(payload)) + payload


class SinkSerial:
    """luma's I2C interface as the kernel sees it: one message per transfer, control byte first."""

    def __init__(self) -> None:
        self.blob = b""
        self.now = 0

    def command(self, *cmd: int) -> None:
        self.now += 1000
        self.blob += record(self.now, bytes([0x00, *cmd]))

    def data(self, data) -> None:
        data = bytes(data)
        for start in range(0, len(data), 32):  # luma sends data in pieces
            self.now += 1000
            self.blob += record(self.now, b"\x40" + data[start:start + 32])

    def cleanup(self) -> None:
        pass


def test_boot_check_sink_records_read_back_in_order_and_a_cut_off_one_is_dropped():
    blob = record(5, b"\x00\xae") + record(7_000_000_000, b"\x40" + bytes(range(20)))
    messages = boot_parse.sink_messages(blob + record(9, b"\x40abc")[:-1])
    assert [(m.at_ns, m.payload) for m in messages] == [(5, b"\x00\xae"), (7_000_000_000, b"\x40" + bytes(range(20)))]
    assert boot_parse.first_frame_ns(messages) == 7_000_000_000
    assert boot_parse.first_frame_ns(messages[:1]) is None


def test_boot_check_the_bytes_luma_sends_played_into_the_model_give_the_frame_drawn():
    from PIL import Image, ImageDraw

    serial = SinkSerial()
    device = ssd1306(serial_interface=serial)
    picture = Image.new("1", (128, 64))
    ImageDraw.Draw(picture).text((10, 20), "ROLL 3+4", fill=1)
    ImageDraw.Draw(picture).rectangle((0, 0, 127, 63), outline=1)
    device.display(picture)
    model = SSD1306(64)
    assert boot_parse.play(model, boot_parse.sink_messages(serial.blob)) == []
    assert model.glass().tobytes() == picture.tobytes()


def test_boot_check_an_unknown_control_byte_is_reported_not_played():
    model = SSD1306(64)
    ram = [bytes(page) for page in model.ram]
    problems = boot_parse.play(model, [boot_parse.Message(2_500_000_000, b"\x80\xff")])
    assert problems == ["control byte 0x80 at 2.500 s"]
    assert [bytes(page) for page in model.ram] == ram


def test_boot_check_systemctl_show_and_its_monotonic_timestamps():
    shown = boot_parse.systemctl_show("MainPID=812\nNRestarts=1\nActiveEnterTimestampMonotonic=31250000\n"
                                      "ExecMainStartTimestampMonotonic=0\n")
    assert shown["MainPID"] == "812" and shown["NRestarts"] == "1"
    assert boot_parse.monotonic_s(shown["ActiveEnterTimestampMonotonic"]) == 31.25
    assert boot_parse.monotonic_s(shown["ExecMainStartTimestampMonotonic"]) is None
    assert boot_parse.monotonic_s(shown.get("missing")) is None


def test_boot_check_exposure_level_from_systemd_analyze_security():
    text = "  NAME   DESCRIPTION   EXPOSURE\n✗ PrivateDevices= ...  0.2\n\n→ Overall exposure level for cantstop-box.service: 1.9 OK 🙂\n"
    assert boot_parse.exposure(text) == 1.9
    assert boot_parse.exposure("Unit cantstop-box.service not found.") is None


def test_boot_check_journal_faults_are_tracebacks_and_denials_only():
    journal = "\n".join([
        "cantstop-box: showing the first screen",
        "Traceback (most recent call last):",
        "audit: type=1326 audit(1.2:3): auid=4294967295 uid=999 comm=\"python3\" syscall=160",
        "display: [Errno 1] Operation not permitted",
        "Started cantstop-box.service - Can't Stop table-side box.",
    ])
    assert boot_parse.journal_faults(journal) == journal.splitlines()[1:4]
    assert boot_parse.journal_faults("Started cantstop-box.service\nWatchdog ok") == []
    # systemd's own feature list at boot names seccomp and AppArmor, and denies nothing
    assert boot_parse.journal_faults("systemd 252.39-1~deb12u2 running in system mode (+PAM +AUDIT +SELINUX "
                                     "+APPARMOR +IMA +SMACK +SECCOMP +GCRYPT -GNUTLS)") == []


def test_boot_check_each_button_finds_its_simulated_line_and_a_missing_one_is_named():
    listing = "\n".join(f"/sys/devices/platform/gpio-sim.0/gpiochip0/sim_gpio{n}/pull" for n in range(30))
    paths = boot_parse.sim_pull_paths(listing, {"ROLL": 5, "MENU": 16})
    assert paths == {"ROLL": "/sys/devices/platform/gpio-sim.0/gpiochip0/sim_gpio5/pull",
                     "MENU": "/sys/devices/platform/gpio-sim.0/gpiochip0/sim_gpio16/pull"}
    with pytest.raises(ValueError, match=r"C \(GPIO31\)"):
        boot_parse.sim_pull_paths(listing, {"ROLL": 5, "C": 31})


def test_boot_check_table_lists_every_planned_check_and_marks_those_not_reached():
    report = boot_parse.Report()
    report.add("install", True, 312.4, "exit 0")
    report.add("active at boot", False, 61.0, "failed | exit 69")
    report.figure("power-on to READY=1", 41.26)
    report.figure("unit start to READY=1", None)
    report.figure("bundle for aarch64", "11.5 MB")  # a figure already written out is kept as it is
    lines = boot_parse.table(report, ["install", "active at boot", "watchdog"])
    assert lines[2] == "| install | ok | 312 s | exit 0 |"
    assert lines[3] == "| active at boot | FAIL | 61 s | failed / exit 69 |"
    assert lines[4] == "| watchdog | not reached | - | |"
    assert lines[-3:] == ["| power-on to READY=1 | 41.3 s |", "| unit start to READY=1 | - |",
                          "| bundle for aarch64 | 11.5 MB |"]
    assert not report.passed


def test_boot_check_a_fault_in_the_checks_own_code_is_a_row_and_the_rows_before_it_stay(tmp_path):
    from tools.bootcheck.check import check_fault
    report = boot_parse.Report()
    report.add("install", True, 312.4, "exit 0")
    try:
        f"{'11.5 MB':.1f}"
    except ValueError as err:
        check_fault(report, err, tmp_path)
    lines = boot_parse.table(report, ["install", "watchdog"])
    assert lines[2] == "| install | ok | 312 s | exit 0 |"
    assert lines[3] == "| watchdog | not reached | - | |"
    assert lines[4].startswith("| the check itself | FAIL | - | ValueError: Unknown format code 'f' for object of type "
                               "'str' at test_boot_check.py:")
    assert "Traceback (most recent call last)" in (tmp_path / "check-traceback.txt").read_text()
    assert not report.passed


def test_boot_check_guest_exec_status_is_decoded_and_a_signal_counts_as_its_exit():
    status = {"exited": True, "exitcode": 3, "out-data": base64.b64encode(b"out\n").decode(),
              "err-data": base64.b64encode("é\n".encode()).decode()}
    done = exec_reply(status)
    assert (done.returncode, done.stdout, done.stderr) == (3, "out\n", "é\n")
    assert exec_reply({"exited": True, "signal": 9}).returncode == 137


DTS = """/dts-v1/;

/ {
\tcompatible = "linux,dummy-virt";

\tgpio-keys {
\t\tcompatible = "gpio-keys";
\t};

\tpl061@9030000 {
\t\tphandle = <0x8005>;
\t\tcompatible = "arm,pl061\\0arm,primecell";
\t};
};
"""


def test_boot_check_device_tree_gets_a_pi_revision_and_loses_virts_gpio_chip():
    out = boot_image.patch_tree(DTS, revision=0x902120)
    assert '\tpl061@9030000 {\n\t\tstatus = "disabled";\n' in out
    assert '\tgpio-keys {\n\t\tstatus = "disabled";\n' in out
    assert "\tsystem {\n\t\tlinux,revision = <0x902120>;\n\t};\n};\n" in out
    with pytest.raises(ValueError, match="pl061"):
        boot_image.patch_tree(DTS.replace("pl061@9030000", "uart@1"))


def test_boot_check_the_emulator_given_the_booted_dice_keeps_the_same_game():
    dice = [(1, 2, 3, 4), (6, 6, 5, 5), (2, 2, 3, 3), (1, 1, 1, 2)]
    presses = ["ROLL", "ROLL", "A", "ROLL", "A", "STOP"]
    games = []
    for _ in range(2):
        ref = Reference(ROOT / "firmware/default_config.toml", dice)
        try:
            screens = [ref.screen]
            for button in presses:
                ref.press(button)
                screens.append(ref.screen)
            games.append((ref.export(), [s.tobytes() for s in screens]))
        finally:
            ref.close()
    (first, shown), (second, shown_again) = games
    assert rolls(first) == dice[:len(rolls(first))] and len(rolls(first)) >= 2
    assert comparable(first) == comparable(second) and "id" not in comparable(first)
    assert shown == shown_again and len(set(shown)) > 3  # the presses changed the screen


def test_boot_check_the_emulator_refuses_to_roll_dice_the_booted_box_never_rolled():
    ref = Reference(ROOT / "firmware/default_config.toml", [])
    try:
        with pytest.raises(RuntimeError, match="rolled more often"):
            ref.press("ROLL")
            ref.press("ROLL")
    finally:
        ref.close()


def test_boot_check_each_start_of_the_unit_from_the_journal():
    journal = "\n".join([
        "[  693.985803] cantstop-vm systemd[1]: Starting cantstop-box.service - Can't Stop table-side box...",
        "[  701.155924] cantstop-vm cantstop-box[1078]: cantstop-box: GPIO backend unavailable: ...",
        "[  704.734570] cantstop-vm systemd[1]: Starting cantstop-box.service - Can't Stop table-side box...",
        "[  716.100000] cantstop-vm systemd[1]: Started cantstop-box.service - Can't Stop table-side box.",
    ])
    assert boot_parse.unit_starts(journal) == [693.985803, 704.73457]
    assert boot_parse.unit_starts("-- No entries --") == []


def test_boot_check_installs_qemus_network_rom_and_lists_what_it_installs(tmp_path, monkeypatch, capsys):
    """A fresh machine: every command there but the ROM qemu-system-aarch64 reads for the virt board's
    NIC (ipxe-qemu, only a Recommends of qemu-system-arm): the check installs it, and --packages says so."""
    from tools.bootcheck import check as boot_check

    monkeypatch.setattr(boot_image.shutil, "which", lambda tool: f"/usr/bin/{tool}")
    source = tmp_path / "linux-source-6.1.tar.xz"
    source.touch()
    monkeypatch.setattr(boot_image, "HOST_FILES", {str(source) if pkg == "linux-source-6.1" else
                                                   str(tmp_path / Path(path).name): pkg
                                                   for path, pkg in boot_image.HOST_FILES.items()})
    ran = []
    monkeypatch.setattr(boot_image, "sh", lambda *cmd, **kw: ran.append(cmd))
    assert boot_image.host_packages()["ipxe-qemu"] is False
    boot_image.ensure_host_tools()
    assert ran[-1][:5] == ("apt-get", "install", "-y", "-qq", "--no-install-recommends")
    assert ran[-1][5:] == ("ipxe-qemu",)
    assert "installing ipxe-qemu with apt-get" in capsys.readouterr().out
    assert boot_check.main(["--packages"]) == 0
    listed = dict(line.split("\t") for line in capsys.readouterr().out.splitlines())
    assert listed["ipxe-qemu"] == "missing: installed by the check"
    assert listed["qemu-system-arm"] == "installed" and listed["linux-source-6.1"] == "installed"
    assert set(listed) == set(boot_image.HOST_PACKAGES.values()) | set(boot_image.HOST_FILES.values())
    assert "openssh-client" in listed  # the update rows sign bundles with ssh-keygen


def test_boot_check_i2c_dev_counts_only_when_the_installs_file_loaded_it_at_boot():
    conf = "# The Can't Stop box's display bus\ni2c-dev\n"
    loaded = "Inserted module 'gpio_sim'\nInserted module 'i2c_sink'\nInserted module 'i2c_dev'\n"
    mine = [boot_parse.BUS_MODULE_FILE]
    assert boot_parse.bus_module_at_boot(conf, mine, loaded) == (
        True, "/etc/modules-load.d/cantstop-box.conf names i2c-dev; systemd-modules-load inserted it")
    # the fault of issue 33: nothing of the install's lists it
    ok, detail = boot_parse.bus_module_at_boot("", [], loaded.replace("Inserted module 'i2c_dev'\n", ""))
    assert not ok and detail.startswith("/etc/modules-load.d/cantstop-box.conf missing") and "did not insert" in detail
    # loaded, but by the guest's own list: that would hide the fault
    ok, detail = boot_parse.bus_module_at_boot(conf, [*mine, "/etc/modules-load.d/boot-check.conf"], loaded)
    assert not ok and detail.endswith("also named in /etc/modules-load.d/boot-check.conf")
    assert not boot_parse.bus_module_at_boot("# i2c-dev\nspidev\n", mine, loaded)[0]


def test_boot_check_and_image_check_run_the_booted_rows_in_one_order(monkeypatch):
    from tools.bootcheck import check_steps
    ran = []
    for name in ("check_buttons", "check_watchdog", "check_power_cuts", "check_lamps_out", "check_selftest",
                 "check_updates"):
        monkeypatch.setattr(check_steps, name, lambda *args, name=name: ran.append(name))
    check_steps.check_booted(object(), object())
    assert ran == ["check_buttons", "check_watchdog", "check_power_cuts", "check_lamps_out", "check_selftest",
                   "check_updates"]
    ran.clear()
    check_steps.check_booted(object(), object(), "update")
    assert ran == ["check_updates"]
