"""What make image takes off the card's root (tools/image/slim.py): each rule on small tables, then the
modules rule against the boards' own trees as kept from today's card (tests/fixtures/card-10db1a9)."""

from __future__ import annotations

from pathlib import Path

from tools.image import boards, slim
from tools.image.cardfacts import parse_aliases, tree_compatibles

TODAY = Path(__file__).resolve().parents[1] / "fixtures/card-10db1a9"

DEP = """\
kernel/drivers/net/ethernet/intel/e1000e/e1000e.ko:
kernel/drivers/net/usb/r8152.ko: kernel/drivers/net/mii.ko
kernel/drivers/net/mii.ko:
kernel/drivers/mmc/host/sdhci-iproc.ko: kernel/drivers/mmc/host/sdhci-pltfm.ko
kernel/drivers/mmc/host/sdhci-pltfm.ko:
kernel/drivers/mmc/host/sdhci-msm.ko: kernel/drivers/mmc/host/sdhci-pltfm.ko
kernel/fs/ext4/ext4.ko:
kernel/drivers/virtio/virtio_pci.ko:
kernel/drivers/net/ethernet/realtek/r8169.ko: kernel/drivers/net/phy/realtek.ko
kernel/drivers/net/phy/realtek.ko:
kernel/drivers/usb/storage/uas.ko: kernel/drivers/scsi/libfc.ko
kernel/drivers/scsi/libfc.ko:
kernel/drivers/i2c/busses/i2c-designware-pci.ko:
kernel/drivers/thermal/intel/int340x.ko:
kernel/drivers/usb/host/xhci-pci.ko: kernel/drivers/usb/host/xhci-pci-renesas.ko
kernel/drivers/usb/host/xhci-pci-renesas.ko:
kernel/drivers/nvme/host/nvme.ko:
"""
ALIAS = """\
alias pci:v00008086d000010D3sv*sd*bc*sc*i* e1000e
alias usb:v0BDAp8152d*dc*dsc*dp*ic*isc*ip*in* r8152
alias of:N*T*Cbrcm,bcm2711-emmc2 sdhci_iproc
alias of:N*T*Cbrcm,bcm2711-emmc2C* sdhci_iproc
alias of:N*T*Cqcom,sdhci-msm-v4 sdhci_msm
alias of:N*T*Cqcom,sdhci-msm-v4C* sdhci_msm
alias fs-ext4 ext4
alias pci:v00001AF4d*sv*sd*bc*sc*i* virtio_pci
alias pci:v000010ECd00008168sv*sd*bc*sc*i* r8169
alias mdio:0000000000011100110010010001???? realtek
alias usb:v*p*d*dc*dsc*dp*ic08isc06ip62in* uas
alias pci:v00008086d00009D60sv*sd*bc*sc*i* i2c_designware_pci
alias acpi*:INT3400:* int340x
alias dmi*:svnIntel* int340x
alias pci:v*d*sv*sd*bc0Csc03i30* xhci_pci
alias pci:v00001912d00000014sv*sd*bc*sc*i* xhci_pci_renesas
alias pci:v*d*sv*sd*bc01sc08i02* nvme
"""
BOARD = {"brcm,bcm2711-emmc2", "brcm,bcm2711"}


def dropped(loaded=frozenset()) -> set[str]:
    gone = slim.unneeded(slim.parse_deps(DEP), parse_aliases(ALIAS), BOARD, set(loaded))
    return {Path(p).name for p in gone}


def test_a_module_only_for_pci_acpi_or_dmi_devices_goes():
    assert {"e1000e.ko", "i2c-designware-pci.ko", "int340x.ko", "r8169.ko"} <= dropped()


def test_a_module_for_a_compatible_no_board_has_goes_and_one_a_board_has_stays():
    assert "sdhci-msm.ko" in dropped()
    assert "sdhci-iproc.ko" not in dropped()


def test_what_a_kept_module_needs_stays_even_when_only_another_would_have_dropped_it():
    gone = dropped()
    assert "sdhci-pltfm.ko" not in gone  # needed by sdhci-iproc (and sdhci-msm, which goes)
    assert "mii.ko" not in gone  # needed by r8152, a USB adapter any Pi can take
    assert "libfc.ko" not in gone  # no alias of its own, and needed by uas


def test_modules_with_no_alias_usb_ones_and_other_buses_stay():
    gone = dropped()
    assert not {"ext4.ko", "r8152.ko", "uas.ko"} & gone
    assert "realtek.ko" not in gone  # an mdio PHY: a USB or the Pi 4's own MAC may carry it


def test_pci_drivers_that_match_by_class_stay_for_the_pi_4s_usb_and_a_cm4s_slot():
    gone = dropped()
    assert not {"xhci-pci.ko", "nvme.ko"} & gone  # the VL805 behind a Pi 4's USB ports; an NVMe on a CM4
    assert "xhci-pci-renesas.ko" not in gone  # a vendor's own, but xhci-pci needs it
    assert not slim.absent("pci:v00001106d00003483sv*sd*bc*sc*i*", BOARD)  # the VL805 by name
    assert slim.absent("pci:v000014E4d000016A0sv*sd*bc*sc*i*", BOARD)


