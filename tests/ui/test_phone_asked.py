"""A paired phone's request through the pure UI: ``update(app, PhoneAsked(...)) -> (app, effects)``, no daemon."""

from __future__ import annotations

from firmware import ui, views
from firmware.config import GameConfig
from firmware.table import roster as R
from firmware.ui import phone
from firmware.ui.model import KeptSettings, PhoneScreen
from tests.ui.driving import started


def _roster(*names: str) -> R.Roster:
    return R.from_fact(None, names)


def _ask(app, request, roster=None, lamps=False, ticket=7):
    return ui.update(app, ui.PhoneAsked(ticket, request, roster, lamps=lamps))


def test_phone_a_name_added_is_kept_offered_said_and_answered():
    app = ui.boot(GameConfig(roster=("Bob",)), roster=("Bob",))
    app, effects = _ask(app, {"do": "add", "name": "Ann"}, _roster("Bob"))
    keep, reply = effects
    assert isinstance(keep, ui.KeepRoster) and keep.roster.names == ("Bob", "Ann")
    assert reply == ui.PhoneReply(7, {"ok": True, "said": "Ann added from a phone", "kind": "add", "name": "Ann",
                                      "new": ""}, "Ann added from a phone")
    assert app.roster == ("Bob", "Ann") and app.flash == "Ann added from a phone"
    assert isinstance(ui.view(app), views.SetupView)


def test_phone_a_refusal_changes_nothing_and_is_one_line():
    app = ui.boot(GameConfig(roster=("Bob",)), roster=("Bob",))
    after, effects = _ask(app, {"do": "add", "name": "bob"}, _roster("Bob"))
    assert after == app and effects == (ui.PhoneReply(7, {"ok": False, "error": "Bob is already on the list"},
                                                      "refused: Bob is already on the list"),)


def test_phone_names_cannot_be_kept_without_a_store():
    app = ui.boot(GameConfig())
    after, (reply,) = _ask(app, {"do": "add", "name": "Ann"}, roster=None)
    assert after == app and not reply.answer["ok"] and "without saving" in reply.answer["error"]


def test_phone_an_off_box_answers_that_it_is_stopping():
    app, _ = ui.update(ui.boot(GameConfig()), ui.Shutdown("Box is off"))
    after, (reply,) = _ask(app, {"do": "add", "name": "Ann"}, _roster())
    assert after == app and reply.answer == {"ok": False, "error": "the box is stopping"}


def test_phone_a_setup_during_a_game_waits_for_the_next_one():
    app = started()
    request = {"do": "setup", "seats": [{"colour": "Green", "name": None, "box": True}, {"colour": "red", "name": None,
                                                                                          "box": False}],
               "first": 1, "win": 4, "speedy": False, "risky": False, "language": "ko"}
    after, (reply,) = _ask(app, request, _roster())
    assert reply.answer["ok"] and reply.answer["kind"] == "setup"
    assert after.states == app.states and after.screen.kind is ui.Screen.GAME  # the game goes on
    assert [(s.colour, s.bot) for s in after.setup.seats] == [("Green", "strong"), ("Red", None)]
    assert after.setup.rules.columns_to_win == 4 and after.setup.first == 1 and after.language == "ko"


def test_phone_settings_are_kept_carried_out_and_answered():
    app = ui.boot(GameConfig(sound=True))
    after, effects = _ask(app, {"do": "settings", "dim_after_min": 0, "lamps": False, "sound": False}, lamps=True)
    assert effects[:3] == (ui.KeepFacts({phone.SETTINGS_KEY: {"dim_after_min": 0, "lamps": False}}),
                           ui.Dimming(None), ui.Lamps(False))
    assert effects[3].answer == {"ok": True, "said": "Settings from a phone", "kind": "settings"}
    assert after.muted and after.kept == KeptSettings(0, False)
    again, effects = _ask(after, {"do": "settings", "dim_after_min": 5}, lamps=True)
    assert effects[:3] == (ui.KeepFacts({phone.SETTINGS_KEY: {"dim_after_min": 5, "lamps": False}}),
                           ui.Dimming(300), ui.Lamps(False))  # what it set before stays kept


