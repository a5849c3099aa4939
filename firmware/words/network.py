"""Words about the box's network: the menu's address row, the Network screen, a Wi-Fi that failed."""

from __future__ import annotations

from ..i18n import N_
from .marks import _

# TRANSLATORS: title of the screen with the box's name and addresses on the home network.
NETWORK = N_("Network")
# TRANSLATORS: title of the notice when the box could not join the Wi-Fi (it plays offline).
WIFI = N_("Wi-Fi")


def network_row(addresses: tuple[str, ...]) -> str:
    """The menu's last row: the box's address on the home network (a phone's browser opens it)."""
    # TRANSLATORS: the menu's row when the box has no address on any network.
    return addresses[0] if addresses else _("No network")


def wifi_problem_line(problem: str, network: str) -> str:
    """One line on why the box is not on the Wi-Fi; {network} is the Wi-Fi's name, as wifi.txt gave it."""
    if problem == "wrong_key":
        # TRANSLATORS: {network} is the name of a Wi-Fi network; the password in wifi.txt was refused.
        return _("Could not join '{network}' (wrong password?)").format(network=network)
    if problem == "failed":
        return _("Could not join '{network}'").format(network=network)
    if problem == "none":
        # TRANSLATORS: keep wifi.txt as it is: the name of the file on the card's boot partition.
        return _("None set: put wifi.txt on the card")
    # TRANSLATORS: keep wifi.txt as it is: the file on the card was there but could not be read.
    return _("wifi.txt could not be used: check it")


def wifi_notice(problem: str, network: str) -> tuple[str, tuple[str, ...]]:
    """(title, lines) of the notice the box shows once when the Wi-Fi did not work."""
    return WIFI, (wifi_problem_line(problem, network),)


def wifi_state_lines(state: str, network: str) -> tuple[str, ...]:
    """The Network screen's Wi-Fi line when nothing is wrong (none when the box cannot tell)."""
    if state == "joined":
        return (_("Wi-Fi: {network}").format(network=network),)
    if state == "joining":
        return (_("Wi-Fi: joining {network}").format(network=network),)
    return ()
