"""The box's network on its screen: its address as the menu's last row, and a Wi-Fi that failed, said once.

The daemon feeds :class:`~firmware.ui.messages.NetworkSeen` when the network status changes (and
again while a problem waits to be said). A problem (a refused password, a network not joined, no
``wifi.txt``, one the card could not use) is said in one line on a notice of its own, over a screen
where nothing is waiting (the new-game screen, a game a person plays, the menu, another notice), and
ROLL goes back; the box plays on without the network whatever it says.
"""

from __future__ import annotations

from dataclasses import replace

from .messages import NetworkSeen
from .model import App, MessageScreen, Screen, box_due

#: The screens a notice may cover: nothing there waits for an answer or a timer.
_CALM = {Screen.SETUP, Screen.GAME, Screen.MENU, Screen.MESSAGE}


def wifi_problem(seen: NetworkSeen | None) -> str:
    """The Wi-Fi problem to say (a key of :func:`firmware.words.wifi_problem_line`), "" for none.

    No ``wifi.txt`` is a problem only while the box has no address at all (a cable serves it well)."""
    if seen is None or not seen.known:
        return ""
    if seen.wifi == "failed":
        return "wrong_key" if seen.reason == "WRONG_KEY" else "failed"
    if seen.wifi == "unusable" or (seen.wifi == "none" and not seen.addresses):
        return seen.wifi
    return ""


def _said_key(seen: NetworkSeen | None) -> str:
    problem = wifi_problem(seen)
    return f"{problem}:{seen.network}" if problem else ""


def network_unsaid(app: App) -> bool:
    """A Wi-Fi problem is known that the screen has not said yet (it waits for a calm screen)."""
    key = _said_key(app.network)
    return bool(key) and key != app.wifi_said


def on_network(app: App, seen: NetworkSeen) -> App:
    """The status taken in: the menu's row follows it; a new problem is said once, when the screen is calm."""
    app = replace(app, network=seen if seen.known else None)
    if not network_unsaid(app):
        return app
    if app.screen.kind not in _CALM or box_due(app):
        return app  # said when the daemon feeds the status again on a calm screen
    title, lines = app.words.wifi_notice(wifi_problem(seen), seen.network)
    return replace(app, screen=MessageScreen(title, lines, back=app.screen), wifi_said=_said_key(seen))


def network_lines(app: App) -> tuple[str, ...]:
    """The Network screen (the menu's row chosen): the ``.local`` name, every address, the Wi-Fi."""
    seen, w = app.network, app.words
    lines = ((seen.local,) if seen.local else ()) + (seen.addresses or (w.network_row(()),))
    problem = wifi_problem(seen)
    if problem:
        return lines + (w.wifi_problem_line(problem, seen.network),)
    return lines + w.wifi_state_lines(seen.wifi, seen.network)
