"""The game record and the state view of CONTRACT.md, and the example records."""

import importlib.util
import json
from pathlib import Path

import pytest

from engine import (
    STOP,
    GameOverError,
    IllegalEventError,
    Move,
    Phase,
    Record,
    RecordError,
    Roll,
    Rules,
    apply,
    event_from_json,
    new_game,
    state_view,
)
from tests.kit.gamekit import VIEW_KEYS, check_invariants, check_transition, check_view, play

RECORDS = Path(__file__).resolve().parents[1] / "fixtures" / "records"
FIXTURES = sorted(p.name[: -len(".json")] for p in RECORDS.glob("*.json") if not p.name.endswith(".view.json"))


def ordered(text: str):
    """Parsed JSON that keeps key order, so two views compare key by key and in order."""
    return json.loads(text, object_pairs_hook=lambda pairs: list(pairs))


def load_make_records():
    spec = importlib.util.spec_from_file_location("make_records_under_test", RECORDS / "make_records.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- the example records -------------------------------------------------------------


def test_record_fixtures_exist_for_each_variant():
    assert {"two_players", "solitaire", "three_players_speedy", "four_players_risky",
            "two_players_long_game", "two_players_unfinished"} <= set(FIXTURES)


def test_record_fixtures_are_exactly_what_make_records_writes():
    built = load_make_records().build()
    on_disk = {p.name: p.read_text() for p in RECORDS.glob("*.json")}
    assert built == on_disk


@pytest.mark.parametrize("name", FIXTURES)
def test_record_fixture_replays_to_its_expected_view(name):
    state = Record.from_text((RECORDS / f"{name}.json").read_text()).replay()
    view = check_view(state)
    assert ordered(json.dumps(view)) == ordered((RECORDS / f"{name}.view.json").read_text())


@pytest.mark.parametrize("name", FIXTURES)
def test_record_fixture_follows_the_rules_event_by_event(name):
    record = Record.from_text((RECORDS / f"{name}.json").read_text())
    state = record.new_game()
    for event in record.events:
        after = apply(state, event)
        check_transition(state, event, after)
        check_invariants(after)
        state = after
    if name.endswith("unfinished"):
        assert state.phase is Phase.MOVE and len(state.moves) > 1
    else:
        assert state.phase is Phase.OVER and state.winner is not None
        assert len(state.claims_of(state.winner)) == record.rules.columns_to_win


def test_record_fixture_variants_are_the_ones_named():
    def rules(name):
        return Record.from_text((RECORDS / f"{name}.json").read_text()).rules

    assert rules("three_players_speedy").speedy and rules("four_players_risky").risky
    assert rules("two_players_long_game").columns_to_win == 5
    assert rules("two_players") == Rules()


# -- reading and writing records -------------------------------------------------------


def test_record_round_trips_through_json():
    record = Record(("Red", "Blue"), Rules(columns_to_win=4, risky=True),
                    (Roll((2, 3, 4, 5)), Move.of(7, 7), STOP))
    data = record.to_json()
    assert data == {
        "players": ["Red", "Blue"],
        "rules": {"columns_to_win": 4, "speedy": False, "risky": True},
        "events": [{"roll": [2, 3, 4, 5]}, {"move": [7, 7]}, {"stop": True}],
    }
    assert Record.from_json(json.loads(json.dumps(data))) == record


def test_record_rules_and_their_keys_are_optional():
    assert Record.from_json({"players": ["Red"], "events": []}).rules == Rules()
    assert Record.from_json({"players": ["Red"], "rules": {"speedy": True}, "events": []}).rules == Rules(speedy=True)


def test_record_event_keys_beyond_the_contract_are_ignored():
    record = Record.from_json({"players": ["Red"], "note": "x", "events": [{"roll": [1, 2, 3, 4], "at": 5}]})
    assert record.events == (Roll((1, 2, 3, 4)),)


def test_record_move_sums_in_any_order():
    assert event_from_json({"move": [9, 5]}) == Move((5, 9)) == Move.of(9, 5)


@pytest.mark.parametrize("obj, message", [
    ([], "the record must be a JSON object"),
    ({"events": []}, "players must be a list of 1 to 4 names"),
    ({"players": [], "events": []}, "players must be a list of 1 to 4 names"),
    ({"players": ["A", "B", "C", "D", "E"], "events": []}, "players must be a list of 1 to 4 names"),
    ({"players": ["Red", 7], "events": []}, "player 2 must be a non-empty name, not 7"),
    ({"players": ["Red", " "], "events": []}, 'player 2 must be a non-empty name, not " "'),
    ({"players": ["Red"], "rules": {"fast": True}, "events": []}, "rules: unknown rule 'fast'"),
    ({"players": ["Red"], "rules": {"columns_to_win": 12}, "events": []}, "rules: columns_to_win must be"),
    ({"players": ["Red"]}, "events is missing"),
    ({"players": ["Red"], "events": {}}, "events must be a list"),
    ({"players": ["Red"], "events": [{"roll": [1, 2, 3, 4]}, 5]}, "event 2: must be an object"),
    ({"players": ["Red"], "events": [{}]}, "event 1: has none of the keys roll, move, stop"),
    ({"players": ["Red"], "events": [{"roll": [1, 2, 3, 4], "stop": True}]}, "event 1: has more than one"),
    ({"players": ["Red"], "events": [{"roll": [1, 2, 3, True]}]}, "event 1: roll must be a list of four"),
    ({"players": ["Red"], "events": [{"move": [7, 7, 7]}]}, "event 1: move must be a list of one or two"),
    ({"players": ["Red"], "events": [{"stop": 1}]}, "event 1: stop must be true, not 1"),
])
def test_record_schema_errors_name_the_problem(obj, message):
    with pytest.raises(RecordError) as info:
        Record.from_json(obj)
    assert str(info.value).startswith(message)


@pytest.mark.parametrize("text, message", [
    ("{", "not valid JSON: Expecting property name"),
    ('{"players": ["Red"], "events": [{"roll": [NaN, 1, 1, 1]}]}', "not valid JSON: NaN is not a number"),
    ('{"players": ["Red"], "events": [], "x": Infinity}', "not valid JSON: Infinity is not a number"),
    ("[" * 100_000, "not valid JSON: nested too deeply"),
    ('{"players": ["Red"], "events": [{"roll": [' + "9" * 5000 + "]}]}", "not valid JSON: Exceeds the limit"),
])
def test_record_text_that_is_not_json_is_a_record_error(text, message):
    with pytest.raises(RecordError) as info:
        Record.from_text(text)
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value)


