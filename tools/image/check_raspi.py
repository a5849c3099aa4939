"""make image-check's boot rows on QEMU's own Raspberry Pi models: the card's own kernel, initramfs,
command line and the board's own .dtb from its boot partition, the card itself as the SD card.

    sudo .venv/bin/python -m tools.image.check_raspi [--image CARD.img.xz] [--model raspi3b|raspi4b]
                                                    [--qemu bookworm|later] [--keep] [--timeout S]

QEMU's raspi models load the kernel themselves (no Pi firmware runs: what the firmware would do to
config.txt is the lint's to check, tools/image/lint.py) on the Pi's own SoC: its SD controllers, its
interrupt and clock controllers, its UARTs and, from QEMU 9.0, its I2C controllers. `-M raspi3b` runs
on bookworm's QEMU (7.2); `-M raspi4b` needs 9.0 or later, taken from trixie's packages in a cached
chroot (:func:`later_qemu`). Neither model has a network or the Pi's virtio, so the guest is not
driven: a unit the check appends to the initramfs (in the RAM overlay only, never on the card) waits
for the box's unit, then says what it sees on the serial console, a line each (``cantstop-check:``),
which the rows read:

    root by its label       /proc/cmdline's root=LABEL=cantstop-root, /media/root-ro that partition
    overlay                 / is the RAM overlay
    the box's unit          started, and waiting for its display (or, with a display, READY)
    frames at the clock     (where the model has the Pi's I2C) frames reached the device at 0x3c on
                            bus 1 (QEMU's i2c_send trace), the kernel's own clock for the bus is the
                            tree's clock-frequency (debugfs's <bus>_div)

The card is a copy grown to 64 GiB (QEMU wants an SD card of a power of two): the first boot's grow
of the data partition goes that far, online. A model that cannot show something says so in a line.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import shutil
import struct
import subprocess
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from tools.picheck.roots import MIRROR, Mounted, chroot, fresh, sh, stamp

from . import fdt, root
from .cardfacts import cpio_files, kernel_names
from .layout import fat_read, partitions, unpack

CARD_SIZE = 64 * 1024 ** 3
TRACE = "i2c_send"
MARK = "cantstop-check:"
LATER_SUITE = "trixie"
LATER_PACKAGES = "qemu-system-arm qemu-system-data"
LATER_RECIPE = f"debootstrap {LATER_SUITE} amd64 minbase; include {LATER_PACKAGES}\n"


@dataclass(frozen=True)
class Model:
    name: str
    dtb: str
    memory: str
    i2c_bus: str  # the header's bus, as debugfs names its clock (<device>_div)
    console: tuple[int, str, str]  # QEMU's serial port (0 the PL011, 1 the mini UART), the tty, earlycon=
    absent: tuple[str, ...] = ()  # compatibles of blocks the model does not emulate (their registers abort)
    sd_bus: str = ""  # the SD controller's bus for the card, where QEMU's default (-drive if=sd) is not it


# What QEMU's raspi4b lacks, beyond what it disables itself (PCIe, RNG, thermal, Ethernet): the HDMI and
# video blocks at 0x7ef00000 (their interrupt controller, DDC buses and clock gates read as an external
# abort, which panics the kernel) and the display pipeline fed by them.
RASPI4B_ABSENT = ("brcm,bcm2711-l2-intc", "brcm,bcm2711-hdmi-i2c", "brcm,brcm2711-dvp", "brcm,bcm2711-hdmi0",
                  "brcm,bcm2711-hdmi1", "brcm,bcm2711-hvs", "brcm,bcm2711-pixelvalve0", "brcm,bcm2711-pixelvalve1",
                  "brcm,bcm2711-pixelvalve2", "brcm,bcm2711-pixelvalve3", "brcm,bcm2711-pixelvalve4",
                  "brcm,bcm2711-vc5", "brcm,bcm2711-vec", "brcm,bcm2711-dsi1", "brcm,bcm2711-avs-monitor")

MODELS = {
    # raspi3b: the PL011 serves Bluetooth in the Pi 3's tree, so the console is the mini UART (ttyS1).
    "raspi3b": Model("raspi3b", "bcm2837-rpi-3-b.dtb", "1G", "3f804000.i2c",
                     (1, "ttyS1", "uart8250,mmio32,0x3f215040")),
    # raspi4b: QEMU puts -drive if=sd behind the GPIO's mux to the Pi 3's controllers (the Pi 4 wires them
    # to Wi-Fi); the Pi 4's SD card is on EMMC2, whose bus is the first generic-sdhci's (QEMU's qtree).
    # QEMU's mini UART interrupt never clears there (the kernel locks up opening it), so the PL011.
    "raspi4b": Model("raspi4b", "bcm2711-rpi-4-b.dtb", "2G", "fe804000.i2c",
                     (0, "ttyAMA0", "pl011,mmio32,0xfe201000"), RASPI4B_ABSENT, "/generic-sdhci/sd-bus"),
}


# The boots, each a model on a QEMU: bookworm's 7.2 boots raspi3b (the issue's own row) but has no BSC;
# trixie's 10.0 has the Pi's I2C controller on both, with an SSD0303 at 0x3c on bus 1 for the frames.
RUNS = (("raspi3b", "bookworm"), ("raspi3b", "later"), ("raspi4b", "later"))
# What QEMU cannot show of the header's I2C, a line each, by (model, QEMU), and when a boot shows it: the
# row is then "QEMU cannot show" with this line, never a pass; any other outcome is the box's failure.
I2C_GAPS = {
    ("raspi3b", "bookworm"): "QEMU 7.2's raspi3b has no BSC (the Pi's I2C controller came to QEMU in 9.0): "
                             "the kernel reads its clock as 0 and no byte can leave it",
    ("raspi4b", "later"): "QEMU's raspi4b wires the BSC's interrupt to the legacy interrupt controller only, "
                          "not to the GIC the Pi 4's tree uses (hw/arm/bcm2838.c), so every transfer times out "
                          "('i2c transfer timed out') and the box waits for its display",
}


def i2c_gap(model: Model, qemu_kind: str, console: str, kernel_hz: str, sent: int) -> str:
    """I2C_GAPS's line for this boot when the boot shows exactly that shortfall, else ""."""
    why = I2C_GAPS.get((model.name, qemu_kind), "")
    if qemu_kind == "bookworm":
        return why if kernel_hz in ("", "0") and sent == 0 else ""
    return why if "i2c transfer timed out" in console and sent == 0 else ""


