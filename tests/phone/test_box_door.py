"""The box's socket for a paired phone: a change taken in the loop like a press, checked like the command line."""

from __future__ import annotations

import socket
import pytest

from firmware import views
from firmware.config import GameConfig
from firmware.table import phone_link as link, roster as R
from tests.kit.rig import Rig


@pytest.fixture
def rig(tmp_path):
    r = Rig(tmp_path, settings=GameConfig(roster=("Bob",)), live=True)
    r.box.open_door(tmp_path)
    yield r
    r.shutdown()


def _names(rig):
    return R.load(rig.store, ()).names


def test_a_name_added_through_the_socket_is_kept_offered_and_said_on_the_screen(rig, tmp_path):
    answer = link.ask(tmp_path, {"do": "add", "name": "Ａｎｎ"})
    assert answer["ok"] and answer["said"] == "Ann added from a phone"
    assert _names(rig) == ("Bob", "Ann")
    assert rig.box.app.roster == ("Bob", "Ann")
    assert rig.box.app.flash == "Ann added from a phone"  # the box's screen says what a phone changed
    assert isinstance(rig.box.last_view, views.SetupView)


def test_the_roster_rules_refuse_as_the_command_line_does(rig, tmp_path):
    with pytest.raises(R.RosterError) as said:  # what `cantstop-box players add bob` says
        R.add(R.from_fact(None, ("Bob",)), "bob")
    assert str(said.value) == "Bob is already on the list"  # as the person typed it once: not "listed twice"
    assert link.ask(tmp_path, {"do": "add", "name": "bob"}) == {"ok": False, "error": str(said.value)}
    assert not link.ask(tmp_path, {"do": "remove", "name": "Zed"})["ok"]
    assert link.ask(tmp_path, {"do": "rename", "old": "Bob", "new": "Rob"})["ok"]
    assert _names(rig) == ("Rob",)
    assert link.ask(tmp_path, {"do": "remove", "name": "rob"})["said"] == "Rob removed from a phone"
    assert _names(rig) == ()


def test_a_bad_line_is_one_line_and_the_box_goes_on(rig, tmp_path, monkeypatch):
    from firmware.daemon import phones

    monkeypatch.setattr(phones, "READ_SECONDS", 0.2)
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(str(tmp_path / link.SOCKET))
        s.sendall(b'{"do": "format the card"}\n')
        assert b"not a request the box takes" in s.recv(1000)
    with socket.socket(socket.AF_UNIX) as s:  # nested too deep: a RecursionError, which is no ValueError
        s.connect(str(tmp_path / link.SOCKET))
        s.sendall(b"[" * 8000 + b"\n")
        assert b"a request is one line of JSON" in s.recv(1000)
    with socket.socket(socket.AF_UNIX) as s:  # a client that says nothing holds the door only its READ_SECONDS
        s.connect(str(tmp_path / link.SOCKET))
        answer = link.ask(tmp_path, {"do": "add", "name": "Cat"})
    assert answer["ok"]


def test_a_three_player_setup_with_a_box_seat_is_shown_at_once_and_started_only_by_roll(rig, tmp_path):
    request = {"do": "setup", "seats": [{"colour": "Blue", "name": "Bob"}, {"colour": "red", "name": None},
                                        {"colour": "Green", "box": True}], "first": 1, "win": 4,
               "speedy": False, "risky": True, "language": ""}
    answer = link.ask(tmp_path, request)
    assert answer["ok"], answer
    app = rig.box.app
    assert app.screen.kind.value == "setup" and app.game is None
    assert [(s.colour, s.name, s.bot) for s in app.setup.seats] == [("Blue", "Bob", None), ("Red", None, None),
                                                                   ("Green", None, "strong")]
    assert app.setup.rules.columns_to_win == 4 and app.setup.rules.risky and app.setup.first == 1
    assert rig.store.open_game() is None  # nothing started from a phone


@pytest.mark.parametrize("seats, why", [
    ([{"colour": "Pink"}], "not one of the colours"),
    ([{"colour": "Red"}, {"colour": "red"}], "same colour"),
    ([{"colour": "Red", "name": "Zed"}], "no player called"),
])
def test_a_setup_the_config_would_refuse_is_refused(rig, tmp_path, seats, why):
    answer = link.ask(tmp_path, {"do": "setup", "seats": seats})
    assert not answer["ok"] and why in answer["error"]


def test_no_box_no_socket(tmp_path):
    with pytest.raises(link.BoxOff):
        link.ask(tmp_path, {"do": "add", "name": "Ann"})


