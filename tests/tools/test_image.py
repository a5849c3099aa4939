"""make image's pure parts: the partition table, the files written into the card, the card's
own boot steps (Wi-Fi file, SSH keys, growing the data partition), what the check adds, and the
packages both targets install (tools/image/, deploy/image/cardsetup.py)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from deploy.image import cardsetup
from tools.image import card, check, extras, hosttools, layout

REPO = Path(__file__).resolve().parents[2]
MiB = layout.MiB


# -- the partition table ----------------------------------------------------------------

def test_the_card_has_boot_root_and_data_in_order_aligned_and_not_overlapping():
    parts = layout.plan(700 * MiB, 90 * MiB)
    assert [p.name for p in parts] == ["boot", "root", "data"]
    assert all(p.start % (4 * MiB) == 0 and p.size % (4 * MiB) == 0 for p in parts)
    assert all(a.end == b.start for a, b in zip(parts, parts[1:]))
    boot, root, data = parts
    assert (boot.kind, boot.bootable, boot.start) == ("c", True, 4 * MiB)
    assert root.size >= 700 * MiB + 70 * MiB and data.size >= 90 * MiB + layout.DATA_SPARE
    assert layout.image_size(parts) == data.end


def test_sfdisk_gets_an_mbr_table_in_sectors():
    parts = [layout.Partition("boot", 4 * MiB, 256 * MiB, "c", True), layout.Partition("root", 260 * MiB, 8 * MiB, "83")]
    assert layout.sfdisk_script(parts) == ("label: dos\nunit: sectors\n\nstart=8192, size=524288, type=c, bootable\n"
                                           "start=532480, size=16384, type=83\n")
    with pytest.raises(ValueError):
        layout.sfdisk_script([layout.Partition("odd", 4 * MiB + 1, MiB, "83")])


def test_sizes_round_up_and_inodes_cover_the_files():
    assert layout.fs_size(0, 0) == 0 and layout.fs_size(1, 0) == 4 * MiB
    assert layout.fs_size(100 * MiB, 0) == 112 * MiB  # 110 MiB, aligned up
    assert layout.inodes(10) == 16384 and layout.inodes(30000) == 40000
    with pytest.raises(ValueError):
        layout.fs_size(-1, 0)


# -- the files written into the card ------------------------------------------------------

def test_the_board_settings_are_the_ones_bootconfig_wants_for_each_display():
    i2c = card.board_settings(card.default_settings())
    assert "dtparam=i2c_arm=on\n" in i2c and "dtparam=i2c_arm_baudrate=400000\n" in i2c and "dtparam=spi" not in i2c
    spi = card.board_settings('[display]\ninterface = "spi"\n')
    assert "dtparam=spi=on\n" in spi and "dtparam=i2c" not in spi


def test_fstab_mounts_boot_and_data_by_label_binds_the_box_and_leaves_the_root_to_the_initramfs():
    text = card.fstab()
    rows = [line.split("\t") for line in text.splitlines() if not line.startswith("#")]
    assert {r[1] for r in rows} == {"/boot/firmware", "/data", "/opt/cantstop-box", "/var/lib/cantstop-box",
                                    "/var/lib/systemd/timesync"}
    data = next(r for r in rows if r[1] == "/data")
    assert data[0] == "LABEL=cantstop-data" and "x-systemd.growfs" in data[3]
    assert all("bind" in r[3] and r[0].startswith("/data/") for r in rows if r[1].startswith(("/opt", "/var")))
    assert card.raspi_cmdline().split()[0] == "ro" and "LABEL=cantstop-root" in card.raspi_firmware_defaults()
    assert "CMA=0" in card.NO_CMA.splitlines()  # raspi-firmware then writes no cma=, which a Pi 4 does not boot with


def test_the_network_has_mdns_and_a_dhcp_id_of_its_own():
    text = card.network("wlan*")
    assert "Name=wlan*" in text and "MulticastDNS=yes" in text and "ClientIdentifier=mac" in text
    assert "MulticastDNS=yes" in card.RESOLVED and "ssh.service" in card.DISABLE and "ssh.socket" in card.MASK


def fake_installed_root(tmp_path: Path) -> tuple[Path, Path, Path]:
    root, boot, data = tmp_path / "root", tmp_path / "boot", tmp_path / "data"
    for d in ("boot/firmware", "opt/cantstop-box/venv/bin", "etc/cantstop-box", "etc/ssh", "var/lib/apt/lists",
              "tmp/junk", "etc/modules-load.d"):
        (root / d).mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text("kernel=vmlinuz-x\n")
    (root / "opt/cantstop-box/venv/bin/cantstop-box").write_text("#!\n")
    (root / "etc/cantstop-box/config.toml").write_text("[display]\n")
    (root / "etc/ssh/ssh_host_ed25519_key").write_text("secret")
    (root / "var/lib/apt/lists/x_Packages").write_text("big")
    uid, gid = root.stat().st_uid, root.stat().st_gid
    (root / "etc/passwd").write_text(f"root:x:0:0::/root:/bin/sh\nsystemd-timesync:x:{uid}:{gid}::/:/usr/sbin/nologin\n")
    boot.mkdir()
    data.mkdir()
    return root, boot, data


def test_write_card_splits_the_installed_root_into_the_cards_three_trees(tmp_path):
    root, boot, data = fake_installed_root(tmp_path)
    owner = (root.stat().st_uid, root.stat().st_gid)
    card.write_card(root, boot, data, REPO / "deploy/image", owner)
    assert (boot / "config.txt").exists() and (boot / card.BOOT_SETTINGS).read_text() == "[display]\n"
    assert (boot / "wifi-example.txt").exists() and not (boot / card.WIFI_FILE).exists()
    settings = root / "etc/cantstop-box/config.toml"
    assert settings.is_symlink() and str(settings.readlink()) == "/boot/firmware/cantstop-box.toml"
    assert (data / "opt/venv/bin/cantstop-box").exists() and list((root / "opt/cantstop-box").iterdir()) == []
    assert stat.S_IMODE((data / "games").stat().st_mode) == 0o700 and (root / "var/lib/cantstop-box").is_dir()
    assert not list((root / "etc/ssh").glob("ssh_host_*")) and not list((root / "var/lib/apt/lists").iterdir())
    assert not (root / "tmp/junk").exists() and (root / "data").is_dir()
    assert str((root / "etc/wpa_supplicant/wpa_supplicant-wlan0.conf").readlink()) == "/data/etc/wpa_supplicant-wlan0.conf"
    assert (root / "usr/local/lib/cantstop-card/cardsetup.py").stat().st_mode & 0o111
    assert str((root / "etc/resolv.conf").readlink()).endswith("stub-resolv.conf")


def test_the_clock_file_is_kept_on_the_data_partition_so_a_power_cut_without_network_resumes_from_it(tmp_path):
    root, boot, data = fake_installed_root(tmp_path)
    card.write_card(root, boot, data, REPO / "deploy/image", (root.stat().st_uid, root.stat().st_gid))
    clock = next(line.split("\t") for line in card.fstab().splitlines() if "/var/lib/systemd/timesync" in line)
    assert clock[0] == "/data/timesync" and "bind" in clock[3] and "x-systemd.requires-mounts-for=/data" in clock[3]
    assert (data / "timesync").is_dir() and (root / "var/lib/systemd/timesync").is_dir()
    dropin = root / "etc/systemd/system/systemd-timesyncd.service.d/cantstop-card.conf"
    assert "RequiresMountsFor=/var/lib/systemd/timesync" in dropin.read_text()


def test_the_card_gives_its_spi_display_devices_to_spidev_by_driver_override(tmp_path):
    root, boot, data = fake_installed_root(tmp_path)
    card.write_card(root, boot, data, REPO / "deploy/image", (root.stat().st_uid, root.stat().st_gid))
    rule = (root / "etc/udev/rules.d/60-cantstop-card-spidev.rules").read_text()
    assert 'ENV{OF_COMPATIBLE_0}=="cantstop,spi-display"' in rule and 'ATTR{driver_override}="spidev"' in rule
    assert "/sys/bus/spi/drivers/spidev/bind" in rule


def test_the_modules_a_root_loads_are_read_from_modules_load_d_and_etc_modules(tmp_path):
    (tmp_path / "etc/modules-load.d").mkdir(parents=True)
    (tmp_path / "etc/modules-load.d/a.conf").write_text("# the bus\ni2c_dev\n")
    (tmp_path / "etc/modules").write_text("spidev # display\n")
    assert card.modules_loaded(tmp_path) == {"i2c-dev", "spidev"}


# -- the card's own steps at boot -----------------------------------------------------------

def test_the_wifi_file_takes_quotes_comments_a_bom_and_windows_line_ends():
    text = '\ufeff# mine\r\nnetwork = "Home = Net"\r\npassword=pa#ss word1\r\ncountry = de\r\n'
    assert cardsetup.parse_wifi(text.encode().decode("utf-8-sig")) == cardsetup.Wifi("Home = Net", "pa#ss word1", "DE")
    assert cardsetup.parse_wifi("network = Cafe\ncountry = fr\n") == cardsetup.Wifi("Cafe", "", "FR")


@pytest.mark.parametrize("line, value", [
    ("password = 'secret123'", "secret123"), ("password = \u201csecret123\u201d", "secret123"),  # TextEdit's quotes
    ("password = \u2018secret123\u2019", "secret123"), ('password = "secret123" # the router\'s', "secret123"),
    ("password = secret123 # the router's", "secret123"), ("password = secret#123", "secret#123"),
    ('password = "it\'s # not a comment"', "it's # not a comment"),
])
def test_the_wifi_files_values_lose_their_quotes_and_comments(line, value):
    """Issue 45, item 9: the quotes or the comment became part of the password, and the join failed."""
    wifi = cardsetup.parse_wifi(f"network = 'Home'\n{line}\ncountry = GB\n")
    assert (wifi.network, wifi.password) == ("Home", value)


def test_a_wifi_file_with_text_after_its_closing_quote_says_so():
    with pytest.raises(cardsetup.Unusable, match="line 2: 'and more' after the closing quote"):
        cardsetup.parse_wifi('network = Home\npassword = "secret123" and more\ncountry = GB\n')


def test_the_wifi_file_reads_as_utf16_utf8_or_windows_ansi():
    text = "network = Caf\u00e9\npassword = secret123\ncountry = FR\n"
    assert cardsetup.wifi_text(text.encode("utf-16")) == (text, " (UTF-16 text)")  # Notepad's "Unicode"
    assert cardsetup.wifi_text(b"\xef\xbb\xbf" + text.encode()) == (text, "")
    assert cardsetup.wifi_text(text.encode("cp1252")) == (text, " (ANSI text, not UTF-8)")


def test_the_country_comes_from_the_file_or_the_boxs_language_and_is_otherwise_asked_for():
    assert cardsetup.parse_wifi("network = Home\n", "ja") == cardsetup.Wifi("Home", "", "JP", False)
    assert cardsetup.parse_wifi("network = Home\ncountry = de\n", "ko").country == "DE"
    with pytest.raises(cardsetup.Unusable, match="add a line country = your country's two letters"):
        cardsetup.parse_wifi("network = Home\n", "en")


@pytest.mark.parametrize("text, said", [("", "names no network"), ("password = abcdefgh\n", "names no network"),
                                        ("ssid = x\n", "line 1"), ("network = x\npassword = short\n", "8 to 63"),
                                        ("network = " + "x" * 33 + "\n", "32 bytes"),
                                        ("network = x\ncountry = GBR\n", "two letters")])
def test_a_wifi_file_the_card_cannot_use_says_why_in_one_line(text, said):
    with pytest.raises(cardsetup.Unusable) as err:
        cardsetup.parse_wifi(text)
    assert said in str(err.value) and "\n" not in str(err.value)


def test_wpa_supplicant_gets_the_key_not_the_password():
    conf = cardsetup.wpa_conf(cardsetup.Wifi("IEEE", "password", "GB"))
    # IEEE 802.11i's test vector for passphrase "password", SSID "IEEE".
    assert "psk=f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e" in conf
    assert f"ssid={b'IEEE'.hex()}" in conf and "country=GB" in conf and "password" not in conf.split("psk=")[1]
    assert "key_mgmt=NONE" in cardsetup.wpa_conf(cardsetup.Wifi("Cafe", ""))


def test_the_wifi_file_is_read_then_removed_and_a_bad_one_is_left_with_the_reason(tmp_path):
    boot, conf = tmp_path / "boot", tmp_path / "data/etc/wpa.conf"
    boot.mkdir()
    assert "none set" in cardsetup.take_wifi(boot, conf)
    (boot / "wifi.txt").write_text("network = Home\npassword = short\n")
    said = cardsetup.take_wifi(boot, conf)
    assert "not used" in said and "8 to 63" in said and (boot / "wifi.txt").exists() and not conf.exists()
    (boot / "wifi.txt").write_text("network = Home\npassword = long enough\ncountry = GB\n")
    assert cardsetup.take_wifi(boot, conf) == ("Wi-Fi: joining 'Home' (country GB; a 11-character password; "
                                               "read from wifi.txt, which is now removed)")
    assert not (boot / "wifi.txt").exists() and stat.S_IMODE(conf.stat().st_mode) == 0o600
    assert "as set up before" in cardsetup.take_wifi(boot, conf)
    (boot / "wifi.txt").write_bytes(b"x" * (cardsetup.MAX_WIFI_BYTES + 1))
    assert "more than 4096" in cardsetup.take_wifi(boot, conf)


def test_wifi_txt_saved_as_wifi_txt_txt_in_utf16_is_taken_and_the_screen_says_what_was_taken(tmp_path):
    boot, conf = tmp_path / "boot", tmp_path / "data/etc/wpa.conf"
    boot.mkdir()
    (boot / "cantstop-box.toml").write_text('language = "ko"\n')
    (boot / "wifi.txt.txt").write_bytes("network = \u201cCaf\u00e9\u201d\npassword = secret123\n".encode("utf-16"))
    said = cardsetup.take_wifi(boot, conf)
    assert said == ("Wi-Fi: joining 'Caf\u00e9' (country KR from the box's language; a 9-character password; "
                    "read from wifi.txt.txt (UTF-16 text), which is now removed)")
    assert not (boot / "wifi.txt.txt").exists() and "country=KR" in conf.read_text()


def test_a_folder_named_wifi_txt_is_said_on_the_screen_not_only_in_the_journal(tmp_path):
    """Issue 45, item 10: it raised IsADirectoryError, which only the journal saw."""
    boot, conf, folder = tmp_path / "boot", tmp_path / "data/etc/wpa.conf", tmp_path / "run"
    (boot / "wifi.txt").mkdir(parents=True)
    line = cardsetup.wifi(boot, conf, folder)
    assert line == "Wi-Fi: wifi.txt is a folder, not a file: make it a text file"
    assert json.loads((folder / cardsetup.NOTE_FILE).read_text())["state"] == "unusable"


def test_ssh_starts_only_with_a_public_key_on_the_boot_partition(tmp_path):
    boot, ssh = tmp_path / "boot", tmp_path / "ssh"
    boot.mkdir()
    ran = []
    run = lambda argv, **kw: ran.append(argv[0])  # noqa: E731
    assert "off" in cardsetup.take_ssh(boot, ssh, run) and ran == []
    (boot / "ssh.pub").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    assert "not an OpenSSH public key" in cardsetup.take_ssh(boot, ssh, run) and ran == []
    (boot / "ssh.pub").write_text("# mine\nssh-ed25519 AAAAC3Nz me@home\n")
    assert "on for root with the 1 key" in cardsetup.take_ssh(boot, ssh, run)
    assert ran == ["ssh-keygen", "systemctl"] and (ssh / "authorized_keys").read_text() == "ssh-ed25519 AAAAC3Nz me@home\n"
    (boot / "ssh.pub").unlink()
    assert "off" in cardsetup.take_ssh(boot, ssh, run) and not (ssh / "authorized_keys").exists()


def test_the_data_partition_grows_to_the_cards_end_once():
    card_8g = 8 * 1024**3 // 512
    new = cardsetup.grown_size(card_8g, start=2_000_000, size=500_000)
    assert new is not None and 2_000_000 + new <= card_8g and card_8g - (2_000_000 + new) < 8192 and new % 8192 == 0
    assert cardsetup.grown_size(card_8g, 2_000_000, new) is None
    assert cardsetup.grown_size(2**33, 8192, 1000) == (2**32 - 8192) // 8192 * 8192  # an MBR's limit


def test_the_card_is_locked_from_udev_while_its_table_is_rewritten(tmp_path):
    import fcntl
    disk = tmp_path / "vda"
    disk.write_bytes(b"\0" * 4096)
    seen = []

    def run(argv, **kw):
        with open(disk, "rb") as other:  # udev's view: another open of the disk, asking for the lock
            try:
                fcntl.flock(other, fcntl.LOCK_SH | fcntl.LOCK_NB)
                seen.append((argv[0], "unlocked"))
            except BlockingIOError:
                seen.append((argv[0], "locked"))
    cardsetup.rewrite(str(disk), 3, 2_383_872, 4_448_256, run=run)
    assert seen == [("sfdisk", "locked"), ("partx", "locked"), ("udevadm", "unlocked")]


# -- the check's own parts and the packages ---------------------------------------------------

def test_the_check_boots_what_config_txt_names_on_virts_serial_port():
    text = "# Debian\n[all]\nkernel=vmlinuz-6.1.0-41-arm64\ninitramfs initrd.img-6.1.0-41-arm64 followkernel\n"
    assert check.boot_names(text) == ("vmlinuz-6.1.0-41-arm64", "initrd.img-6.1.0-41-arm64")
    with pytest.raises(SystemExit):
        check.boot_names("[all]\n")
    assert check.qemu_cmdline("console=tty0 console=ttyS1,115200 root=LABEL=r rw ro\n") == "root=LABEL=r rw ro console=ttyAMA0"


def test_the_checks_step_runs_last_in_the_initramfs():
    order = '/scripts/init-bottom/cantstop-overlay "$@"\n[ -e /conf/param.conf ] && . /conf/param.conf\n'
    lines = extras.order_with_step(order).splitlines()
    assert lines[0].startswith("/scripts/init-bottom/cantstop-overlay")
    assert lines[-2] == '/scripts/init-bottom/cantstop-check "$@"'
    assert "overlay" in extras.STEP and "i2c-dev" not in extras.STEP + extras.MODULES_DROPIN


def test_the_checks_modules_load_by_path_with_no_depmod_before_udevs_coldplug():
    """A depmod -a of the card's module tree in the emulator outlasted the devices' 90 s: emergency mode."""
    dropin = extras.MODULES_DROPIN.format(extra=extras.EXTRA.format(version="6.1.0-50-arm64"))
    script = extras.sim_board_script("6.1.0-50-arm64")
    assert "depmod" not in dropin + script and "modprobe" not in dropin + script
    assert "insmod /usr/lib/modules/6.1.0-50-arm64/extra/i2c-sink.ko" in dropin
    assert "insmod /usr/lib/modules/6.1.0-50-arm64/extra/gpio-sim.ko" in script
    assert "pi-header" in script and "num_lines" in script  # the rest of the board as boot-check makes it


def test_both_targets_list_the_packages_they_install_on_a_fresh_machine():
    build = set(hosttools.packages(hosttools.BUILD))
    assert {"debootstrap", "qemu-user-static", "dosfstools", "mtools", "fdisk", "bmap-tools", "xz-utils",
            "zstd", "e2fsprogs", "openssh-client"} <= build
    checking = set(hosttools.packages(hosttools.CHECK, hosttools.CHECK_FILES))
    assert {"qemu-system-arm", "ipxe-qemu", "qemu-utils", "linux-source-6.1", "cpio", "mtools", "openssh-client"} <= checking
    assert hosttools.missing({"sh": "dash", "no-such-tool-here": "nothing"}, {"/no/such/file": "x"}) == ["nothing", "x"]


def test_image_check_takes_the_newest_card_make_image_wrote_xz_or_zstd(tmp_path):
    from tools.image import build, layout

    raw = tmp_path / build.image_name(build.version())
    assert build.built_card(tmp_path).name == raw.name + ".xz"  # none yet: the release's name, for its error
    zst, xz = build.compressed_name(raw, "zst"), build.compressed_name(raw, "xz")
    xz.write_bytes(b"old")
    zst.write_bytes(b"new")
    os.utime(xz, (1_000_000, 1_000_000))
    assert build.built_card(tmp_path) == zst
    os.utime(zst, (900_000, 900_000))
    assert build.built_card(tmp_path) == xz
    assert layout.UNPACKERS[".zst"][0] == "zstd" and layout.UNPACKERS[".xz"][0] == "xz"


def test_the_card_leaves_apts_downloads_and_lists_behind_and_keeps_its_folders(tmp_path):
    from tools.image.build import drop_apt_leftovers

    archives, lists = tmp_path / "var/cache/apt/archives", tmp_path / "var/lib/apt/lists"
    (archives / "partial").mkdir(parents=True)
    (lists / "partial").mkdir(parents=True)
    (archives / "python3-pil_9.4.0-1.1_arm64.deb").write_bytes(b"x" * 1000)
    (archives / "lock").write_bytes(b"")
    (tmp_path / "var/cache/apt/pkgcache.bin").write_bytes(b"y" * 200)
    (lists / "deb.debian.org_debian_dists_bookworm_main_binary-arm64_Packages").write_bytes(b"z" * 300)
    (lists / "lock").write_bytes(b"")
    assert drop_apt_leftovers(tmp_path) == 1500
    assert sorted(p.name for p in archives.iterdir()) == ["lock", "partial"]
    assert sorted(p.name for p in lists.iterdir()) == ["lock", "partial"]
    assert not (tmp_path / "var/cache/apt/pkgcache.bin").exists()


def test_the_card_drops_manuals_documents_and_translations_but_keeps_every_copyright(tmp_path):
    from tools.image.build import drop_docs

    share = tmp_path / "usr/share"
    for name, size in (("doc/python3/copyright", 10), ("doc/python3/changelog.Debian.gz", 100),
                       ("doc/libc6/README", 20), ("man/man1/ls.1.gz", 30), ("info/dir", 5),
                       ("locale/ja/LC_MESSAGES/coreutils.mo", 40), ("locale/locale.alias", 7)):
        (share / name).parent.mkdir(parents=True, exist_ok=True)
        (share / name).write_bytes(b"x" * size)
    (share / "doc/python3.11").symlink_to("python3")
    assert drop_docs(tmp_path) == 100 + 20 + 30 + 5 + 40 + len("python3")
    assert sorted(str(p.relative_to(share)) for p in share.rglob("*") if p.is_file()) == [
        "doc/python3/copyright", "locale/locale.alias"]
    assert not (share / "doc/libc6").exists() and not (share / "man/man1").exists()