def check_cmdline(card_cmdline: str, model: Model) -> str:
    """The card's command line with its consoles (the HDMI tty last, quiet) traded for the model's serial
    port: what the card asks of the kernel otherwise, word for word."""
    words = [w for w in card_cmdline.split() if not w.startswith("console=") and w != "quiet"]
    return " ".join([*words, f"earlycon={model.console[2]}", f"console={model.console[1]},115200"])


def adapt_tree(dtb: bytes, model: Model) -> tuple[bytes, list[str]]:
    """The check's copy of the board's tree, as far as QEMU's model needs it changed: the nodes of blocks
    it lacks disabled, and the SD card's supplies switched by the SoC's own GPIO instead of the
    firmware's expander (QEMU's firmware mailbox does not answer the expander's tags, so on the real tree
    both regulators fail with -EIO and the SD controller never probes). Their drivers still probe from
    the initramfs as on the Pi. (tree, one line per change)."""
    tree = fdt.parse(dtb)
    changes = []
    for compatible in model.absent:
        for node in tree.compatible_nodes(compatible):
            node.props["status"] = b"disabled\0"
            changes.append(f"{node.path} disabled")
    expanders = [n for n in tree.compatible_nodes("raspberrypi,firmware-gpio") if "phandle" in n.props]
    socs = [n for n in tree.compatible_nodes("brcm,bcm2711-gpio") + tree.compatible_nodes("brcm,bcm2835-gpio")
            if "phandle" in n.props]
    if expanders and socs:
        expander, soc = expanders[0].cells("phandle")[0], socs[0].cells("phandle")[0]
        for sd in tree.compatible_nodes("brcm,bcm2711-emmc2"):
            for prop in ("vmmc-supply", "vqmmc-supply"):
                supply = tree.by_phandle.get((sd.cells(prop) or [0])[0])
                for gpio in ("gpio", "gpios"):
                    cells = supply.cells(gpio) if supply is not None else []
                    if cells and cells[0] == expander:
                        supply.props[gpio] = struct.pack(f">{len(cells)}I", soc, *cells[1:])
                        changes.append(f"{supply.path} {gpio}: the expander's line {cells[1]} now the SoC's")
    return tree.to_bytes(), changes