def _menu_to_phone(rig):
    rig.tap("MENU")
    items = rig.box.last_view.items
    for _ in range(items.index("Phone")):
        rig.tap("B")
    rig.tap("ROLL")


def test_the_phone_menu_shows_a_fresh_code_that_pairs_and_forget_unpairs(tmp_path):
    from firmware.table import phones

    rig = Rig(tmp_path)
    try:
        _menu_to_phone(rig)
        v = rig.box.last_view
        assert isinstance(v, views.PhoneView) and len(v.code) == 6 and "/pair?k=" in v.address
        key = v.address.split("/pair?k=")[1]  # the QR code's: the same pairing as the six digits
        assert phones.is_key(key) and v.code not in v.address
        token = phones.redeem(tmp_path, key, now=__import__("time").time())
        assert token is not None and phones.paired(tmp_path, token)
        assert phones.redeem(tmp_path, v.code, now=__import__("time").time()) is None  # one pairing, used once
        rig.tap("C")  # forget phones
        assert not phones.paired(tmp_path, token) and rig.box.app.flash == "Phones forgotten"
        rig.tap("ROLL")
        assert isinstance(rig.box.last_view, views.SetupView)  # back where the menu was opened from
    finally:
        rig.close()


def test_settings_from_a_phone_change_the_box_at_once_and_outlive_a_restart(tmp_path):
    from firmware.daemon.signals import Signals

    class Lamps:
        shown: list = []

        def show(self, states, dimmed):
            self.shown.append(dict(states))

    lamps = Lamps()
    settings = GameConfig(sound=True)
    rig = Rig(tmp_path, settings=settings, live=True, signals=Signals(lamps=lamps))
    rig.box.open_door(tmp_path)
    try:
        answer = link.ask(tmp_path, {"do": "settings", "language": "ja", "dim_after_min": 0, "sound": False,
                                     "lamps": False})
        assert answer["ok"], answer
        app = rig.box.app
        assert app.language == "ja" and app.muted and rig.box.dim_after is None
        assert lamps.shown[-1] == {} and app.flash == "スマホから設定を変更"
        assert not link.ask(tmp_path, {"do": "settings", "language": "fr"})["ok"]
    finally:
        rig.shutdown()
    again = Rig(tmp_path, settings=settings, signals=Signals(lamps=lamps), dim_after=600)
    try:
        assert again.box.app.language == "ja" and again.box.app.muted and again.box.dim_after is None
        assert again.box.signals.dark
    finally:
        again.close()


def test_a_phone_hears_its_answer_only_once_the_store_keeps_what_it_changed(rig, tmp_path, monkeypatch):
    """The settings page the phone loads next reads the store: an answer sent before the step kept the box's
    memory let that page show the old language (a CI run caught it once)."""
    from firmware.daemon import phones
    from web.phone.routes import kept_settings

    heard = []
    reply = phones.Asked.reply
    monkeypatch.setattr(phones.Asked, "reply", lambda asked, answer: (heard.append(kept_settings(tmp_path)),
                                                                        reply(asked, answer))[-1])
    assert link.ask(tmp_path, {"do": "settings", "language": "ko", "dim_after_min": 5})["ok"]
    assert heard == [{"language": "ko", "dim": "5"}]  # both there when the door heard the answer


def test_a_box_without_a_buzzer_refuses_a_sound_change_in_one_line(rig, tmp_path):
    answer = link.ask(tmp_path, {"do": "settings", "sound": True})
    assert answer == {"ok": False, "error": "this box has no buzzer: there is no sound to turn on or off"}


def test_a_phone_that_never_finishes_its_request_holds_no_press_up(rig, tmp_path):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(str(tmp_path / link.SOCKET))
        s.sendall(b'{"do": "add", ')  # and nothing more: the door's thread waits, the loop does not
        before = rig.box.app.setup.cursor
        rig.tap("B")
        assert rig.box.app.setup.cursor == before + 1


def test_a_request_queued_when_the_box_stops_is_still_taken(tmp_path):
    from firmware.daemon.box import _PHONE
    from firmware.daemon.phones import Asked

    rig = Rig(tmp_path, settings=GameConfig(roster=("Bob",)))
    asked = Asked({"do": "add", "name": "Ann"})
    rig.box.queue.put((_PHONE, asked))
    try:
        rig.box.shutdown("Box is off")  # before the loop ever took it
        assert asked.done.is_set() and asked.answer["ok"]
    finally:
        rig.close()
    from firmware.store import Store

    with Store.open(tmp_path, readonly=True) as store:
        assert R.load(store, ()).names == ("Bob", "Ann")
