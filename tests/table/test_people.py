"""Players by name: the roster on the new-game screen, who starts, names on the screens, the
restart memory, the per-person statistics, the recap and the list of games to continue (the pure UI)."""

from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from engine import Move, Roll, Rules, Stop
from firmware import ui, views, words
from firmware.table import person_stats
from firmware.table import names, roster
from firmware.config import GameConfig
from firmware.ui.messages import Press
from firmware.ui.model import Seat, seat_name
from firmware.ui.setup import setup_rows

ROSTER = ("Ann", "Bob", "김민준", "Maximiliane-Louise")


def run(app, *buttons):
    effects = []
    for b in buttons:
        app, eff = ui.update(app, Press(b.rstrip("!"), b.endswith("!")))
        effects += eff
    return app, effects


def to_row(app, key):
    """Move the cursor of the new-game screen to the row ``key``."""
    keys = [k for k, _ in setup_rows(app.setup, app.roster)]
    return replace(app, setup=replace(app.setup, cursor=keys.index(key)))


def booted(**kw):
    return ui.boot(GameConfig(roster=ROSTER, **kw))


def test_people_setup_has_name_rows_only_with_a_roster():
    keys = [k for k, _ in setup_rows(ui.boot(GameConfig()).setup)]
    assert not any(k.startswith("name") for k in keys)
    app = booted()
    rows = ui.view(app).rows
    assert ("P1 name", "(Red)") in rows and ("P2 name", "(Blue)") in rows and ("Starts", "Red") in rows


def test_people_c_steps_through_the_roster_skipping_names_taken():
    app = to_row(booted(), "name0")
    app, _ = run(app, "C")
    assert app.setup.seats[0].name == "Ann"
    app = to_row(app, "name1")
    app, _ = run(app, "C")
    assert app.setup.seats[1].name == "Bob"  # Ann sits at seat 1 already
    app, _ = run(app, "C!")  # held: back to no name (the colour)
    assert app.setup.seats[1].name is None


def test_people_chosen_starter_plays_first_and_names_go_into_the_stored_meta():
    app = to_row(booted(), "name0")
    app, _ = run(app, "C")  # Ann (Red)
    app = to_row(app, "name1")
    app, _ = run(app, "C")  # Bob (Blue): Ann is taken
    app = to_row(app, "first")
    app, _ = run(app, "C")
    assert ("Starts", "Bob") in ui.view(app).rows
    app, effects = run(app, "ROLL")
    start = next(e for e in effects if isinstance(e, ui.StartGame))
    assert start.players == ("Blue", "Red")  # the engine's players stay the colours of the pieces
    assert start.meta["seats"] == [{"colour": "Blue", "bot": None, "name": "Bob"},
                                   {"colour": "Red", "bot": None, "name": "Ann"}]
    v = ui.view(app)
    assert isinstance(v, views.TurnView) and v.player == "Bob" and "Bob starts." in v.note


def test_people_app_name_is_the_name_else_the_colour():
    app = ui.resume(GameConfig(), (Seat("Red", None, "Ann"), Seat("Blue")), Rules(), ())
    assert app.name(0) == "Ann" and app.name(1) == "Blue"
    assert seat_name(Seat("Green", "strong")) == "Green"


def test_people_stop_and_bust_screens_say_the_name():
    app = ui.resume(GameConfig(), (Seat("Red", None, "Ann"), Seat("Blue", None, "Bob")), Rules(), ())
    app, _ = ui.update(app, Press("ROLL"))
    app, _ = ui.update(app, ui.DiceRolled((1, 1, 1, 1)))  # 2 and 2: a move
    app, _ = run(app, "A")
    app, _ = run(app, "STOP")
    v = ui.view(app)
    assert v.title == "Ann stops" and v.keys == words.next_turn_key("Bob")


def test_people_memory_keeps_names_and_starter_across_a_restart():
    app = to_row(booted(), "name0")
    app, _ = run(app, "C", "C", "C")  # 김민준
    app = to_row(app, "first")
    app, _ = run(app, "C")
    kept = ui.memory(app)
    again = ui.recall(booted(), kept, game=False)
    assert again.setup.seats[0].name == "김민준" and again.setup.first == 1


def test_people_memory_ignores_a_bad_kept_name():
    kept = ui.memory(booted())
    kept["setup"]["seats"][0]["name"] = "\x07bell"
    assert ui.recall(booted(), kept, game=False).setup.seats[0].name is None


# -- the roster ---------------------------------------------------------------------------