REPORT = r"""#!/bin/sh
# make image-check (raspi rows): what the guest sees, on the serial console, a line each.
say() { printf '<3>cantstop-check: %s\n' "$*" > /dev/kmsg; }
say "up $(cut -d' ' -f1 /proc/uptime)"
i=0
while [ $i -lt 240 ]; do
    state=$(systemctl is-active cantstop-box.service)
    [ "$state" = active ] && break
    [ -n "$(systemctl show -p StatusText --value cantstop-box.service)" ] && [ $i -ge 60 ] && break
    i=$((i + 1)); sleep 1
done
src=$(findmnt -no SOURCE /media/root-ro)
say "root $src label=$(blkid -s LABEL -o value "$src") $(tr ' ' '\n' < /proc/cmdline | grep '^root=')"
say "overlay $(findmnt -no FSTYPE /)"
say "unit $(systemctl is-active cantstop-box.service) restarts=$(systemctl show -p NRestarts --value cantstop-box.service)"
say "status $(systemctl show -p StatusText --value cantstop-box.service)"
say "ready_us $(systemctl show -p ActiveEnterTimestampMonotonic --value cantstop-box.service)"
journalctl -b -u cantstop-box.service -o cat --no-pager | tail -n 4 | while read -r line; do say "journal $line"; done
journalctl -b -t cantstop-box -o cat --no-pager | head -n 6 | while read -r line; do say "box $line"; done
say "model $(tr -d '\000' < /proc/device-tree/model)"
say "machine-id $(cat /etc/machine-id) image=$(cat /media/root-ro/etc/machine-id)"
say "data $(lsblk -bno SIZE /dev/disk/by-label/cantstop-data) fs=$(df -B1 --output=size /data | tail -1 | tr -d ' ')"
say "clock $(findmnt -no SOURCE /var/lib/systemd/timesync)"
say "i2c-1 $(ls /dev/i2c-1 2>&1) node=$(readlink -f /sys/bus/i2c/devices/i2c-1/of_node)"
node=$(readlink -f /sys/bus/i2c/devices/i2c-1/of_node)
[ -f "$node/clock-frequency" ] && say "i2c-1 tree $(od -An -tu4 --endian=big "$node/clock-frequency" | tr -d ' ')"
mount -t debugfs none /sys/kernel/debug 2>/dev/null
for f in /sys/kernel/debug/clk/*i2c_div/clk_rate; do [ -f "$f" ] && say "clk ${f#/sys/kernel/debug/clk/} $(cat "$f")"; done
say "spidev $(ls /dev/spidev* 2>&1 | tr '\n' ' ')"
say "gpiochip $(cat /sys/bus/gpio/devices/gpiochip0/../gpio/*/label 2>/dev/null | head -1) $(ls /dev/gpiochip* | tr '\n' ' ')"
say "cmdline $(cat /proc/cmdline)"
if [ -x /opt/cantstop-box/current/venv/bin/cantstop-box ] || command -v cantstop-box >/dev/null; then
    cantstop-box bench --text-only 2>&1 | while read -r line; do say "bench $line"; done
fi
say "done"
"""
UNIT = """\
[Unit]
Description=image-check: what the guest sees, on the serial console (the check's, in the RAM overlay only)
After=cantstop-box.service multi-user.target

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/cantstop-check-report

[Install]
WantedBy=multi-user.target
"""
STEP = """\
#!/bin/sh
# make image-check's step (raspi rows): its report unit into the RAM overlay, never the root partition.
case "$1" in prereqs) echo ""; exit 0 ;; esac
grep -q " ${rootmnt} overlay " /proc/mounts || { echo "cantstop-check: no overlay: nothing added"; exit 0; }
cp -a /cantstop-check/. "${rootmnt}/"
"""


