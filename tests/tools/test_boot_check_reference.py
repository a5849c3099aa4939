"""The boot check's emulator box shows the booted box's network row: their menus are compared screen for screen."""

from __future__ import annotations

import json

from tools.bootcheck.check_lamps import box_settings
from tools.bootcheck.reference import Reference

STATUS = json.dumps({"host": "cantstop-vm", "local": "cantstop-vm.local", "addresses": ["10.0.2.15"],
                     "wifi": {"state": "none"}})


def _menu_items(network):
    reference = Reference(box_settings(), [], network=network)
    try:
        reference.press("MENU")
        return list(reference.box.last_view.items)
    finally:
        reference.close()


def test_the_emulator_menu_has_the_booted_boxs_address_row_only_when_the_guest_has_a_status():
    """A run found the booted menu 1/10 and the emulator's 1/9: the guest's network service had written its file."""
    with_status, without = _menu_items(STATUS), _menu_items(None)
    assert len(with_status) == len(without) + 1
    # the address's row is the one above the Phone screen's, the menu's last
    assert "10.0.2.15" in with_status[-2] and all("10.0.2.15" not in item for item in without)
