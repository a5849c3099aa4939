"""make image-check: the card image that `make image` built, booted in qemu-system-aarch64 -M virt
with make boot-check's simulated header and display bus, and checked as a box on the table.

    sudo .venv/bin/python -m tools.image.check [--image FILE] [--markdown FILE] [--keep] [--packages]

The guest boots the image's own kernel, initramfs, command line and partitions, from a copy of
the file made 1 GiB bigger (a bigger card), with a wifi.txt put on the copy's boot partition as
an owner would. What the check adds to the guest goes into the root's RAM overlay at run time
(tools/image/extras.py), never into the image. Then: boot-check's rows on the pre-installed box
(tools/bootcheck/check_steps.py), and the card's own: the board settings in config.txt, the
root under a read-only overlay and never written (its checksum before and after a game and
power cuts), the data partition grown to the card's end, the Wi-Fi file read and removed,
i2c-dev loaded by the card, SSH off, mDNS and the network clock on.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tools.bootcheck import check_steps as steps
from tools.bootcheck import image as bootcheck
from tools.bootcheck.board import Board
from tools.bootcheck.check import check_fault, clone_tarball
from tools.bootcheck.check_update import PLANNED as UPDATE_ROWS
from tools.bootcheck.check_update import Bundles
from tools.bootcheck.check_lamps import wire_lamps
from tools.bootcheck.guest import AgentError, Guest
from tools.bootcheck.parse import Report, table
from tools.bootcheck.tone_soak import P_SOAK, soak_tones
from tools.picheck.check import head_commit
from tools.picheck.roots import ensure_binfmt

from . import card, check_raspi, check_wifi, extras, hosttools, root
from .cardfacts import kernel_names
from .layout import fat_read, partitions, unpack
from .build import REPO, built_card

GROW = 1024 * 1024 * 1024  # the card is this much bigger than the image
WIFI_TEXT = f'network = "{check_wifi.NETWORK}"\npassword = "{check_wifi.PASSWORD}"\ncountry = GB\n'
C_SUM, C_BOARD, C_FIRST, C_OVERLAY, C_GREW, C_WIFI, C_BUS, C_SSH, C_NET, C_NEVER = (
    "the download's sha256", "config.txt asks for the display's bus (what the kernel set: the raspi rows)", "first boot: active, no login",
    "root read-only under a RAM overlay", "data partition grown to the card's end", "Wi-Fi file read and removed",
    "i2c-dev loaded at boot by the card", "SSH off without a key", "mDNS cantstop.local, network time",
    "root never written (game, power cuts)")
_FIRST = [C_SUM, C_BOARD, C_FIRST, C_OVERLAY, C_GREW, C_WIFI, C_BUS, C_SSH, C_NET, steps.P_SETTINGS, steps.P_BOOT]
_LAST = [*UPDATE_ROWS, steps.P_JOURNAL, steps.P_SECURITY, *check_wifi.ROWS, C_NEVER]
PLANNED = [*_FIRST, steps.P_BUTTONS, steps.P_SCREENS, steps.P_LAMPS, steps.P_TONES, steps.P_EXPORT, steps.P_WATCHDOG,
           steps.P_CUT_ROLL, steps.P_CUT_MOVE, steps.P_CUT_BOOT, steps.P_LAMPS_OUT, steps.P_SELFTEST, *_LAST]
#: --only update: the card's own rows, the boot, then the update rows (issue 34: the releases on the data partition).
PLANNED_UPDATE = [*_FIRST, *_LAST]
#: --only wifi: the card's own rows at the first boot, then the Wi-Fi rows there (tools/image/check_wifi.py).
PLANNED_WIFI = [*_FIRST[:-2], *check_wifi.ROWS]
#: --only tones: the card's own rows, the boot with the buzzer wired, then the buzzer's soak
#: (tools/bootcheck/tone_soak.py).
PLANNED_TONES = [*_FIRST, P_SOAK, C_NEVER]


def say(text: str) -> None:
    print(f"image-check: {text}", flush=True)


class CardGuest(Guest):
    """boot-check's guest on the card's raw copy itself (its writes land there, as on a card)."""

    def new_disk(self) -> None:
        pass

    def command(self) -> list[str]:
        cmd = super().command()
        i = next(i for i, arg in enumerate(cmd) if arg.startswith("if=none,file="))
        cmd[i] = f"if=none,file={self.files['disk']},format=raw,id=hd,cache=writeback"
        return cmd


def fat_write(disk: Path, offset: int, name: str, data: bytes, work: Path) -> None:
    local = work / name
    local.write_bytes(data)
    subprocess.run(["mcopy", "-o", "-i", f"{disk}@@{offset}", str(local), f"::{name}"], check=True)
    local.unlink()


def range_sha256(disk: Path, start: int, size: int) -> str:
    h = hashlib.sha256()
    with open(disk, "rb") as f:
        f.seek(start)
        left = size
        while left:
            chunk = f.read(min(left, 8 * 1024 * 1024))
            if not chunk:
                break
            h.update(chunk)
            left -= len(chunk)
    return h.hexdigest()


def boot_names(config_txt: str) -> tuple[str, str]:
    """The kernel and the initramfs that config.txt makes the Pi's firmware load."""
    kernel, initrd = kernel_names(config_txt)
    if not kernel or not initrd:
        raise SystemExit("image-check: config.txt names no kernel= or initramfs")
    return kernel, initrd