def say(text: str) -> None:
    print(f"image-check: {text}", flush=True)


def newc(entries: list[tuple[str, int, bytes]]) -> bytes:
    """A newc cpio archive of (name, mode, data); the kernel unpacks it after the card's own."""
    out = bytearray()
    for ino, (name, mode, data) in enumerate([*entries, ("TRAILER!!!", 0, b"")], 1):
        fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name.encode()) + 1, 0]
        out += b"070701" + b"".join(b"%08X" % f for f in fields) + name.encode() + b"\0"
        out += b"\0" * (-len(out) % 4) + data
        out += b"\0" * (-len(out) % 4)
    return bytes(out)


def initrd_with_report(initrd: bytes) -> bytes:
    """The card's initramfs with the report unit appended: its step runs last in init-bottom."""
    order = cpio_files(initrd).get("scripts/init-bottom/ORDER", b"").decode()
    order = order.rstrip("\n") + '\n/scripts/init-bottom/cantstop-check "$@"\n[ -e /conf/param.conf ] && . /conf/param.conf\n'
    d, f, x = 0o040755, 0o100644, 0o100755
    entries = [(p, d, b"") for p in ("cantstop-check", "cantstop-check/etc", "cantstop-check/etc/systemd",
                                     "cantstop-check/etc/systemd/system",
                                     "cantstop-check/etc/systemd/system/multi-user.target.wants",
                                     "cantstop-check/usr", "cantstop-check/usr/local", "cantstop-check/usr/local/sbin",
                                     "scripts", "scripts/init-bottom")]
    entries += [("cantstop-check/etc/systemd/system/cantstop-check-report.service", f, UNIT.encode()),
                ("cantstop-check/etc/systemd/system/multi-user.target.wants/cantstop-check-report.service", 0o120777,
                 b"/etc/systemd/system/cantstop-check-report.service"),
                ("cantstop-check/usr/local/sbin/cantstop-check-report", x, REPORT.encode()),
                ("scripts/init-bottom/cantstop-check", x, STEP.encode()),
                ("scripts/init-bottom/ORDER", x, order.encode())]
    return initrd + gzip.compress(newc(entries), 6)


def later_qemu() -> Path:
    """A chroot of trixie with its QEMU (10.0: -M raspi4b came in 9.0), cached in $IMAGE_CACHE."""
    where = root.CACHE / "qemu-later"
    if fresh(where, LATER_RECIPE):
        return where
    building = where.with_name("qemu-later.building")
    root._clear(building)
    say(f"making a {LATER_SUITE} chroot for its QEMU (cached in {where})")
    sh("debootstrap", "--variant=minbase", f"--include={LATER_PACKAGES.replace(' ', ',')}", LATER_SUITE, str(building),
       MIRROR, stdout=subprocess.DEVNULL)
    root._clear(where)
    building.rename(where)
    stamp(where, LATER_RECIPE)
    return where


def qemu_version(qemu_root: Path | None) -> str:
    cmd = ["qemu-system-aarch64", "--version"]
    done = chroot(qemu_root, *cmd, capture_output=True, text=True) if qemu_root else sh(*cmd, capture_output=True, text=True)
    return done.stdout.split("\n")[0].split("version ")[-1].split()[0]


