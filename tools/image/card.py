"""The files `make image` writes into the card's root and boot partition: pure text here,
written by ``write_base`` (before the kernel is installed) and ``write_card`` (after
deploy/install.sh). Tested in tests/tools/test_image.py.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MIRROR = "http://deb.debian.org/debian"
SUITE = "bookworm"
HOSTNAME = "cantstop"
LABELS = {"boot": "CANTSTOPBOX", "root": "cantstop-root", "data": "cantstop-data"}
DATA = "/data"
# Where the box's own files go on the data partition, and where they are mounted (bind): the
# releases, the games, and timesyncd's clock file (its mtime is the time a box comes back to after
# a power cut with no network; in the RAM overlay it went back to the image's build time).
BINDS = {"/opt/cantstop-box": "opt", "/var/lib/cantstop-box": "games", "/var/lib/systemd/timesync": "timesync"}
BOOT_SETTINGS = "cantstop-box.toml"  # the box's config.toml, on the boot partition
WIFI_FILE = "wifi.txt"
SSH_KEY_FILE = "ssh.pub"
# The initramfs (MODULES=list: "most" took over 5 minutes under qemu-user): the Pi's SD card
# (sdhci-iproc on the Pi 4, bcm2835's sdhost on the Zero 2 W and 3), the two regulators a Pi 4's
# SD controller takes its power from (gpio-regulator for vqmmc, fixed for vmmc: without them it
# never probes and the root is never found), QEMU's virt disks, ext4, and the overlay the root runs
# under. The card lint (tools/image/lint.py) checks this list against each board's own tree.
INITRAMFS_MODULES = ["mmc_block", "sdhci_iproc", "bcm2835", "sdhci_pltfm", "gpio_regulator", "fixed",
                     "virtio_mmio", "virtio_pci", "virtio_blk", "ext4", "crc32c_generic", "overlay"]


@cache
def _bootconfig():
    spec = importlib.util.spec_from_file_location("bootconfig", REPO / "deploy/bootconfig.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def default_settings() -> str:
    """The settings deploy/install.sh installs (and so the card's, until the owner edits them)."""
    return (REPO / "firmware/default_config.toml").read_text()


def board_settings(settings_text: str) -> str:
    """The config.txt lines the box's display needs (deploy/bootconfig.py's own reading of the settings)."""
    wanted = _bootconfig().wanted(settings_text)
    lines = "".join(f"dtparam={name}={value}\n" for name, value in wanted.items())
    return ("# The Can't Stop box: its display's bus (kept by raspi-firmware in every config.txt it writes)\n"
            + lines)


def raspi_firmware_defaults() -> str:
    """/etc/default/raspi-firmware: the root by its label, whatever the card's device is called."""
    return f"ROOTPART=LABEL={LABELS['root']}\nCONSOLES=\"ttyS1,115200 tty1\"\n"


# No cma= on the kernel's command line: raspi-firmware leaves it out only when it runs on a
# Pi 4, where 64M "renders it unbootable" (its own words), and the card is built elsewhere.
NO_CMA = "# No cma= in cmdline.txt: the same card boots a Pi 4 (see raspi-firmware's hook)\nCMA=0\n"


def raspi_cmdline() -> str:
    """/etc/default/raspi-extra-cmdline: read-only root (the initramfs puts a RAM overlay on it), quiet."""
    return "ro quiet\n"


def initramfs_conf() -> str:
    return "MODULES=list\nCOMPRESS=gzip\n"


def sources_list() -> str:
    return f"deb {MIRROR} {SUITE} main non-free-firmware\n"


# Two boards' own Wi-Fi settings (nvram) that bookworm's firmware-brcm80211 lacks, taken from
# trixie's (downloaded by apt, so checked against the archive's signed lists): the Zero 2 W's
# BCM43438 and the CM4's CYW43455. Only these files are copied in, with the package's copyright;
# the package itself is not installed (its other files would clash with raspi-firmware's).
FIRMWARE_SUITE = "trixie"
FIRMWARE_PACKAGE = "firmware-brcm80211"
FIRMWARE_FILES = ["usr/lib/firmware/brcm/brcmfmac43430-sdio.raspberrypi,model-zero-2-w.txt",
                  "usr/lib/firmware/brcm/brcmfmac43455-sdio.raspberrypi,4-compute-module.txt"]
FIRMWARE_COPYRIGHT = "usr/share/doc/cantstop-card-firmware/copyright"


def firmware_source() -> str:
    return f"deb {MIRROR} {FIRMWARE_SUITE} non-free-firmware\n"


def firmware_pin() -> str:
    """apt preferences: that one package from the later suite, nothing else."""
    return (f"Package: *\nPin: release n={FIRMWARE_SUITE}\nPin-Priority: -1\n\n"
            f"Package: {FIRMWARE_PACKAGE}\nPin: release n={FIRMWARE_SUITE}\nPin-Priority: 990\n")


# The card's spidev devices (tools/image/dtpatch.py puts one at each of SPI0's chip selects) given to
# spidev, as the kernel's spidev documentation says: by driver_override, not by a "spidev" compatible
# (which the kernel refuses).
SPIDEV_RULE = """\
# The Can't Stop card: the display's SPI devices (CE0, CE1) as /dev/spidev0.0 and /dev/spidev0.1.
ACTION=="add", SUBSYSTEM=="spi", ENV{OF_COMPATIBLE_0}=="%s", ATTR{driver_override}="spidev", \\
  RUN+="/bin/sh -c 'echo %%k > /sys/bus/spi/drivers/spidev/bind'"
""" % "cantstop,spi-display"
TIMESYNC_DROPIN = ("[Unit]\n# Its clock file is on the data partition (a bind mount, /etc/fstab)\n"
                   "RequiresMountsFor=/var/lib/systemd/timesync\n")

def _write(path: Path, text: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)


def write_base(root: Path, overlay_script: str) -> None:
    """What must be in place before the kernel and raspi-firmware are installed."""
    etc = root / "etc"
    _write(etc / "apt/sources.list", sources_list())
    _write(etc / "hostname", HOSTNAME + "\n")
    _write(etc / "hosts", f"127.0.0.1 localhost\n127.0.1.1 {HOSTNAME}\n::1 localhost ip6-localhost\n")
    _write(etc / "initramfs-tools/conf.d/cantstop-box", initramfs_conf())
    _write(etc / "initramfs-tools/modules", "\n".join(INITRAMFS_MODULES) + "\n")
    _write(etc / "initramfs-tools/scripts/init-bottom/cantstop-overlay", overlay_script, 0o755)
    _write(etc / "default/raspi-firmware", raspi_firmware_defaults())
    _write(etc / "default/raspi-extra-cmdline", raspi_cmdline())
    _write(etc / "default/raspi-firmware-custom", board_settings(default_settings()))
    # An id of its own for the system (an empty one would make every boot of a read-only
    # root a "first boot" that applies systemd's presets, SSH's included).
    _write(etc / "machine-id", os.urandom(16).hex() + "\n", 0o444)


# -- after deploy/install.sh: the card's own files ----------------------------------------

def fstab() -> str:
    """The root is not here: the initramfs mounts it read-only under a RAM overlay."""
    lines = ["# The card's partitions (the root is mounted read-only by the initramfs, under a RAM overlay).",
             f"LABEL={LABELS['boot']}\t/boot/firmware\tvfat\tdefaults,noatime,umask=0022,flush\t0\t0",
             f"LABEL={LABELS['data']}\t{DATA}\text4\tdefaults,noatime,x-systemd.growfs\t0\t2"]
    for target, sub in BINDS.items():
        lines.append(f"{DATA}/{sub}\t{target}\tnone\tbind,x-systemd.requires-mounts-for={DATA}\t0\t0")
    return "\n".join(lines) + "\n"


def network(match: str) -> str:
    """A systemd-networkd link: DHCP, mDNS, and the MAC as DHCP's client id (every card has the same machine-id)."""
    return (f"[Match]\nName={match}\n\n[Network]\nDHCP=yes\nMulticastDNS=yes\n\n"
            "[DHCPv4]\nClientIdentifier=mac\n")


RESOLVED = "[Resolve]\n# The box answers as cantstop.local on the home network.\nMulticastDNS=yes\nLLMNR=no\n"
JOURNALD = "[Journal]\n# In RAM: the root is never written.\nStorage=volatile\nRuntimeMaxUse=16M\n"
SSHD = ("# The card: SSH only for root, only with the keys from the boot partition's ssh.pub\n"
        "# (/usr/local/lib/cantstop-card/cardsetup.py), host keys on the data partition.\n"
        f"HostKey {DATA}/ssh/ssh_host_ed25519_key\nAuthorizedKeysFile {DATA}/ssh/authorized_keys\n"
        "PasswordAuthentication no\nKbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n")
WIFI_EXAMPLE = f"""\
# The box's Wi-Fi. Fill in the three lines below, save this file as {WIFI_FILE} on this
# card (beside config.txt), and put the card in the box. At its next boot the box reads
# it, joins that network and removes {WIFI_FILE} from the card (the password is kept on
# the box only as a WPA key) and says on its screen what it took. Without it the box
# plays offline.
network = "the name of your Wi-Fi"
password = "its password"
# Your country's two letters, for the Wi-Fi channels allowed there (a box in Japanese or
# Korean takes JP or KR from its language when this line is left out):
country = GB
"""
SSH_README = f"""\
SSH is off. To turn it on, put your OpenSSH public key (one line, ssh-ed25519 AAAA...)
in a file {SSH_KEY_FILE} on this card, beside config.txt: at each boot the box lets
root log in with that key only (ssh root@{HOSTNAME}.local). Remove the file to turn SSH off.
"""
# Units enabled on the card, and those off: SSH until a key is given, apt's daily
# downloads (the root never changes), the D-Bus-only wpa_supplicant.
ENABLE = ["systemd-networkd.service", "systemd-resolved.service", "systemd-timesyncd.service",
          "cantstop-card-grow.service", "cantstop-card.service", "wpa_supplicant@wlan0.service"]
DISABLE = ["ssh.service", "wpa_supplicant.service"]
MASK = ["apt-daily.timer", "apt-daily-upgrade.timer", "ssh.socket"]


def write_card(root: Path, boot: Path, data: Path, here: Path, owner: tuple[int, int]) -> None:
    """Into the installed ``root``: the card's settings; its boot partition's files into ``boot``
    and the box's writable parts into ``data`` (``owner``: the box's user's uid and gid)."""
    etc = root / "etc"
    # The boot partition: what raspi-firmware put in /boot/firmware, and the box's settings.
    for item in sorted((root / "boot/firmware").iterdir()):
        item.rename(boot / item.name)
    settings = etc / "cantstop-box/config.toml"
    settings.rename(boot / BOOT_SETTINGS)
    settings.symlink_to(f"/boot/firmware/{BOOT_SETTINGS}")
    _write(boot / "wifi-example.txt", WIFI_EXAMPLE)
    _write(boot / "ssh-README.txt", SSH_README)
    # The data partition: /opt/cantstop-box (the installed releases) and the games.
    (root / "opt/cantstop-box").rename(data / BINDS["/opt/cantstop-box"])
    for target in BINDS:
        (root / target.lstrip("/")).mkdir(parents=True, exist_ok=True)
    games = data / BINDS["/var/lib/cantstop-box"]
    games.mkdir(mode=0o700)
    os.chown(games, *owner)
    clock = data / BINDS["/var/lib/systemd/timesync"]
    clock.mkdir(mode=0o755)
    os.chown(clock, *user_ids(root, "systemd-timesync"))
    (data / "etc").mkdir()
    (data / "ssh").mkdir(mode=0o700)
    (root / DATA.lstrip("/")).mkdir()
    # The system's own settings.
    _write(etc / "fstab", fstab())
    _write(etc / "systemd/network/10-cantstop-wired.network", network("en* eth*"))
    _write(etc / "systemd/network/20-cantstop-wifi.network", network("wlan*"))
    _write(etc / "systemd/resolved.conf.d/cantstop-box.conf", RESOLVED)
    _write(etc / "systemd/journald.conf.d/cantstop-box.conf", JOURNALD)
    _write(etc / "ssh/sshd_config.d/cantstop-box.conf", SSHD)
    _write(etc / "udev/rules.d/60-cantstop-card-spidev.rules", SPIDEV_RULE)
    _write(etc / "systemd/system/systemd-timesyncd.service.d/cantstop-card.conf", TIMESYNC_DROPIN)
    for key in (etc / "ssh").glob("ssh_host_*"):
        key.unlink()  # each card makes its own, on its data partition
    wpa = etc / "wpa_supplicant/wpa_supplicant-wlan0.conf"
    wpa.parent.mkdir(parents=True, exist_ok=True)
    wpa.unlink(missing_ok=True)
    wpa.symlink_to(f"{DATA}/etc/wpa_supplicant-wlan0.conf")
    lib = root / "usr/local/lib/cantstop-card"
    lib.mkdir(parents=True, exist_ok=True)
    _write(lib / "cardsetup.py", (here / "cardsetup.py").read_text(), 0o755)
    _write(lib / "bootconfig.py", (REPO / "deploy/bootconfig.py").read_text(), 0o755)
    units = etc / "systemd/system"
    for unit in ("cantstop-card-grow.service", "cantstop-card.service"):
        _write(units / unit, (here / "units" / unit).read_text())
    _write(units / "wpa_supplicant@wlan0.service.d/cantstop-card.conf", (here / "units/wpa_supplicant-card.conf").read_text())
    resolv = etc / "resolv.conf"
    resolv.unlink(missing_ok=True)
    resolv.symlink_to("../run/systemd/resolve/stub-resolv.conf")
    # What only the build needed.
    for junk in ("var/lib/apt/lists", "var/cache/apt", "tmp", "var/tmp", "var/log/journal"):
        path = root / junk
        for item in path.glob("*") if path.is_dir() else []:
            if item.is_dir() and not item.is_symlink():
                shutil.rmtree(item)
            else:
                item.unlink()


def user_ids(root: Path, name: str) -> tuple[int, int]:
    """A system user's uid and gid in the root's /etc/passwd."""
    for line in (root / "etc/passwd").read_text().splitlines():
        fields = line.split(":")
        if fields[0] == name:
            return int(fields[2]), int(fields[3])
    raise SystemExit(f"image: the root has no user {name}")


def modules_loaded(root: Path) -> set[str]:
    """The modules the root loads at boot (modules-load.d and /etc/modules)."""
    names = set()
    files = [*sorted((root / "etc/modules-load.d").glob("*.conf")), root / "etc/modules"]
    for path in files:
        if path.is_file():
            for line in path.read_text().splitlines():
                word = line.split("#", 1)[0].strip()
                if word:
                    names.add(word.replace("_", "-"))
    return names
