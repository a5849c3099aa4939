"""image-check's Wi-Fi rows: a refused password and a joined network, over radios the guest's kernel simulates.

QEMU's virt board has no radio, so the card's own kernel module ``mac80211_hwsim`` makes two in the
guest (wlan0 and wlan1, one simulated air between them), and a second ``wpa_supplicant``, the card's
own program in its access-point mode, serves the check's network "image-check" on wlan1. The box's
side is the card's, untouched: ``wpa_supplicant@wlan0`` with the key the first boot made from
``wifi.txt``, ``cantstop-box-network`` writing what it sees, the box saying it on its screen.

- **refused**: the access point asks for another password than wifi.txt's. wpa_supplicant on wlan0
  reports WRONG_KEY; the status file must say ``failed``/``WRONG_KEY`` for "image-check", and the
  box's screen must be the emulator's screen given that same status (its one-line notice).
- **joined**: the access point then asks for wifi.txt's password: the status file must say
  ``joined`` "image-check", with no step on the box's side (wpa_supplicant retries by itself).

Nothing here is written to the image: the access point's settings go to /run, in the RAM overlay.
"""

from __future__ import annotations

import json
import time

from tools.bootcheck.board import Board, same
from tools.bootcheck.check_lamps import box_settings
from tools.bootcheck.check_steps import guest_network
from tools.bootcheck.reference import Reference

C_REFUSED, C_JOINED = ("a refused Wi-Fi password said in one line on the box's screen",
                       "the Wi-Fi joined with the key made from wifi.txt")
ROWS = [C_REFUSED, C_JOINED]
NETWORK = "image-check"
PASSWORD = "not-a-real-password"  # wifi.txt's, on the card's copy (tools/image/check.py)
WRONG = "the-access-points-own"  # the access point's password while the box's must be refused
AP_CONF = "/run/cantstop-check-ap.conf"
AP_PID = "/run/cantstop-check-ap.pid"
WAIT = 150.0  # seconds for wpa_supplicant (emulated, no KVM) to give up on a key, or to join
SHOWN = 30.0  # seconds for the box to say what the status file says (it looks every few seconds)


def ap_settings(password: str) -> str:
    """wpa_supplicant's settings for an access point (mode=2) serving NETWORK with WPA2-PSK ``password``."""
    return (f"ctrl_interface=/run/cantstop-check-ap\n"
            f"network={{\n ssid=\"{NETWORK}\"\n mode=2\n frequency=2412\n key_mgmt=WPA-PSK\n proto=RSN\n"
            f" pairwise=CCMP\n group=CCMP\n psk=\"{password}\"\n}}\n")


def _wifi(board: Board) -> dict:
    """The Wi-Fi part of the box's network status file as its daemon reads it ({} when the file is not there,
    not JSON, or has none)."""
    try:
        wifi = json.loads(guest_network(board) or "{}").get("wifi")
    except (ValueError, AttributeError):  # not JSON, or JSON but not an object
        return {}
    return wifi if isinstance(wifi, dict) else {}


def serve(board: Board, password: str) -> None:
    """(Re)start the access point on wlan1 asking for ``password``."""
    board.guest.write(AP_CONF, ap_settings(password).encode())
    board.guest.sh(f"test -f {AP_PID} && kill $(cat {AP_PID}); sleep 1; "
                   f"wpa_supplicant -B -D nl80211 -i wlan1 -c {AP_CONF} -P {AP_PID}")


def wait_for(board: Board, wanted, timeout: float = WAIT) -> tuple[bool, dict, float]:
    """Poll the status file until ``wanted(wifi)``: (whether it came, the last Wi-Fi part seen, seconds)."""
    t = time.monotonic()
    wifi = {}
    while time.monotonic() - t < timeout:
        wifi = _wifi(board)
        if wanted(wifi):
            return True, wifi, time.monotonic() - t
        time.sleep(2)
    return False, wifi, time.monotonic() - t


def check_wifi(board: Board) -> None:
    """The two rows on a booted card (its wifi.txt read at the first boot)."""
    report, sh = board.report, board.guest.sh
    t = time.monotonic()
    made = sh("modprobe mac80211_hwsim radios=2 && udevadm settle && ls /sys/class/net")
    radios = made.stdout.split()
    if made.returncode != 0 or not {"wlan0", "wlan1"} <= set(radios):
        detail = f"no simulated radios: {(made.stderr or made.stdout).strip()[:100]}"
        report.add(C_REFUSED, False, time.monotonic() - t, detail)
        report.add(C_JOINED, False, None, "not tried: " + detail)
        return
    serve(board, WRONG)
    sh("systemctl restart wpa_supplicant@wlan0.service")  # it found no wlan0 at the boot
    refused, wifi, took = wait_for(board, lambda w: w.get("state") == "failed")
    said = refused and wifi.get("reason") == "WRONG_KEY" and wifi.get("network") == NETWORK
    screen_same, kind = False, "?"
    if said:
        reference = Reference(box_settings(), [], network=guest_network(board))
        try:
            reference.wait(SHOWN / 2)  # as the booted box has had: the status read, the notice drawn
            expected, kind = reference.screen, type(reference.box.last_view).__name__
        finally:
            reference.close()
        end = time.monotonic() + SHOWN
        while not screen_same and time.monotonic() < end:
            shown = board.screen()
            screen_same = same(shown, expected)
            if not screen_same:
                time.sleep(1)
        if not screen_same:
            shown.save(board.workdir / "wifi-refused-booted.png")
            expected.save(board.workdir / "wifi-refused-emulator.png")
    report.add(C_REFUSED, said and screen_same, time.monotonic() - t,
               f"status {wifi.get('state', '?')} {wifi.get('reason', '')} '{wifi.get('network', '')}' after {took:.0f} s; "
               + (f"the screen as the emulator's ({kind})" if screen_same else
                  f"the screen differs (PNGs in {board.workdir})" if said else "never refused"))
    t = time.monotonic()
    serve(board, PASSWORD)
    joined, wifi, took = wait_for(board, lambda w: w.get("state") == "joined")
    report.add(C_JOINED, joined and wifi.get("network") == NETWORK, time.monotonic() - t,
               f"status {wifi.get('state', '?')} '{wifi.get('network', '')}' {took:.0f} s after the access point "
               f"took wifi.txt's password")

