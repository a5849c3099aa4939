"""image-check's Wi-Fi rows (tools/image/check_wifi.py): what it asks of the guest, and what it reads back."""

from __future__ import annotations

from deploy.image import cardsetup
from tools.image import check, check_wifi


def test_the_access_point_serves_the_cards_network_with_wpa2_and_a_password_of_its_choosing():
    conf = check_wifi.ap_settings("something-else")
    assert 'ssid="image-check"' in conf and "mode=2" in conf  # an access point, not a client
    assert "key_mgmt=WPA-PSK" in conf and "proto=RSN" in conf and 'psk="something-else"' in conf
    assert "frequency=2412" in conf  # channel 1: allowed in every country's rules
    assert check_wifi.AP_CONF.startswith("/run/")  # the RAM overlay, never the image


def test_the_card_gets_the_password_the_joined_row_serves_and_the_refused_row_does_not():
    # the wifi.txt image-check puts on the card, read as the card's first boot reads it
    assert cardsetup.parse_wifi(check.WIFI_TEXT) == cardsetup.Wifi(check_wifi.NETWORK, check_wifi.PASSWORD, "GB")
    assert check_wifi.WRONG != check_wifi.PASSWORD and 8 <= len(check_wifi.WRONG) <= 63  # as WPA2 asks


class _Guest:
    def __init__(self, text):
        self.text = text

    def read(self, path):
        if self.text is None:
            raise RuntimeError(f"no {path}")
        return self.text.encode()


class _Board:
    def __init__(self, text):
        self.guest = _Guest(text)


def test_the_status_file_is_read_as_the_box_reads_it_and_anything_else_is_nothing():
    refused = '{"wifi": {"state": "failed", "network": "image-check", "reason": "WRONG_KEY"}}'
    assert check_wifi._wifi(_Board(refused)) == {"state": "failed", "network": "image-check", "reason": "WRONG_KEY"}
    for text in (None, "not json", "[1, 2]", '{"wifi": "joined"}'):
        assert check_wifi._wifi(_Board(text)) == {}


def test_only_wifi_plans_the_first_boots_rows_then_the_wifi_rows_and_the_whole_run_ends_with_them():
    assert check.PLANNED_WIFI[-2:] == check_wifi.ROWS and check.C_WIFI in check.PLANNED_WIFI
    assert check.PLANNED[-3:-1] == check_wifi.ROWS and check.PLANNED[-1] == check.C_NEVER


def test_the_emulators_box_given_a_refused_password_says_it_in_one_line_as_the_booted_one_must():
    """What the refused row compares the booted box's screen with: the emulator's box, given the same status."""
    import json

    from tools.bootcheck.check_lamps import box_settings
    from tools.bootcheck.reference import Reference

    refused = {"host": "cantstop", "local": "cantstop.local", "addresses": [], "card": None,
               "wifi": {"state": "failed", "network": check_wifi.NETWORK, "reason": "WRONG_KEY"}}
    reference = Reference(box_settings(), [], network=json.dumps(refused))
    try:
        assert type(reference.box.last_view).__name__ == "SetupView"  # not yet: the status is read in a moment
        reference.wait(check_wifi.SHOWN / 2)
        view = reference.box.last_view
        assert type(view).__name__ == "MessageView"
        assert view.lines == (f"Could not join '{check_wifi.NETWORK}' (wrong password?)",)
    finally:
        reference.close()