def test_people_roster_add_remove_rename_and_errors():
    r = roster.from_fact(None, ("Ann",))
    r = roster.add(r, "Bob")
    assert r.names == ("Ann", "Bob")
    r = roster.rename(r, "bob", "Robert")
    assert r.names == ("Ann", "Robert") and r.who({"name": "Bob", "person": 2}) == (("id", 2), "Robert")
    r = roster.remove(r, "Ann")
    assert r.names == ("Robert",)
    for bad in (lambda: roster.add(r, "robert"), lambda: roster.add(r, " \u0301"), lambda: roster.remove(r, "Zed"),
                lambda: roster.rename(r, "Zed", "Y")):
        try:
            bad()
        except roster.RosterError as err:
            assert "\n" not in str(err)
        else:
            raise AssertionError("accepted")


def _won(name, person, winner=True):
    seat = {"name": name, "bot": None, "turns": 5, "busts": 1, "best": 3}
    if person is not None:
        seat["person"] = person
    other = {"name": "Red", "bot": None, "turns": 5, "busts": 1, "best": 3}
    return {"seats": [seat, other], "winner": 0 if winner else 1, "columns": 3}


def test_people_a_new_person_with_an_old_name_is_somebody_new():
    """Fault 6: add Ann, rename Ann Cat, add Ann: the new Ann's wins were credited to Cat."""
    r = roster.add(roster.from_fact(None, ()), "Ann")
    first = r.ids[r.names.index("Ann")]
    r = roster.add(roster.rename(r, "Ann", "Cat"), "Ann")
    second = r.ids[r.names.index("Ann")]
    assert first != second and r.names == ("Cat", "Ann")
    tallies = [_won("Ann", first), _won("Ann", second), _won("Ann", second)]  # as the seats kept them
    found, _ = person_stats.people(tallies, r.who)
    wins = {p.name: p.wins for p in found if p.wins}
    assert wins == {"Cat": 1, "Ann": 2}


def test_people_old_store_names_become_ids_once():
    """A store from before ids: its renames count for the person renamed, also after ids begin."""
    old = {"names": ["Cat"], "renamed": {"Ann": "Cat"}}
    before = roster.from_fact(old, ())
    assert before.ids == (None,)  # no ids recorded until the roster first changes
    r = roster.add(before, "Ann")  # the first change fixes the ids: the old Ann's games stay Cat's
    kept = roster.from_fact(r.to_json(), ())
    assert kept == r and kept.stored
    tallies = [_won("Ann", None), _won("Cat", None), _won("Ann", kept.ids[1])]
    found, _ = person_stats.people(tallies, kept.who)
    assert {p.name: p.wins for p in found if p.wins} == {"Cat": 2, "Ann": 1}


def test_people_roster_removed_person_keeps_their_name_and_id():
    r = roster.add(roster.add(roster.from_fact(None, ()), "Ann"), "Bob")
    ann = r.ids[0]
    r = roster.add(roster.remove(r, "ann"), "Ann")
    assert r.names == ("Bob", "Ann") and r.ids[1] != ann and r.name_of(ann) == "Ann"
    again = roster.from_fact(r.to_json(), ())
    assert again == r


def test_people_names_kept_by_an_older_version_stay_though_new_ones_are_refused():
    old = roster.from_fact({"names": ["שרה", "Ann"], "renamed": {}}, ())
    assert old.names == ("שרה", "Ann")  # kept (drawn as boxes, as before), not lost
    with pytest.raises(roster.RosterError, match="HEBREW"):
        roster.add(old, "דנה")


def test_people_roster_fact_falls_back_to_the_config():
    assert roster.from_fact(None, ("Ann",)).names == ("Ann",)
    assert roster.from_fact({"names": ["Bob", 3, "bob", ""]}, ("Ann",)).names == ("Bob",)


# -- tallies and statistics ---------------------------------------------------------------


def test_people_tally_counts_turns_busts_and_the_biggest_turn():
    seats = (Seat("Red", None, "Ann"), Seat("Blue", None, "Bob"))
    events = [Roll((1, 1, 1, 1)), Move((2, 2)), Stop(),  # Ann climbs 2 on column 2 and stops
              Roll((1, 1, 2, 2)), Move((2, 4)), Roll((6, 6, 6, 6)), Move((12, 12)),
              Roll((3, 3, 3, 3))]  # Bob: three runners, then only 6s: bust
    t = person_stats.tally(("Red", "Blue"), seats, Rules(), events, None)
    ann, bob = t["seats"]
    assert (ann["name"], ann["turns"], ann["busts"], ann["best"]) == ("Ann", 1, 0, 2)
    assert (bob["name"], bob["turns"], bob["busts"], bob["best"]) == ("Bob", 1, 1, 0)