def test_virtio_and_what_the_card_loads_by_name_stay():
    assert "virtio_pci.ko" not in dropped()  # QEMU's virt board, for image-check
    assert "e1000e.ko" not in dropped({"e1000e"})
    assert "i2c-designware-pci.ko" not in dropped({"i2c-designware-pci"})  # hyphen or underscore


def test_the_alias_tables_parse_as_the_kernel_writes_them():
    deps = slim.parse_deps(DEP)
    assert deps["kernel/drivers/net/usb/r8152.ko"] == ["kernel/drivers/net/mii.ko"]
    assert parse_aliases(ALIAS)["sdhci_iproc"] == ["of:N*T*Cbrcm,bcm2711-emmc2", "of:N*T*Cbrcm,bcm2711-emmc2C*"]
    assert slim.absent("of:N*T*Cqcom,sdhci-msm-v4C*", BOARD)
    assert not slim.absent("of:N*T*Cbrcm,bcm2711-emmc2C*", BOARD)
    assert not slim.absent("fs-ext4", BOARD)
    assert not slim.absent("of:NgpioT*C*", BOARD)  # no compatible named: not judged absent on an unreadable alias


def test_the_boards_own_trees_keep_each_pi_controller_the_card_needs():
    trees = [(TODAY / b.dtb).read_bytes() for b in boards.BOARDS]
    have = tree_compatibles(trees)
    # The SD controllers, the header's I2C and SPI, the Pi 4's Ethernet and the Wi-Fi's SDIO host.
    for needed in ("brcm,bcm2711-emmc2", "brcm,bcm2835-sdhost", "brcm,bcm2835-i2c", "brcm,bcm2835-spi",
                   "brcm,bcm2711-genet-v5", "brcm,bcm2835-sdhci"):
        assert needed in have
        assert not slim.absent(f"of:N*T*C{needed}C*", have)
    assert slim.absent("of:N*T*Cqcom,sdhci-msm-v4C*", have)
    assert slim.absent("of:N*T*Crockchip,rk3399-dw-pcieC*", have)


def test_other_vendors_trees_go_and_the_pis_stay(tmp_path):
    top = tmp_path / "usr/lib/linux-image-6.1.0-50-arm64"
    for vendor in ("broadcom", "qcom", "rockchip"):
        (top / vendor).mkdir(parents=True)
        (top / vendor / f"{vendor}-board.dtb").write_bytes(b"x" * 100)
    assert slim.drop_other_trees(tmp_path, "6.1.0-50-arm64") == 200
    assert sorted(p.name for p in top.iterdir()) == ["broadcom"]
    assert slim.drop_other_trees(tmp_path, "6.1.0-9-arm64") == 0  # no such folder: nothing to do


def test_the_roots_copy_of_the_kernel_goes_and_its_config_stays(tmp_path):
    boot = tmp_path / "boot"
    (boot / "firmware").mkdir(parents=True)
    for name in ("vmlinuz-6.1.0-50-arm64", "initrd.img-6.1.0-50-arm64", "System.map-6.1.0-50-arm64",
                 "config-6.1.0-50-arm64"):
        (boot / name).write_bytes(b"k" * 10)
    assert slim.drop_boot_copy(tmp_path) == 30
    assert sorted(p.name for p in boot.iterdir()) == ["config-6.1.0-50-arm64", "firmware"]


def test_the_venvs_installers_go_and_its_packages_stay(tmp_path):
    site = tmp_path / "venv/lib/python3.11/site-packages"
    for name in ("pip", "pip-23.0.1.dist-info", "setuptools", "setuptools-66.1.1.dist-info", "pkg_resources",
                 "_distutils_hack", "luma", "luma.core-2.4.2.dist-info", "gpiozero", "pipx_helper"):
        (site / name).mkdir(parents=True)
        (site / name / "x.py").write_text("x = 1\n")
    (site / "distutils-precedence.pth").write_text("import os\n")
    bin_ = tmp_path / "venv/bin"
    bin_.mkdir()
    for name in ("pip", "pip3", "pip3.11", "python3", "cantstop-box"):
        (bin_ / name).write_text("#!/bin/sh\n")
    assert slim.drop_installers(tmp_path / "venv") > 0
    assert sorted(p.name for p in site.iterdir()) == ["gpiozero", "luma", "luma.core-2.4.2.dist-info", "pipx_helper"]
    assert sorted(p.name for p in bin_.iterdir()) == ["cantstop-box", "python3"]