def test_phone_settings_for_parts_the_box_lacks_are_refused():
    app = ui.boot(GameConfig(sound=None))
    _, (reply,) = _ask(app, {"do": "settings", "sound": True}, lamps=True)
    assert reply.answer["error"] == "this box has no buzzer: there is no sound to turn on or off"
    _, (reply,) = _ask(app, {"do": "settings", "lamps": True}, lamps=False)
    assert reply.answer["error"] == "this box has no lamps wired: there are none to turn on or off"


def test_phone_kept_settings_come_back_at_start_and_odd_ones_are_left_out():
    app, effects = ui.update(ui.boot(GameConfig()), ui.PhoneSettingsKept({"dim_after_min": 3, "lamps": "yes"}))
    assert app.kept == KeptSettings(3, None) and effects == (ui.Dimming(180),)
    app, effects = ui.update(ui.boot(GameConfig()), ui.PhoneSettingsKept([1, 2]))
    assert app.kept == KeptSettings() and effects == ()
    _, effects = ui.update(ui.boot(GameConfig()), ui.PhoneSettingsKept({"dim_after_min": 10_000}))
    assert effects == ()  # beyond what a phone may set: the config's stands


def test_phone_a_code_shown_is_renewed_only_near_its_end_and_only_while_shown():
    app = ui.boot(GameConfig())
    shown = app.__class__(**{**app.__dict__, "screen": PhoneScreen(code="123456", address="x")})
    assert ui.update(shown, ui.CodeLasts("123456", 400.0))[1] == ()
    assert ui.update(shown, ui.CodeLasts("123456", phone.RENEW_BEFORE))[1] == (ui.PairPhone(),)
    assert ui.update(shown, ui.CodeLasts("123456", 0.0))[1] == (ui.PairPhone(),)  # a phone used it
    assert ui.update(shown, ui.CodeLasts("654321", 0.0))[1] == ()  # an older code than the one shown
    assert ui.update(app, ui.CodeLasts("123456", 0.0))[1] == ()  # the Phone screen was left


def test_phone_sets_the_camera_up_as_the_menu_does_and_a_box_without_one_refuses():
    app = ui.boot(GameConfig())
    _, (reply,) = _ask(app, {"do": "camera", "step": "photo"})
    assert reply.answer == {"ok": False, "error": "this box has no camera: [camera] source is off"}
    app, _ = ui.update(app, ui.CameraSaid("unset"))
    app, (set_up, reply) = _ask(app, {"do": "camera", "step": "photo"})
    assert set_up == ui.SetUpCamera(app.tickets) and reply.answer["ok"]
    assert app.screen.kind is ui.Screen.LOOK and app.screen.setup == "setting"  # the box's screen says it too
    ends = {str(c): [[10.0, 500.0], [10.0, 100.0]] for c in range(2, 13)}
    app, (set_up, _) = _ask(app, {"do": "camera", "step": "ends", "ends": ends})
    assert set_up.ends == ends


def test_phone_link_checks_a_camera_requests_shape():
    import pytest

    from firmware.table import phone_link as link

    good = {str(c): [[1, 2], [3, 4.5]] for c in range(2, 13)}
    assert link.check({"do": "camera", "step": "ends", "ends": good})["ends"]["7"] == [[1.0, 2.0], [3.0, 4.5]]
    for bad in ({"do": "camera", "step": "zoom"}, {"do": "camera", "step": "ends", "ends": {"2": [[1, 2], [3, 4]]}},
                {"do": "camera", "step": "ends", "ends": good | {"7": [[1, 2]]}},
                {"do": "camera", "step": "ends", "ends": good | {"7": [[1, -2], [3, 4]]}},
                {"do": "camera", "step": "ends", "ends": good | {"7": [[1, True], [3, 4]]}}):
        with pytest.raises(link.LinkError):
            link.check(bad)