def qemu_command(model: Model, work: str, cmdline: str, with_display: bool) -> list[str]:
    cmd = ["qemu-system-aarch64", "-M", model.name, "-m", model.memory, "-display", "none", "-monitor", "none",
           "-kernel", f"{work}/kernel", "-initrd", f"{work}/initrd", "-dtb", f"{work}/board.dtb",
           "-append", cmdline,
           "-no-reboot"]
    if model.sd_bus:
        cmd += ["-drive", f"file={work}/card.img,if=none,id=card,format=raw",
                "-device", f"sd-card,drive=card,bus={model.sd_bus}"]
    else:
        cmd += ["-drive", f"file={work}/card.img,if=sd,format=raw"]
    ports = ["null", "null"]
    ports[model.console[0]] = f"file:{work}/console.log"
    for port in ports:
        cmd += ["-serial", port]
    if with_display:
        cmd += ["-device", "ssd0303,bus=i2c-bus.1,address=0x3c", "-trace", TRACE, "-D", f"{work}/trace.log"]
    return cmd


def lines(console: str) -> dict[str, list[str]]:
    """The report's lines by their first word (root, overlay, unit, bench...)."""
    out: dict[str, list[str]] = {}
    for line in console.splitlines():
        if MARK in line:
            text = line.split(MARK, 1)[1].strip()
            word, _, rest = text.partition(" ")
            out.setdefault(word, []).append(rest)
    return out


def last_lines(console: str, n: int = 12) -> str:
    return " | ".join(l.strip() for l in console.splitlines()[-n:] if l.strip())


def prepare(xz: Path, model: Model, work: Path) -> tuple[str, list[str]]:
    """The card's copy (grown to CARD_SIZE), its kernel, initramfs (with the report) and the model's own
    tree from its boot partition into ``work``: (the card's command line, the nodes disabled in the tree's
    copy as the model lacks them)."""
    work.mkdir(parents=True, exist_ok=True)
    disk = work / "card.img"
    unpack(xz, disk)
    boot_at = partitions(disk)[0]["start"]
    os.truncate(disk, CARD_SIZE)
    kernel, initrd = kernel_names(fat_read(disk, boot_at, "config.txt").decode())
    (work / "kernel").write_bytes(fat_read(disk, boot_at, kernel))
    (work / "initrd").write_bytes(initrd_with_report(fat_read(disk, boot_at, initrd)))
    tree, disabled = adapt_tree(fat_read(disk, boot_at, model.dtb), model)
    (work / "board.dtb").write_bytes(tree)
    return " ".join(fat_read(disk, boot_at, "cmdline.txt").decode().split()), disabled


def boot(model: Model, work: Path, cmdline: str, qemu_root: Path | None, with_display: bool,
         timeout: float = 1200.0) -> tuple[str, float, str]:
    """Power on, wait for the report's last line (or the time-out, or QEMU's end): (console, seconds, trace)."""
    console = work / "console.log"
    console.unlink(missing_ok=True)
    (work / "trace.log").unlink(missing_ok=True)
    with ExitStack() as stack:
        if qemu_root:  # the later QEMU runs in its chroot, with the work folder bound into it
            inside = qemu_root / "cantstop-work"
            inside.mkdir(exist_ok=True)
            sh("mount", "--bind", str(work), str(inside))
            stack.callback(sh, "umount", "-l", str(inside), check=False)
            stack.enter_context(Mounted(qemu_root))
            argv = ["chroot", str(qemu_root), *qemu_command(model, "/cantstop-work", cmdline, with_display)]
        else:
            argv = qemu_command(model, str(work), cmdline, with_display)
        started = time.monotonic()
        proc = subprocess.Popen(["nice", "-n", "-10", *argv], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=stack.enter_context(open(work / "qemu.err", "w")))
        text = ""
        while time.monotonic() - started < timeout and proc.poll() is None:
            time.sleep(2)
            text = console.read_text(errors="replace") if console.exists() else ""
            if f"{MARK} done" in text:
                break
        took = time.monotonic() - started
        proc.kill()
        proc.wait()
        text = console.read_text(errors="replace") if console.exists() else ""
    trace = (work / "trace.log").read_text(errors="replace") if (work / "trace.log").exists() else ""
    return text, took, trace