def test_people_statistics_per_person_follow_renames_and_count_solitaire_apart():
    def seat(name, turns, busts, best=0, bot=None):
        return {"name": name, "bot": bot, "turns": turns, "busts": busts, "best": best}
    tallies = [
        {"seats": [seat("Ann", 10, 2), seat("Bob", 10, 4)], "winner": 0, "columns": 3},
        {"seats": [seat("Bob", 8, 1), seat("Red", 8, 3, bot="strong")], "winner": 1, "columns": 3},
        {"seats": [seat("Ann", 12, 5)], "winner": 0, "columns": 3},
        {"seats": [seat("Ann", 9, 3)], "winner": 0, "columns": 3},
        {"seats": [seat("Ann", 30, 9)], "winner": None, "columns": 3},  # blocked solitaire: no score
    ]
    found, contests = person_stats.people(tallies, roster.from_fact({"names": ["Robert"], "renamed": {"Bob": "Robert"}},
                                                                    ()).who)
    by = {p.name: p for p in found}
    assert contests == 2 and set(by) == {"Ann", "Robert", "Box"}
    ann = by["Ann"]
    assert (ann.games, ann.wins, ann.win_rate) == (1, 1, 1.0)
    assert ann.busts_per_turn == 2 / 10  # the games' figures alone, like Games: practices have their own
    assert ann.solo_best(3) == 9 and ann.solo_average(3) == 10.5
    assert (by["Robert"].games, by["Robert"].wins) == (2, 0) and by["Box"].wins == 1


def test_people_box_statistics_count_games_not_seats():
    """Issue 22, bug 3: two finished games with box seats, one of them with two, are two games for the box."""
    def seat(name, bot=None, turns=5, busts=1):
        return {"name": name, "bot": bot, "turns": turns, "busts": busts, "best": 0}
    tallies = [
        {"seats": [seat("Ann"), seat("Blue", "strong"), seat("Green", "rule28")], "winner": 2, "columns": 3},
        {"seats": [seat("Ann"), seat("Blue", "strong")], "winner": 0, "columns": 3},
    ]
    by = {p.name: p for p in person_stats.people(tallies)[0]}
    assert (by["Box"].games, by["Box"].wins, by["Box"].win_rate) == (2, 1, 0.5)
    assert by["Box"].busts_per_turn == 3 / 15  # every box seat's turns still count
    assert (by["Ann"].games, by["Ann"].wins) == (2, 1)


def test_people_statistics_pages_page_through_each_person():
    p = ui.PersonStats("Ann", 4, 3, 0.75, 0.25, ((3, 9, 11.5),))
    app = replace(ui.boot(GameConfig()), screen=ui.model.StatsScreen())
    app, _ = ui.update(app, ui.StatsLoaded((("Ann", 3),), 4, (p,)))
    assert isinstance(ui.view(app), views.StatsView)
    app, _ = run(app, "B")
    v = ui.view(app)
    assert isinstance(v, views.TableView) and v.title == "Ann" and ("Wins", "3 (75%)") in v.rows
    app, _ = run(app, "B")
    assert ("3 col solo avg", "11.5") in ui.view(app).rows
    app, _ = run(app, "B")
    assert isinstance(ui.view(app), views.StatsView)  # round to the overview
    app, _ = run(app, "MENU")
    assert app.screen.kind is ui.Screen.MENU


def test_people_statistics_page_a_big_groups_wins_four_people_a_page():
    """Issue 22: a roster's many people are paged (A/B, the legend says so), not cut; every bar against the most wins."""
    rows = tuple((f"P{i}", 20 - i) for i in range(10))
    people = tuple(ui.PersonStats(n, 30, w, w / 30, 0.2) for n, w in rows[:2])
    app = replace(ui.boot(GameConfig()), screen=ui.model.StatsScreen())
    app, _ = ui.update(app, ui.StatsLoaded(rows, 30, people))
    seen, pages = [], []
    for _ in range(3):
        v = ui.view(app)
        assert isinstance(v, views.StatsView) and len(v.rows) <= 4 and v.most == 20 and "A/B" in v.keys
        seen += v.rows
        pages.append(v.page)
        app, _ = run(app, "B")
    assert seen == list(rows) and pages == ["1/5", "2/5", "3/5"]  # 3 pages of wins, then a page for each person
    assert isinstance(ui.view(app), views.TableView) and ui.view(app).status == "4/5"
    app, _ = run(app, "A", "A", "A", "A")  # back past the first page to the last
    assert ui.view(app).status == "5/5"
    app, _ = run(app, "B")
    assert ui.view(app).page == "1/5"