def qemu_cmdline(cmdline_txt: str) -> str:
    """The card's cmdline.txt, its consoles swapped for virt's serial port."""
    words = [w for w in cmdline_txt.split() if not w.startswith("console=")]
    return " ".join(words + ["console=ttyAMA0"])


def board_settings_ok(config_txt: str, settings: str, work: Path) -> tuple[bool, str]:
    """deploy/bootconfig.py --dry-run on the card's own config.txt and settings: nothing to change."""
    (work / "config.txt").write_text(config_txt)
    (work / "settings.toml").write_text(settings)
    done = subprocess.run([sys.executable, str(REPO / "deploy/bootconfig.py"), "--dry-run", str(work / "settings.toml"),
                           str(work / "config.txt")], capture_output=True, text=True)
    lines = [line for line in config_txt.splitlines() if line.startswith("dtparam=")]
    return done.returncode == 0, f"{'; '.join(lines) or 'no dtparam'}" + (
        f"; bootconfig would change: {done.stdout.strip()[:120]}" if done.returncode else "")


def card_rows(board: Board, parts: list[dict], disk_size: int, t: float) -> None:
    report, guest = board.report, board.guest

    def sh(script: str) -> str:
        return guest.sh(script).stdout.strip()

    fs, ro = sh("findmnt -no FSTYPE /"), sh("findmnt -no OPTIONS /media/root-ro")
    report.add(C_OVERLAY, fs == "overlay" and ro.startswith("ro"), None, f"/ is {fs or '?'}; the root partition {ro[:40] or 'not at /media/root-ro'}")
    data = parts[2]
    size = int(sh("lsblk -bno SIZE /dev/disk/by-label/cantstop-data") or 0)
    fs_size = int((sh("df -B1 --output=size /data | tail -1") or "0").strip())
    end = data["start"] + size
    report.add(C_GREW, size > data["size"] and disk_size - end < 8 * 1024 * 1024 and fs_size > size * 0.9, None,
               f"{data['size'] >> 20} MiB in the image, {size >> 20} MiB on the card ({(disk_size - end) >> 20} MiB "
               f"left after it); /data {fs_size >> 20} MiB")
    gone = guest.run("/usr/bin/test", "-e", f"/boot/firmware/{card.WIFI_FILE}").returncode != 0
    conf = sh("cat /data/etc/wpa_supplicant-wlan0.conf")
    wanted = f"ssid={check_wifi.NETWORK.encode().hex()}"
    said = sh("journalctl -b --no-pager -o cat -u cantstop-card | grep Wi-Fi | tail -1")
    report.add(C_WIFI, gone and wanted in conf and check_wifi.PASSWORD not in conf, None,
               f"wifi.txt {'removed' if gone else 'still there'}; {'network kept as a WPA key' if wanted in conf else 'no network in wpa_supplicant'}; {said[:80]}")
    loaded = guest.run("/usr/bin/test", "-d", "/sys/module/i2c_dev").returncode == 0
    listed = sh("grep -lxE 'i2c[-_]dev' /media/root-ro/etc/modules-load.d/*.conf /media/root-ro/etc/modules 2>/dev/null")
    report.add(C_BUS, loaded and bool(listed), None, f"{'loaded' if loaded else 'not loaded'}; listed in {listed or 'nothing of the card'}"
               + f"; /dev/i2c-1 {'there' if guest.run('/usr/bin/test', '-e', '/dev/i2c-1').returncode == 0 else 'missing'}")
    ssh = sh("systemctl is-active ssh.service")
    report.add(C_SSH, ssh != "active", None, f"ssh.service {ssh}")
    host, mdns = sh("hostname"), sh("resolvectl mdns 2>&1 | grep -v '^Global' | head -2 | tr '\\n' ' '")
    ntp, timesync = sh("timedatectl show -p NTP --value"), sh("systemctl is-active systemd-timesyncd")
    report.add(C_NET, host == card.HOSTNAME and "yes" in mdns and ntp == "yes" and timesync == "active", None,
               f"hostname {host}; mDNS {mdns.strip()[:60]}; NTP {ntp}, timesyncd {timesync}")


