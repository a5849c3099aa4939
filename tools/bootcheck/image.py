"""What `make boot-check` boots, built from Debian's packages and cached: the root
file system (with Debian's arm64 kernel and an initramfs), two out-of-tree
kernel modules, the device tree, and the disk image.

Everything lands in $BOOT_CHECK_CACHE (default /var/cache/cantstop-boot-check);
each piece is rebuilt only when its recipe (written beside it) changed:

    root/            debootstrap bookworm arm64 + systemd, udev, qemu-guest-agent,
                     linux-image-arm64 and an initramfs of a listed few modules
    headers/         linux-headers-<ver>-arm64 (and -common, linux-kbuild) unpacked
                     with dpkg -x, for building modules on this (x86) machine
    modules/         gpio-sim.ko (drivers/gpio/gpio-sim.c with kernel/irq/irq_sim.c
                     linked in, from linux-source-6.1) and i2c-sink.ko (ours: an
                     I2C adapter whose device at 0x3c takes plain writes and keeps them)
    board.dtb        qemu's own virt tree with a Pi board revision and its PL061 off
    disk.raw         the root as an ext4 image (each run boots a copy-on-write overlay)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from tools.picheck.roots import MIRROR, Mounted, chroot, fresh, sh, stamp, trust_host_cas
from tools.picheck.roots import kernel_version as roots_kernel_version

CACHE = Path(os.environ.get("BOOT_CHECK_CACHE", "/var/cache/cantstop-boot-check"))
HERE = Path(__file__).resolve().parent
SUITE = "bookworm"
# A plain Debian with what booting and driving it needs; python3-venv is left out
# on purpose (install.sh adds it), and so are the gpio/i2c groups.
PACKAGES = ["systemd", "systemd-sysv", "udev", "kmod", "dbus", "qemu-guest-agent", "sudo", "python3",
            "ca-certificates", "iproute2", "procps"]
# Only what mounting the root needs goes into the initramfs (MODULES=most did not
# finish under qemu-user in 5 minutes).
INITRAMFS_MODULES = ["virtio_mmio", "virtio_pci", "virtio_blk", "virtio_net", "ext4", "crc32c_generic"]
# A Raspberry Pi Zero 2 W (gpiozero reads it from /proc/device-tree/system/linux,revision).
BOARD_REVISION = 0x902120
SIM_LINES = 54  # as many as a BCM2837 has: the box's pins are BCM numbers
MEMORY_MB = 1024
CPUS = 2
ROOT_RECIPE = (f"debootstrap {SUITE} arm64 minbase; include {','.join(PACKAGES)}; "
               f"initramfs MODULES=list {','.join(INITRAMFS_MODULES)}; linux-image-arm64; user pi (sudo); "
               "networkd dhcp; modules-load gpio-sim i2c-sink; sim board unit v2\n")


def say(text: str) -> None:
    print(f"boot-check: {text}", flush=True)


# -- the host's tools --------------------------------------------------------------

HOST_PACKAGES = {
    "debootstrap": "debootstrap", "qemu-aarch64-static": "qemu-user-static",
    "qemu-system-aarch64": "qemu-system-arm", "qemu-img": "qemu-utils", "dtc": "device-tree-compiler",
    "aarch64-linux-gnu-gcc": "gcc-aarch64-linux-gnu", "mkfs.ext4": "e2fsprogs", "make": "make", "xz": "xz-utils",
    "ssh-keygen": "openssh-client",  # the update rows' release keys and signed bundles (deploy/signing.py)
}
# Files a package puts there that no command names. qemu-system-aarch64 reads the virt
# board's network ROM from ipxe-qemu, which qemu-system-arm only recommends (and
# --no-install-recommends leaves out): without it qemu stops at "failed to find romfile".
HOST_FILES = {"/usr/src/linux-source-6.1.tar.xz": "linux-source-6.1",
              "/usr/lib/ipxe/qemu/efi-virtio.rom": "ipxe-qemu"}


def host_packages() -> dict[str, bool]:
    """Each Debian package the check needs on this machine, and whether it is there (its command or file)."""
    out: dict[str, bool] = {}
    for tool, pkg in HOST_PACKAGES.items():
        out[pkg] = out.get(pkg, True) and shutil.which(tool) is not None
    for path, pkg in HOST_FILES.items():
        out[pkg] = out.get(pkg, True) and Path(path).exists()
    return dict(sorted(out.items()))


def ensure_host_tools() -> None:
    """Debian's packages for everything run on this machine, installed when missing."""
    missing = [pkg for pkg, there in host_packages().items() if not there]
    if not missing:
        return
    say(f"installing {' '.join(missing)} with apt-get")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    sh("apt-get", "update", "-qq", env=env)
    sh("apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing, env=env, stdout=subprocess.DEVNULL)


# -- the root file system ----------------------------------------------------------

SIM_BOARD_UNIT = """\
# The boot check's stand-in for the Pi's header: the GPIO simulator's chip with
# one line per BCM pin (gpiochip0, as on a Pi; virt's own PL061 is off in the
# device tree), made before anything looks for GPIO chips, as the real one is.
[Unit]
Description=boot check: the simulated GPIO header
DefaultDependencies=no
After=systemd-modules-load.service sys-kernel-config.mount
Requires=sys-kernel-config.mount
Before=sysinit.target systemd-udev-trigger.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/sbin/sim-board

[Install]
WantedBy=sysinit.target
"""

SIM_BOARD_SCRIPT = f"""\
#!/bin/sh
# Make the simulated GPIO header: one gpio-sim bank of {SIM_LINES} lines, named GPIO0..GPIO{SIM_LINES - 1}.
set -e
modprobe gpio-sim
dir=/sys/kernel/config/gpio-sim/pi-header
[ -d "$dir" ] && exit 0
mkdir "$dir" "$dir/bank0"
echo {SIM_LINES} > "$dir/bank0/num_lines"
i=0
while [ $i -lt {SIM_LINES} ]; do
    mkdir "$dir/bank0/line$i"
    echo "GPIO$i" > "$dir/bank0/line$i/name"
    i=$((i + 1))
done
echo 1 > "$dir/live"
"""


def root_dir() -> Path:
    """The guest's root, built once: debootstrap, then the kernel with a small initramfs."""
    root = CACHE / "root"
    if fresh(root, ROOT_RECIPE):
        return root
    CACHE.mkdir(parents=True, exist_ok=True)
    building = CACHE / "root.building"
    if building.exists():
        sh("umount", "-R", "-l", str(building), check=False, stderr=subprocess.DEVNULL)
    shutil.rmtree(building, ignore_errors=True)
    shutil.rmtree(root, ignore_errors=True)
    say(f"building the {SUITE} arm64 root with debootstrap (cached in {root})")
    started = time.monotonic()
    sh("debootstrap", "--arch=arm64", "--variant=minbase", f"--include={','.join(PACKAGES)}",
       SUITE, str(building), MIRROR, stdout=subprocess.DEVNULL)
    etc = building / "etc"
    (etc / "apt/sources.list").write_text(f"deb {MIRROR} {SUITE} main\n")
    (etc / "hostname").write_text("cantstop-vm\n")
    (etc / "hosts").write_text("127.0.0.1 localhost\n127.0.1.1 cantstop-vm\n")
    (etc / "fstab").write_text("/dev/vda / ext4 defaults,errors=remount-ro 0 1\n")
    conf = etc / "initramfs-tools"
    (conf / "conf.d").mkdir(parents=True, exist_ok=True)
    (conf / "conf.d/boot-check").write_text("MODULES=list\nCOMPRESS=gzip\n")
    (conf / "modules").write_text("\n".join(INITRAMFS_MODULES) + "\n")
    (etc / "systemd/network/10-wired.network").write_text("[Match]\nName=en* eth*\n\n[Network]\nDHCP=yes\n")
    # The simulated board's own modules only: i2c-dev (what makes /dev/i2c-1) is the install's
    # to load at boot, as on a Raspberry Pi OS card, and the check sees whether it does.
    (etc / "modules-load.d/boot-check.conf").write_text("gpio-sim\ni2c-sink\n")
    (etc / "systemd/system/sim-board.service").write_text(SIM_BOARD_UNIT)
    script = building / "usr/local/sbin/sim-board"
    script.write_text(SIM_BOARD_SCRIPT)
    script.chmod(0o755)
    with Mounted(building):
        chroot(building, "apt-get", "update", "-qq")
        chroot(building, "apt-get", "install", "-y", "-qq", "--no-install-recommends", "initramfs-tools",
               "linux-image-arm64", stdout=subprocess.DEVNULL)
        chroot(building, "useradd", "--create-home", "--shell", "/bin/bash", "--groups", "sudo", "pi")
        chroot(building, "systemctl", "enable", "systemd-networkd.service", "sim-board.service")
        chroot(building, "apt-get", "clean")
    # Mounted put the host's resolv.conf in; the guest's DNS is qemu's (user networking).
    (etc / "resolv.conf").write_text("nameserver 10.0.2.3\n")
    (etc / "sudoers.d/010_pi-nopasswd").write_text("pi ALL=(ALL) NOPASSWD: ALL\n")
    (etc / "sudoers.d/010_pi-nopasswd").chmod(0o440)
    # An id of its own: an empty one would make the first boot apply systemd's presets to every unit.
    (etc / "machine-id").write_text(os.urandom(16).hex() + "\n")
    building.rename(root)
    stamp(root, ROOT_RECIPE)
    say(f"built the root in {time.monotonic() - started:.0f} s")
    return root


def kernel_version(root: Path) -> str:
    return roots_kernel_version(root, "boot-check")


# -- headers and the two modules ---------------------------------------------------

def headers_dir(root: Path) -> Path:
    """Debian's headers for the guest's kernel, unpacked here with dpkg -x (arm64 tools
    such as modpost run through qemu-user and binfmt_misc)."""
    version = kernel_version(root)
    out = CACHE / "headers"
    recipe = f"linux-headers-{version} + common + linux-kbuild, dpkg -x\n"
    if fresh(out, recipe):
        return out / f"usr/src/linux-headers-{version}"
    shutil.rmtree(out, ignore_errors=True)
    debs = CACHE / "debs"
    shutil.rmtree(debs, ignore_errors=True)
    debs.mkdir(parents=True)
    say(f"fetching the headers of {version}")
    short = re.sub(r"-arm64$", "", version)  # 6.1.0-41
    major = ".".join(version.split(".")[:2])  # 6.1
    with Mounted(root):
        chroot(root, "sh", "-c", f"cd /tmp && apt-get download linux-headers-{version} "
               f"linux-headers-{short}-common linux-kbuild-{major}", stdout=subprocess.DEVNULL)
        for deb in (root / "tmp").glob("*.deb"):
            shutil.move(str(deb), debs / deb.name)
    for deb in sorted(debs.glob("*.deb")):
        sh("dpkg", "-x", str(deb), str(out))
    # The headers' links point at /usr/src and /usr/lib of the guest: make them point into out.
    for link in out.rglob("*"):
        if link.is_symlink() and os.readlink(link).startswith("/"):
            target = out / os.readlink(link).lstrip("/")
            link.unlink()
            link.symlink_to(os.path.relpath(target, link.parent))
    makefile = out / f"usr/src/linux-headers-{version}/Makefile"  # "include /usr/src/...-common/Makefile"
    makefile.write_text(makefile.read_text().replace(" /usr/src/", f" {out}/usr/src/"))
    stamp(out, recipe)
    return out / f"usr/src/linux-headers-{version}"


MODULE_SOURCES = {"gpio-sim": ["drivers/gpio/gpio-sim.c", "drivers/gpio/gpiolib.h", "kernel/irq/irq_sim.c"]}


IRQ_SIM_CALL = "handle_simple_irq(irq_to_desc(irqnum));"


def modules_dir(root: Path) -> Path:
    """gpio-sim.ko and i2c-sink.ko, built against the guest kernel's headers."""
    headers = headers_dir(root)
    sink = (HERE / "modules/i2c-sink.c").read_text()
    recipe = f"{headers.name}; gpio-sim from linux-source-6.1 with irq_sim; i2c-sink {hash_text(sink)}\n"
    out = CACHE / "modules"
    if fresh(out, recipe):
        return out
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    say("building gpio-sim.ko and i2c-sink.ko")
    sh("tar", "-xJf", "/usr/src/linux-source-6.1.tar.xz", "-C", str(out), "--strip-components=1",
       *(f"linux-source-6.1/{path}" for path in MODULE_SOURCES["gpio-sim"]))
    for path in MODULE_SOURCES["gpio-sim"]:
        shutil.move(str(out / path), out / Path(path).name)
    shutil.rmtree(out / "drivers")
    shutil.rmtree(out / "kernel")
    # irq_to_desc() is not exported to modules; generic_handle_irq() is, and runs the
    # same handle_simple_irq that irq_sim gives each of its interrupts.
    irq_sim = out / "irq_sim.c"
    text = irq_sim.read_text()
    if IRQ_SIM_CALL not in text:
        raise SystemExit(f"boot-check: irq_sim.c from linux-source-6.1 no longer has {IRQ_SIM_CALL!r}")
    irq_sim.write_text(text.replace(IRQ_SIM_CALL, "generic_handle_irq(irqnum);"))
    shutil.copyfile(HERE / "modules/i2c-sink.c", out / "i2c-sink.c")
    (out / "Kbuild").write_text("obj-m += gpio-sim.o i2c-sink.o\n"
                                "gpio-sim-y := gpio-sim-main.o irq_sim.o\n")
    (out / "gpio-sim.c").rename(out / "gpio-sim-main.c")
    # The headers' own tools (fixdep, modpost) are arm64 programs: qemu-user runs them
    # with the guest's C library.
    sh("make", "-s", "-C", str(headers), f"M={out}", "ARCH=arm64", "CROSS_COMPILE=aarch64-linux-gnu-", "modules",
       stdout=subprocess.DEVNULL, env={**os.environ, "QEMU_LD_PREFIX": str(root)})
    stamp(out, recipe)
    return out


def hash_text(text: str) -> str:
    import hashlib
    return hashlib.sha256(text.encode()).hexdigest()[:12]


# -- the device tree ---------------------------------------------------------------

def qemu_machine_args() -> list[str]:
    return ["-M", "virt", "-cpu", "cortex-a53", "-smp", str(CPUS), "-m", str(MEMORY_MB)]


def patch_tree(dts: str, revision: int = BOARD_REVISION) -> str:
    """virt's tree with the Pi's board revision added and its PL061 (and the
    gpio-keys power button that uses it) switched off, so that the GPIO
    simulator's chip is gpiochip0."""
    out, found = re.subn(r'(\n(\t*)pl061@[0-9a-f]+ \{\n)', r'\1\2\tstatus = "disabled";\n', dts)
    if not found:
        raise ValueError("no pl061 node in the device tree")
    out = re.sub(r'(\n(\t*)gpio-keys \{\n)', r'\1\2\tstatus = "disabled";\n', out)
    system = f'\n\tsystem {{\n\t\tlinux,revision = <0x{revision:x}>;\n\t}};\n'
    end = out.rindex("};")
    return out[:end] + system.lstrip("\n") + out[end:]


def board_dtb() -> Path:
    dtb = CACHE / "board.dtb"
    recipe = f"virt {' '.join(qemu_machine_args())}; pl061 off; revision {BOARD_REVISION:#x}\n"
    if fresh(dtb, recipe):
        return dtb
    raw = CACHE / "virt.dtb"
    sh("qemu-system-aarch64", *qemu_machine_args(), "-machine", f"dumpdtb={raw}", "-nographic",
       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dts = sh("dtc", "-q", "-I", "dtb", "-O", "dts", str(raw), capture_output=True, text=True).stdout
    sh("dtc", "-q", "-I", "dts", "-O", "dtb", "-o", str(dtb), "-", input=patch_tree(dts), text=True)
    stamp(dtb, recipe)
    return dtb


# -- the disk ----------------------------------------------------------------------

DISK_SIZE = "4G"


def disk_image(root: Path, modules: Path) -> Path:
    """The root, with the two modules in its /lib/modules, as a raw ext4 image."""
    disk = CACHE / "disk.raw"
    recipe = ROOT_RECIPE + (modules.with_name("modules.recipe")).read_text()
    if fresh(disk, recipe):
        return disk
    marker = root / ".boot-check-cas"
    if not marker.exists():  # this network's TLS-inspecting proxy, if any, for pip in the guest
        trust_host_cas(root)
        for cert in Path("/usr/local/share/ca-certificates").glob("*.crt"):  # kept by update-ca-certificates
            shutil.copyfile(cert, root / "usr/local/share/ca-certificates" / cert.name)
        marker.touch()
    if not (root / "etc/machine-id").read_text().strip():
        (root / "etc/machine-id").write_text(os.urandom(16).hex() + "\n")
    version = kernel_version(root)
    extra = root / "lib/modules" / version / "extra"
    extra.mkdir(parents=True, exist_ok=True)
    for ko in modules.glob("*.ko"):
        shutil.copyfile(ko, extra / ko.name)
    chroot(root, "depmod", version)  # the guest's own depmod, under qemu-user
    say("making the disk image")
    building = disk.with_suffix(".building")
    building.unlink(missing_ok=True)
    sh("mkfs.ext4", "-q", "-F", "-L", "root", "-d", str(root), str(building), DISK_SIZE)
    building.rename(disk)
    stamp(disk, recipe)
    return disk


def boot_files(root: Path) -> tuple[Path, Path]:
    version = kernel_version(root)
    return root / "boot" / f"vmlinuz-{version}", root / "boot" / f"initrd.img-{version}"


def build_all() -> dict[str, Path]:
    ensure_host_tools()
    root = root_dir()
    modules = modules_dir(root)
    kernel, initrd = boot_files(root)
    return {"root": root, "modules": modules, "dtb": board_dtb(), "disk": disk_image(root, modules),
            "kernel": kernel, "initrd": initrd}
