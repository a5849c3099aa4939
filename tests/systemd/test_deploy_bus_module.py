"""install.sh loads the display's bus module at every boot (issue 33, 5): on Raspberry Pi OS /dev/i2c-1
appears only with i2c-dev loaded, which raspi-config lists when it turns I2C on and this install did not.
(Settings naming no bus: see test_deploy_boot_config.py's unreadable settings.)"""

from __future__ import annotations

from tests.kit.deploykit import INSTALL, UNINSTALL, files_under, run

CONF = "etc/modules-load.d/cantstop-box.conf"


def modules(root) -> list[str]:
    """The modules the box's modules-load.d file names (its comments left out)."""
    text = (root / CONF).read_text()
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_deploy_install_loads_i2c_dev_at_boot_once_and_uninstall_takes_only_its_file(root):
    (root / "etc/modules-load.d").mkdir(parents=True)
    (root / "etc/modules-load.d/owner.conf").write_text("i2c-dev\n")
    out = run(INSTALL, "--root", str(root)).stdout
    assert modules(root) == ["i2c-dev"]
    assert oct((root / CONF).stat().st_mode & 0o777) == "0o644"
    assert "i2c-dev is loaded at every boot (/etc/modules-load.d/cantstop-box.conf)" in out
    record = (root / "opt/cantstop-box/install.record").read_text().splitlines()
    assert "modules-load /etc/modules-load.d/cantstop-box.conf" in record
    assert "modprobe" not in out  # no running system under --root: it loads at the next boot
    before = files_under(root)
    again = run(INSTALL, "--root", str(root)).stdout
    assert "i2c-dev is loaded at boot already (/etc/modules-load.d/cantstop-box.conf)" in again
    assert files_under(root) == before
    shown = run(UNINSTALL, "--dry-run", "--root", str(root)).stdout
    assert f"would run: rm -f {root}/{CONF}" in shown and (root / CONF).exists()
    run(UNINSTALL, "--root", str(root))
    assert not (root / CONF).exists()
    assert (root / "etc/modules-load.d/owner.conf").read_text() == "i2c-dev\n"


def test_deploy_install_dry_run_shows_the_bus_module_and_an_spi_display_gets_spidev(root):
    out = run(INSTALL, "--dry-run", "--root", str(root)).stdout
    assert f"would write {root}/{CONF}: i2c-dev, loaded at every boot" in out
    assert not (root / CONF).exists()
    (root / "etc/cantstop-box").mkdir(parents=True)
    (root / "etc/cantstop-box/config.toml").write_text('[display]\ndriver = "ssd1322"\ninterface = "spi"\n')
    out = run(INSTALL, "--root", str(root)).stdout
    assert modules(root) == ["spidev"] and "spidev is loaded at every boot" in out