def raspi_rows(report: Report, xz: Path, keep: bool) -> None:
    """The boot rows on QEMU's own Raspberry Pi models, after the virt rows (tools/image/check_raspi.py)."""
    for name, kind in check_raspi.RUNS:
        try:
            check_raspi.run(report, xz, name, kind, root.CACHE / "check-raspi", keep=keep)
        except Exception as err:  # a fault in the check itself: the rows so far still make the table
            check_fault(report, err, root.CACHE / "check-raspi")


def raspi_only(xz: Path, args) -> int:
    report = Report()
    raspi_rows(report, xz, args.keep)
    lines = table(report, [])
    print("\n".join(lines))
    target = Path(args.markdown) if args.markdown else root.CACHE / "image-check-raspi.md"
    target.write_text(f"make image-check --only raspi, {time.strftime('%Y-%m-%d', time.gmtime())}, "
                      f"commit {head_commit()}:\n\n" + "\n".join(lines) + "\n")
    return 0 if report.passed else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="image-check", description=__doc__.split("\n\n")[0])
    parser.add_argument("--image", help="the card (default make image's: build/image/cantstop-box-<version>-arm64.img.xz, "
                        "or .img.zst after make image-dev), or a raw .img (its sha256 row then fails: it has no .sha256)")
    parser.add_argument("--markdown", metavar="FILE", help="also write the table as Markdown to FILE")
    parser.add_argument("--keep", action="store_true", help="keep the copy and the logs in $IMAGE_CACHE/check")
    parser.add_argument("--only", choices=["update", "wifi", "tones", "raspi"],
                        help="update: only the card's rows, the boot and the update rows; wifi: only the card's rows "
                             "and the Wi-Fi rows, at the first boot; raspi: only the boot rows on QEMU's raspi3b and raspi4b "
                             "(tools/image/check_raspi.py); tones: only the card's rows, the boot and the "
                             "buzzer's soak")
    parser.add_argument("--rolls", type=int, default=60, help="--only tones: how many times to press ROLL (60)")
    parser.add_argument("--busy", type=int, default=0, help="--only tones: host processes kept spinning meanwhile (0)")
    parser.add_argument("--packages", action="store_true", help="list the Debian packages it installs here, and stop")
    parser.add_argument("--release-key", metavar="KEY", help="the private key that signs the update rows' bundles: "
                        "the one the card was made to trust (make image-check: RELEASE_KEY)")
    args = parser.parse_args(argv)
    if args.packages:
        print(" ".join(hosttools.packages(hosttools.CHECK, hosttools.CHECK_FILES)))
        print(f"and, for -M raspi4b, in a chroot of {check_raspi.LATER_SUITE}: {check_raspi.LATER_PACKAGES}")
        return 0
    if args.only in (None, "update") and not (args.release_key and Path(args.release_key).is_file()):
        print(f"image-check: the update rows need --release-key KEY, the key the card trusts (make image-check "
              f"passes RELEASE_KEY's){': no ' + args.release_key if args.release_key else ''}", file=sys.stderr)
        return 1
    if os.geteuid() != 0:
        print("image-check: needs root (chroot, binfmt_misc): sudo make image-check", file=sys.stderr)
        return 1
    started = time.monotonic()
    xz = Path(args.image) if args.image else built_card()
    if not xz.exists():
        print(f"image-check: no {xz}: run make image first", file=sys.stderr)
        return 1
    hosttools.ensure(hosttools.CHECK, hosttools.CHECK_FILES, say=say)
    if args.only == "raspi":
        return raspi_only(xz, args)
    ensure_binfmt()
    check_root = bootcheck.root_dir()
    modules = bootcheck.modules_dir(check_root)
    dtb = bootcheck.board_dtb()
    work = root.CACHE / "check"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    report = Report()
    t = time.monotonic()
    sums = xz.with_name(xz.name + ".sha256")
    done = subprocess.run(["sha256sum", "-c", "--status", sums.name], cwd=xz.parent) if sums.exists() else None
    report.add(C_SUM, done is not None and done.returncode == 0, time.monotonic() - t,
               f"{sums.name} {'matches' if done and done.returncode == 0 else 'missing or does not match'}")
    disk = work / "card.img"
    unpack(xz, disk)
    image_size = disk.stat().st_size
    os.truncate(disk, image_size + GROW)
    parts = partitions(disk)
    boot_at = parts[0]["start"]
    config_txt = fat_read(disk, boot_at, "config.txt").decode()
    settings = fat_read(disk, boot_at, card.BOOT_SETTINGS).decode()
    t = time.monotonic()
    ok, detail = board_settings_ok(config_txt, settings, work)
    report.add(C_BOARD, ok, time.monotonic() - t, detail)
    kernel_name, initrd_name = boot_names(config_txt)
    (work / "vmlinuz").write_bytes(fat_read(disk, boot_at, kernel_name))
    (work / "initrd.img").write_bytes(fat_read(disk, boot_at, initrd_name))
    version_ = kernel_name.removeprefix("vmlinuz-")
    if version_ != bootcheck.kernel_version(check_root):
        raise SystemExit(f"image-check: the card's kernel {version_} is not boot-check's "
                         f"{bootcheck.kernel_version(check_root)}: rebuild one of them (modules are built for the latter)")
    cmdline = qemu_cmdline(fat_read(disk, boot_at, "cmdline.txt").decode())
    fat_write(disk, boot_at, card.WIFI_FILE, WIFI_TEXT.encode(), work)  # the owner's Wi-Fi, on the copy
    root_part = parts[1]
    before = range_sha256(disk, root_part["start"], root_part["size"])
    initrd = extras.build(work / "initrd.img", version_, check_root, modules, work)
    files = {"kernel": work / "vmlinuz", "initrd": initrd, "dtb": dtb, "disk": disk}
    guest = CardGuest(files, work, cmdline)
    board = Board(guest, report, b"", work, started)
    board.owner = "root"  # the card's owner logs in as root (ssh.pub), with no sudo
    # The versions to update to, for the update rows only (not --only wifi or tones), made here before the card
    # boots: pip's downloads and the wheels' copies take a core for about a minute, which would slow the boot whose
    # times the table gives.
    bundles = Bundles(clone_tarball(), Path(args.release_key)) if args.only in (None, "update") else None
    if bundles:
        bundles.join()
    say(f"booting the card's copy ({image_size >> 20} MiB image on a {(image_size + GROW) >> 20} MiB card): {cmdline}")
    try:
        first = steps.check_boot(board, C_FIRST)
        if first:
            card_rows(board, parts, image_size + GROW, t)
        if first and args.only == "wifi":
            check_wifi.check_wifi(board)
        elif first:
            wire_lamps(board, steps.P_SETTINGS)
            guest.shut_down()
            booted = steps.check_boot(board)
            if booted and args.only == "tones":
                soak_tones(board, args.rolls, args.busy)
            elif booted:
                steps.check_booted(board, bundles, args.only)
            if args.only != "tones":
                steps.check_journal(board)
                # last: its notice on the screen, and wpa_supplicant's refusals in the journal
                check_wifi.check_wifi(board)
    except (AgentError, OSError, TimeoutError) as err:
        report.add("the guest answers", False, None, str(err)[:160])
        say(f"stopped: {err} (console: {work}/console.log.*)")
    except Exception as err:  # a fault in the check itself: the rows so far still make the table
        check_fault(report, err, work)
    finally:
        guest.cut_power()
        if bundles:
            bundles.close()
    after = range_sha256(disk, root_part["start"], root_part["size"])
    if args.only != "wifi":  # one boot only: the power cuts' row is the whole run's
        report.add(C_NEVER, before == after and guest.boots > 1, None,
                   f"sha256 {before[:12]} before, {after[:12]} after {guest.boots} boots")
    raspi_rows(report, xz, args.keep)
    report.figure("the whole run", time.monotonic() - started)
    planned = {"update": PLANNED_UPDATE, "wifi": PLANNED_WIFI, "tones": PLANNED_TONES}.get(args.only, PLANNED)
    lines = table(report, planned)
    lines += ["", f"Added to the guest at run time (its RAM overlay, never the image): {extras.LISTED}; "
              f"on the copy's boot partition: {card.WIFI_FILE}, and the lamps and buzzer in {card.BOOT_SETTINGS}; "
              f"for the Wi-Fi rows, two radios of the card's own mac80211_hwsim and an access point's settings in /run."]
    print("\n".join(lines))
    target = Path(args.markdown) if args.markdown else root.CACHE / "image-check.md"
    stamp = time.strftime("%Y-%m-%d", time.gmtime())
    target.write_text(f"make image-check, {stamp}, commit {head_commit()}:\n\n" + "\n".join(lines) + "\n")
    say(f"table written to {target}")
    if not args.keep and report.passed:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