def test_people_statistics_of_four_people_or_fewer_without_pages_say_no_page():
    app = replace(ui.boot(GameConfig()), screen=ui.model.StatsScreen())
    app, _ = ui.update(app, ui.StatsLoaded((("Red", 2), ("Blue", 1)), 3, ()))
    v = ui.view(app)
    assert v.page == "" and v.keys == app.words.KEYS["stats_one"]
    app, _ = run(app, "B")
    assert ui.view(app) == v


def test_people_continue_lists_unfinished_games_and_asks_the_store_to_reopen_one():
    app, effects = run(ui.boot(GameConfig()), "MENU")
    items = ui.view(app).items
    app, effects = run(app, *["B"] * items.index("Continue a game"), "ROLL")
    assert effects == [ui.LoadUnfinished()]
    app, _ = ui.update(app, ui.UnfinishedLoaded((ui.Unfinished(7, ("Ann", "Bob"), 5),
                                                 ui.Unfinished(3, ("Red", "Blue"), 2))))
    assert ui.view(app).items == ("7 turn 5: Ann, Bob", "3 turn 2: Red, Blue")  # no cryptic "T2"
    app, effects = run(app, "B", "ROLL")
    assert effects == [ui.ContinueGame(3)]
    app, _ = ui.update(app, ui.GameContinued((Seat("Red"), Seat("Blue")), Rules(), (Roll((1, 1, 1, 1)),)))
    v = ui.view(app)
    assert isinstance(v, views.BoardView) and app.game.phase.name == "MOVE"


def test_people_continue_names_a_seat_without_a_name_by_its_colour_in_the_screens_language():
    """Issue 47, item 6: the Japanese list said "7 9手番: Ann, Blue, ..": an unnamed seat's colour in English."""
    app = replace(ui.boot(GameConfig()), screen=ui.model.ContinueScreen())
    app = replace(app, language="ja")
    app, _ = ui.update(app, ui.UnfinishedLoaded((ui.Unfinished(7, ("Ann", ""), 9, ("Red", "Blue")),)))
    (item,) = ui.view(app).items
    assert "Ann" in item and words.language("ja").colour("Blue") in item and "Blue" not in item


def test_people_continue_with_nothing_to_continue_says_so():
    app = replace(ui.boot(GameConfig()), screen=ui.model.ContinueScreen())
    app, _ = ui.update(app, ui.UnfinishedLoaded(()))
    v = ui.view(app)
    assert isinstance(v, views.MessageView) and v.lines == words.NO_UNFINISHED[1]
    app, _ = run(app, "ROLL")
    assert app.screen.kind is ui.Screen.MENU


_ops = st.lists(st.tuples(st.sampled_from(["add", "remove", "rename"]),
                          st.sampled_from(["Ann", "ann", "Ａｎｎ", "Bob", "Cat", "김민준", " Di ", "\u0301", "שרה"]),
                          st.sampled_from(["Ann", "Cat", "Eve", "さくら"])), max_size=25)


@settings(max_examples=200, deadline=None)
@given(_ops)
def test_people_property_roster_changes_keep_ids_unique_and_names_distinct(ops):
    r = roster.from_fact(None, ("Ann", "Bob"))
    ids_seen: dict[int, str] = {}
    for op, a, b in ops:
        try:
            r = {"add": lambda: roster.add(r, a), "remove": lambda: roster.remove(r, a),
                 "rename": lambda: roster.rename(r, a, b)}[op]()
        except roster.RosterError as err:
            assert "\n" not in str(err)
            continue
        ids = [m.id for m in r.people]
        assert len(ids) == len(set(ids))  # an id is never given twice
        assert all(i not in ids_seen or i in ids for i in ids_seen)  # nor ever dropped
        ids_seen.update({m.id: m.name for m in r.people})
        listed = [names.fold(n) for n in r.names]
        assert len(listed) == len(set(listed))
        assert roster.from_fact(r.to_json(), ()) == r  # kept and read back, the same roster


def test_people_a_seat_whose_name_was_removed_shows_its_colour_not_a_dash():
    """Issue 47, item 8: after `players remove Ann` her seat's name row said "-", as if something were lost; a
    seat with no name is called by its colour, and its row says so."""
    from firmware.ui.setup import roster_changed

    app = ui.boot(GameConfig(), ("Ann", "Bob"), "en", (1, 2))
    seats = app.setup.seats
    app = replace(app, setup=replace(app.setup, seats=(replace(seats[0], name="Ann", person=1),) + seats[1:]))
    assert ("P1 name", "Ann") in ui.view(app).rows
    app = roster_changed(app, ("Bob",), (2,), removed=(1,))
    assert ("P1 name", "(Red)") in ui.view(app).rows