def test_wifi_firmware_stays_for_the_boards_chips_and_what_it_links_to(tmp_path):
    brcm, cypress = tmp_path / "usr/lib/firmware/brcm", tmp_path / "usr/lib/firmware/cypress"
    brcm.mkdir(parents=True)
    cypress.mkdir()
    for name in ("cyfmac43455-sdio.bin", "cyfmac43455-sdio.clm_blob", "cyfmac4356-pcie.bin"):
        (cypress / name).write_bytes(b"f" * 100)
    (brcm / "brcmfmac43455-sdio.bin").symlink_to("../cypress/cyfmac43455-sdio.bin")
    (brcm / "brcmfmac43455-sdio.clm_blob").symlink_to("../cypress/cyfmac43455-sdio.clm_blob")
    (brcm / "brcmfmac43455-sdio.raspberrypi,4-model-b.txt").write_text("nvram\n")
    (brcm / "brcmfmac43456-sdio.bin").write_bytes(b"g" * 100)
    (brcm / "brcmfmac4356-pcie.bin").symlink_to("../cypress/cyfmac4356-pcie.bin")
    (brcm / "brcmfmac4350-pcie.bin").write_bytes(b"h" * 100)
    (brcm / "brcmfmac43455-sdio-extra.txt").write_text("not this chip's\n")
    slim.drop_wifi_firmware(tmp_path, {c.firmware for b in boards.BOARDS for c in b.chips})
    assert sorted(p.name for p in brcm.iterdir()) == ["brcmfmac43455-sdio.bin", "brcmfmac43455-sdio.clm_blob",
                                                      "brcmfmac43455-sdio.raspberrypi,4-model-b.txt",
                                                      "brcmfmac43456-sdio.bin"]
    assert sorted(p.name for p in cypress.iterdir()) == ["cyfmac43455-sdio.bin", "cyfmac43455-sdio.clm_blob"]
    assert (brcm / "brcmfmac43455-sdio.bin").read_bytes() == b"f" * 100  # its link still resolves


def test_the_gpu_firmwares_variants_go_unless_config_txt_asks_for_one(tmp_path):
    names = ["start.elf", "start4.elf", "fixup.dat", "fixup4.dat", "bootcode.bin", "start_x.elf", "start4x.elf",
             "start_db.elf", "start4db.elf", "start_cd.elf", "start4cd.elf", "fixup_x.dat", "fixup4x.dat",
             "fixup_db.dat", "fixup4db.dat", "fixup_cd.dat", "fixup4cd.dat"]
    for name in names:
        (tmp_path / name).write_bytes(b"e" * 10)
    (tmp_path / "config.txt").write_text("arm_64bit=1\nupstream_kernel=1\n# start_x=1 is only a comment\n")
    assert slim.drop_gpu_variants(tmp_path) == 120
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bootcode.bin", "config.txt", "fixup.dat", "fixup4.dat",
                                                          "start.elf", "start4.elf"]
    for name in names:
        (tmp_path / name).write_bytes(b"e" * 10)
    (tmp_path / "config.txt").write_text("arm_64bit=1\nstart_x=1\n")
    assert slim.drop_gpu_variants(tmp_path) == 0


AUX_DEP = """\
kernel/drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.ko:
kernel/drivers/infiniband/hw/mlx5/mlx5_ib.ko: kernel/drivers/net/ethernet/mellanox/mlx5/core/mlx5_core.ko kernel/drivers/infiniband/core/ib_core.ko
kernel/drivers/infiniband/core/ib_core.ko:
kernel/drivers/scsi/qla2xxx/qla2xxx.ko:
kernel/drivers/scsi/qla2xxx/tcm_qla2xxx.ko: kernel/drivers/scsi/qla2xxx/qla2xxx.ko kernel/drivers/target/target_core_mod.ko
kernel/drivers/target/target_core_mod.ko:
kernel/drivers/usb/misc/usbparent.ko:
kernel/drivers/usb/misc/usbparent_aux.ko: kernel/drivers/usb/misc/usbparent.ko
kernel/lib/test_bpf.ko:
kernel/lib/crc8.ko:
"""
AUX_ALIAS = """\
alias pci:v000015B3d0000A2DFsv*sd*bc*sc*i* mlx5_core
alias auxiliary:mlx5_core.eth mlx5_core
alias auxiliary:mlx5_core.rdma mlx5_ib
alias pci:v00001077d00002289sv*sd*bc*sc*i* qla2xxx
alias usb:v1234p5678d*dc*dsc*dp*ic*isc*ip*in* usbparent
alias auxiliary:usbparent.part usbparent_aux
"""


def test_an_auxiliary_driver_goes_with_its_parents_and_a_module_that_cannot_load_goes_too():
    gone = {Path(p).name for p in slim.unneeded(slim.parse_deps(AUX_DEP), parse_aliases(AUX_ALIAS), BOARD, set())}
    assert {"mlx5_core.ko", "mlx5_ib.ko"} <= gone  # a PCI card's driver, and its RDMA part on its auxiliary bus
    assert "usbparent_aux.ko" not in gone  # the auxiliary part of a USB device's driver, which stays
    assert "tcm_qla2xxx.ko" in gone  # no device of its own, and it needs qla2xxx, which goes
    assert not {"ib_core.ko", "target_core_mod.ko", "crc8.ko"} & gone  # no alias, nothing gone under them
    assert "test_bpf.ko" in gone  # the kernel's own self-test