def test_record_illegal_event_is_numbered_from_1():
    record = Record.from_json({"players": ["Red"], "events": [{"roll": [2, 3, 4, 5]}, {"stop": True}]})
    with pytest.raises(IllegalEventError) as info:
        record.replay()
    assert str(info.value) == "event 2: cannot stop now: the dice are out, choose a move first"
    assert info.value.index == 2


def test_record_event_after_the_win_is_a_game_over_error():
    events = [{"roll": [1, 1, 1, 1]}, {"move": [2, 2]}, {"roll": [1, 1, 1, 1]}, {"move": [2]}, {"stop": True},
              {"roll": [1, 2, 3, 4]}]
    record = Record.from_json({"players": ["Red", "Blue"], "rules": {"columns_to_win": 1}, "events": events})
    with pytest.raises(GameOverError, match="^event 6: the game is over: Red won$"):
        record.replay()


def test_record_contract_example_moves_2_alone_which_the_rules_forbid():
    # CONTRACT.md's record example moves only 2 from 1,1,5,6 with runner 7 out
    # and two runners free; rule 4 makes 2 and 11 move together.
    example = {"players": ["Red", "Blue"], "events": [
        {"roll": [2, 3, 4, 5]}, {"move": [7, 7]}, {"roll": [1, 1, 5, 6]}, {"move": [2]}, {"stop": True}]}
    with pytest.raises(IllegalEventError, match=r"^event 4: move \[2\] is not legal .* legal moves: \[2, 11\], \[6, 7\]$"):
        Record.from_json(example).replay()


# -- the state view -----------------------------------------------------------------------


def test_view_of_a_new_game():
    assert state_view(new_game(["Red", "Blue"])) == {
        "players": ["Red", "Blue"], "current": 0, "phase": "roll", "dice": None, "moves": [],
        "runners": {}, "markers": [{}, {}], "claimed": {}, "winner": None,
        "can_stop": False, "bust_chance": 0.0,
    }


def test_view_keys_come_in_contract_order():
    assert list(state_view(new_game(["Red"]))) == VIEW_KEYS


def test_view_in_move_phase_shows_dice_and_moves_but_no_bust_chance():
    view = state_view(play(2, [Roll((2, 3, 4, 5))]))
    assert view["phase"] == "move" and view["dice"] == [2, 3, 4, 5]
    assert view["moves"] == [[5, 9], [6, 8], [7, 7]]
    assert view["bust_chance"] is None and view["can_stop"] is False


def test_view_in_decide_phase_rounds_the_bust_chance(runners_on_2_3_12):
    view = state_view(runners_on_2_3_12)
    assert view["phase"] == "decide" and view["dice"] is None and view["moves"] == []
    assert view["runners"] == {"2": 1, "3": 2, "12": 1}
    assert view["can_stop"] is True and view["bust_chance"] == 0.5617


def test_view_column_keys_ascend_numerically():
    state = play(1, [Roll((4, 6, 1, 1)), Move.of(2, 10), Roll((3, 6, 1, 1)), Move.of(2, 9), STOP])
    assert list(state_view(state)["markers"][0]) == ["2", "9", "10"]


def test_view_after_the_win():
    state = play(2, [
        Roll((1, 1, 1, 1)), Move.of(2, 2), Roll((1, 1, 1, 1)), Move.of(2),
        Roll((6, 6, 6, 6)), Move.of(12, 12), Roll((6, 6, 6, 6)), Move.of(12),
        Roll((1, 2, 1, 2)), Move.of(3, 3), Roll((1, 2, 1, 2)), Move.of(3, 3), Roll((1, 2, 1, 2)), Move.of(3),
        STOP,
    ])
    view = state_view(state)
    assert (view["phase"], view["winner"], view["current"]) == ("over", 0, 0)
    assert view["claimed"] == {"2": 0, "3": 0, "12": 0}
    assert view["markers"] == [{"2": 3, "3": 5, "12": 3}, {}]
    assert view["can_stop"] is False and view["bust_chance"] is None and view["runners"] == {}