def frames_to(trace: str, address: int = 0x3C) -> int:
    """Bytes written to ``address`` on any bus (QEMU's i2c_send trace events)."""
    return len(re.findall(rf"i2c_send .*addr:0x{address:02x}", trace))


def rows(report, model: Model, qemu: str, console: str, took: float, trace: str, with_display: bool,
         qemu_kind: str = "") -> None:
    """The model's rows, from what the guest said on its console."""
    tag = f"{model.name} (QEMU {qemu})"
    said = lines(console)
    if "done" not in said:
        report.add(f"{tag}: boots the card", False, took,
                   f"no report after {took:.0f} s; the console's last lines: {last_lines(console)[-600:]}")
        return
    first = lambda key: (said.get(key) or [""])[0]  # noqa: E731
    root_line = first("root")
    report.add(f"{tag}: root mounted by its label", "label=cantstop-root" in root_line
               and "root=LABEL=cantstop-root" in root_line, took, root_line)
    report.add(f"{tag}: root under the RAM overlay", first("overlay") == "overlay", None, f"/ is {first('overlay')}")
    i2c = first("i2c-1")
    tree_hz = (said.get("i2c-1") or ["", ""])[1].removeprefix("tree ") if len(said.get("i2c-1", [])) > 1 else ""
    clk = next((c for c in said.get("clk", []) if c.startswith(model.i2c_bus)), "")
    kernel_hz = clk.split()[-1] if clk else ""
    sent = frames_to(trace)
    gap = i2c_gap(model, qemu_kind, console, kernel_hz, sent)
    unit, status = first("unit"), first("status")
    journal = " / ".join(said.get("journal", []) + said.get("box", []))[-400:]
    # The unit is up either way (firmware/daemon/displaywait.py): with a display QEMU can reach the box
    # runs, without one it says it waits for it.
    reachable = with_display and not gap
    waiting = status.startswith("waiting for its display")
    started = unit.startswith("active") and waiting != reachable
    report.add(f"{tag}: the box's unit started" + (", its display answering" if reachable else ", waiting for its display"),
               started, None, f"{unit}; status: {status or '-'}; journal: {journal}")
    ids = first("machine-id").split()
    report.add(f"{tag}: a machine-id of its own", len(ids) == 2 and ids[0] != ids[1].removeprefix("image="), None,
               first("machine-id"))
    data = dict(w.split("=", 1) if "=" in w else ("size", w) for w in first("data").split())
    size = int(data.get("size") or 0)
    report.add(f"{tag}: data partition grown online to a 64 GiB card", size > 60 * 1024 ** 3
               and int(data.get("fs") or 0) > size * 0.9, None, f"partition {size >> 30} GiB, /data {int(data.get('fs') or 0) >> 30} GiB")
    report.add(f"{tag}: the clock file on the data partition", re.search(r"/data|cantstop-data|mmcblk\dp3", first("clock")) is not None, None, f"/var/lib/systemd/timesync from {first('clock') or 'nothing'}")
    report.add(f"{tag}: /dev/i2c-1 is the header's bus, at 400 kHz in its tree", "/dev/i2c-1" in i2c
               and "i2c@7e804000" in i2c and tree_hz == "400000", None, f"{i2c}; tree {tree_hz or '?'} Hz")
    # The kernel's clock is the core clock over an even divider: 399503 Hz for 400 kHz on a Pi 4 (within 1%).
    clock_row = f"{tag}: the kernel set the header's bus to 400 kHz"
    if kernel_hz.isdigit() and abs(int(kernel_hz) - 400000) <= 4000:
        report.add(clock_row, True, None, f"the kernel's {model.i2c_bus}_div: {kernel_hz} Hz")
    elif gap and qemu_kind == "bookworm":
        report.cannot_show(clock_row, f"{gap} (the kernel's {model.i2c_bus}_div: {kernel_hz or 'not readable'})")
    else:
        report.add(clock_row, False, None, f"the kernel's {model.i2c_bus}_div: {kernel_hz or 'not readable'} Hz")
    spidev = first("spidev")
    report.add(f"{tag}: SPI0's spidev devices", "/dev/spidev0.0" in spidev and "/dev/spidev0.1" in spidev, None, spidev)
    if with_display:
        frames_row = f"{tag}: frames reach the display at 0x3c on bus 1"
        if gap:
            report.cannot_show(frames_row, f"{gap}; {sent} bytes reached 0x3c")
        else:
            report.add(frames_row, sent >= 1024, None, f"{sent} bytes sent to 0x3c (a 128x64 frame is 1024); "
                       f"the bus's clock as the kernel set it: {kernel_hz or '?'} Hz")
    ready = first("ready_us")
    if started and ready.isdigit() and int(ready):
        report.figure(f"{tag}: power-on (kernel start) to READY" + ("" if reachable else " (waiting for its display)"),
                      int(ready) / 1e6)
    report.figure(f"{tag}: power-on to the report", took)


