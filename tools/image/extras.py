"""What `make image-check` adds to the guest, at run time and never to the image: an
initramfs appended to the card's own (the kernel unpacks one after the other), whose
init-bottom step copies the check's files into the root's RAM overlay, once the card's
own step has made it (no overlay: nothing is added, and the check fails to reach the guest).

    qemu-ga and its libraries    the QEMU guest agent (from boot-check's root), which drives the guest
    gpio-sim.ko, i2c-sink.ko     boot-check's simulated header and display bus (tools/bootcheck/image.py)
    sim-board                    boot-check's unit that makes the header's 54 lines

The card's i2c-dev is not among them: the card must load it itself.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

from tools.bootcheck import image as bootcheck
from tools.picheck.roots import chroot

LISTED = "the QEMU guest agent and its libraries, gpio-sim.ko and i2c-sink.ko (loaded by path), the sim-board unit"
STEP = """\
#!/bin/sh
# make image-check's step (appended to the card's initramfs for the check only): its
# files into the root's RAM overlay, never into the root partition.
case "$1" in prereqs) echo ""; exit 0 ;; esac
if ! grep -q " ${rootmnt} overlay " /proc/mounts; then
    echo "cantstop-check: the root is not under an overlay: the check adds nothing"
    exit 0
fi
cp -a /cantstop-check/. "${rootmnt}/"
"""
AGENT_UNIT = """\
[Unit]
Description=image-check: QEMU guest agent (added to the RAM overlay by the check, not on the card)
BindsTo=dev-virtio\\x2dports-org.qemu.guest_agent.0.device
After=dev-virtio\\x2dports-org.qemu.guest_agent.0.device

[Service]
ExecStart=/usr/sbin/qemu-ga -m virtio-serial -p /dev/virtio-ports/org.qemu.guest_agent.0

[Install]
WantedBy=multi-user.target
"""
# The two modules are loaded by their paths, not through depmod: a depmod -a of the card's
# whole module tree took over 90 s in the emulator, and sim-board runs before udev's coldplug,
# so the boot and data partitions' devices timed out and the card fell into emergency mode.
EXTRA = "/usr/lib/modules/{version}/extra"
MODULES_DROPIN = """\
[Service]
ExecStartPre=/sbin/insmod {extra}/i2c-sink.ko
"""


def sim_board_script(version: str) -> str:
    """boot-check's sim-board script, its gpio-sim loaded by path (the card's modules.dep does not list it)."""
    line = "modprobe gpio-sim\n"
    assert line in bootcheck.SIM_BOARD_SCRIPT, "boot-check's sim-board script changed: load gpio-sim by path here"
    return bootcheck.SIM_BOARD_SCRIPT.replace(line, f"insmod {EXTRA.format(version=version)}/gpio-sim.ko\n")
SKIP_LIBS = ("libc.so", "ld-linux", "libm.so")  # the card's own, of the same release


def agent_files(check_root: Path) -> list[str]:
    """qemu-ga and the libraries it links, as paths in boot-check's root."""
    out = chroot(check_root, "ldd", "/usr/sbin/qemu-ga", capture_output=True, text=True).stdout
    libs = [line.split("=>")[1].split("(")[0].strip() for line in out.splitlines() if "=>" in line]
    return ["/usr/sbin/qemu-ga"] + [lib for lib in libs if lib and not Path(lib).name.startswith(SKIP_LIBS)]


def order_with_step(order: str) -> str:
    return order.rstrip("\n") + "\n/scripts/init-bottom/cantstop-check \"$@\"\n[ -e /conf/param.conf ] && . /conf/param.conf\n"


def initrd_order(initrd: Path) -> str:
    data = gzip.decompress(initrd.read_bytes())
    done = subprocess.run(["cpio", "-i", "--quiet", "--to-stdout", "scripts/init-bottom/ORDER"], input=data,
                          capture_output=True, check=True)
    return done.stdout.decode()


def build(initrd: Path, kernel_version: str, check_root: Path, modules: Path, work: Path) -> Path:
    """The card's initrd with the check's appended: a new file in ``work``."""
    tree = work / "extras"
    shutil.rmtree(tree, ignore_errors=True)
    payload = tree / "cantstop-check"
    for path in agent_files(check_root):
        # Where it really is (/lib is /usr/lib on a merged /usr): cp -a cannot put a directory over a link.
        source = check_root / path.lstrip("/")
        where = source.parent.resolve().relative_to(check_root.resolve())
        target = payload / where / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source.resolve(), target)
    extra = payload / EXTRA.format(version=kernel_version).lstrip("/")
    extra.mkdir(parents=True)
    for ko in sorted(modules.glob("*.ko")):
        shutil.copyfile(ko, extra / ko.name)
    units = payload / "etc/systemd/system"
    (units / "sim-board.service.d").mkdir(parents=True)
    (units / "sim-board.service").write_text(bootcheck.SIM_BOARD_UNIT)
    (units / "sim-board.service.d/check-modules.conf").write_text(
        MODULES_DROPIN.format(extra=EXTRA.format(version=kernel_version)))
    (units / "image-check-agent.service").write_text(AGENT_UNIT)
    for target, unit in (("sysinit.target", "sim-board.service"), ("multi-user.target", "image-check-agent.service")):
        (units / f"{target}.wants").mkdir(exist_ok=True)
        (units / f"{target}.wants" / unit).symlink_to(f"/etc/systemd/system/{unit}")
    script = payload / "usr/local/sbin/sim-board"
    script.parent.mkdir(parents=True)
    script.write_text(sim_board_script(kernel_version))
    script.chmod(0o755)
    steps = tree / "scripts/init-bottom"
    steps.mkdir(parents=True)
    (steps / "cantstop-check").write_text(STEP)
    (steps / "cantstop-check").chmod(0o755)
    (steps / "ORDER").write_text(order_with_step(initrd_order(initrd)))
    names = subprocess.run(["find", ".", "-mindepth", "1"], cwd=tree, capture_output=True, text=True,
                           check=True).stdout
    archive = subprocess.run(["cpio", "-o", "--quiet", "-H", "newc", "-R", "0:0"], cwd=tree, input=names.encode(),
                             capture_output=True, check=True).stdout
    combined = work / "initrd-with-check.img"
    combined.write_bytes(initrd.read_bytes() + gzip.compress(archive, 6))
    return combined