def run(report, xz: Path, model_name: str, qemu_kind: str, work_root: Path, with_display: bool | None = None,
        label: str = "", timeout: float = 1200.0, keep: bool = False) -> str:
    """One model's boot and rows; the console text (for the closing note's bench report)."""
    model = MODELS[model_name]
    qemu_root = later_qemu() if qemu_kind == "later" else None
    version = qemu_version(qemu_root)
    display = (qemu_kind == "later") if with_display is None else with_display
    work = work_root / f"{model.name}-{qemu_kind}{label}"
    shutil.rmtree(work, ignore_errors=True)
    card_cmdline, changes = prepare(xz, model, work)
    cmdline = check_cmdline(card_cmdline, model)
    say(f"booting the card on QEMU {version}'s {model.name} ({'a display at 0x3c' if display else 'no display'}): {cmdline}")
    for change in changes:
        say(f"{model.name}: QEMU cannot show this as the Pi has it, so the check's copy of the tree has {change}")
    console, took, trace = boot(model, work, cmdline, qemu_root, display, timeout)
    rows(report, model, f"{version}{label}", console, took, trace, display, qemu_kind)
    if not keep:
        (work / "card.img").unlink(missing_ok=True)
    return console


def main(argv: list[str] | None = None) -> int:
    from tools.bootcheck.parse import Report, table
    parser = argparse.ArgumentParser(prog="check_raspi", description=__doc__.split("\n\n")[0])
    parser.add_argument("--image", default=None, help="the .img.xz or .img.zst (default: make image's)")
    parser.add_argument("--model", choices=sorted(MODELS), action="append", help="the model(s) (default: both)")
    parser.add_argument("--qemu", choices=["bookworm", "later"], help="only the boots on this QEMU (default: each of RUNS)")
    parser.add_argument("--keep", action="store_true", help="keep the card's 64 GiB (sparse) copy")
    parser.add_argument("--timeout", type=float, default=1200.0, help="seconds a boot may take to report")
    parser.add_argument("--no-display", action="store_true", help="no display at 0x3c, even where the model has I2C")
    args = parser.parse_args(argv)
    from .build import built_card
    xz = Path(args.image) if args.image else built_card()
    report = Report()
    for name, kind in RUNS:
        if (not args.model or name in args.model) and (not args.qemu or kind == args.qemu):
            run(report, xz, name, kind, root.CACHE / "check-raspi", False if args.no_display else None,
                timeout=args.timeout, keep=args.keep)
    print("\n".join(table(report, [])))
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
