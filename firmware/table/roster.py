"""The people kept on the box: each an id with a current name, kept as one fact in the store.

The fact ``roster`` holds::

    {"people": [{"id": 1, "name": "Cat"}, {"id": 2, "name": "Ann"},
                {"id": 3, "name": "Bob", "removed": true}],
     "legacy": {"ann": 1, "cat": 1},
     "names": ["Cat", "Ann"], "renamed": {}}

A person is an id; ``rename`` changes the name an id goes by, ``add`` makes a
new id even for a name somebody once had, ``remove`` takes the person off the
list (the id stays, so their games keep their name). A game's seats keep the
id they were played under (``person``), so the statistics follow the id.

``legacy`` maps the folded names of games stored before ids existed to the
id they count for; it is made once, when a store of the old shape (``names``
and ``renamed`` only, the config's list) first changes, and never changes
after. ``names`` and ``renamed`` are still written for an older version of the
box going back over the same card.

Until ``cantstop-box players`` first changes it, there is no fact and the
config's ``[game] roster`` is the list (no ids yet: its games count by name).
Every change is checked here (pure functions on plain values); the command
line and the daemon only read and write the fact.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware.table.names import MAX_ROSTER, fold, name_problem, normalise, quoted

ROSTER_KEY = "roster"


class RosterError(ValueError):
    """A change the roster cannot take (a name twice, an unknown name): one line."""


@dataclass(frozen=True)
class Member:
    """A person: an id for good, the name they go by now, and whether the new-game screen offers them."""

    id: int
    name: str
    listed: bool = True

    def to_json(self) -> dict:
        out = {"id": self.id, "name": self.name}
        if not self.listed:
            out["removed"] = True
        return out


@dataclass(frozen=True)
class Roster:
    people: tuple[Member, ...] = ()
    legacy: dict[str, int] = field(default_factory=dict, hash=False)
    stored: bool = False  # ids are kept in the store (False: the config's list or an old fact: no ids yet)

    @property
    def names(self) -> tuple[str, ...]:
        """The names the new-game screen offers, in order."""
        return tuple(m.name for m in self.people if m.listed)

    @property
    def ids(self) -> tuple[int | None, ...]:
        """The id of each of :attr:`names` (None while no ids are kept: games then count by name)."""
        return tuple(m.id if self.stored else None for m in self.people if m.listed)

    @property
    def removed(self) -> tuple[int, ...]:
        """The ids of the people taken off the list (none while no ids are kept)."""
        return tuple(m.id for m in self.people if not m.listed) if self.stored else ()

    def to_json(self) -> dict:
        return {"people": [m.to_json() for m in self.people], "legacy": dict(self.legacy),
                "names": list(self.names), "renamed": {}}

    def name_of(self, person: int) -> str | None:
        """The name the person with this id goes by now (removed or not), or None for an unknown id."""
        return next((m.name for m in self.people if m.id == person), None)

    def who(self, seat: dict) -> tuple[object, str]:
        """A tally's seat as (the key its numbers add up under, the name to show).

        A seat kept with an id counts for that id, under the id's name now; a
        seat from before ids, for the id its name had then (``legacy``), else
        under its name.
        """
        name = str(seat.get("name"))
        person = seat.get("person")
        if type(person) is not int:
            person = self.legacy.get(fold(name))
        if person is not None:
            now = self.name_of(person)
            if now is not None:
                return ("id", person), now
        return ("name", name), name

    def current(self, name: str) -> str:
        """The name a player stored under ``name`` (in a game from before ids) goes by now."""
        return self.who({"name": name})[1]


def _convert(names: list[str], renamed: dict[str, str]) -> Roster:
    """An old roster (names, and renames old -> new) as people: ids in list order, its renames as ``legacy``."""
    people = tuple(Member(i + 1, n) for i, n in enumerate(names))
    by_name = {fold(m.name): m.id for m in people}
    legacy = dict(by_name)
    for old, new in renamed.items():
        seen = {old}
        while new in renamed and renamed[new] not in seen:  # a chain of renames, at most once round
            seen.add(new)
            new = renamed[new]
        if fold(new) in by_name:
            legacy[fold(old)] = by_name[fold(new)]
    return Roster(people, legacy, stored=False)


def _clean_names(raw) -> list[str]:
    names: list[str] = []
    for name in raw[:MAX_ROSTER] if isinstance(raw, list) else []:
        if name_problem(name, {fold(n) for n in names}, drawable=False) is None:
            names.append(normalise(name))
    return names


def from_fact(raw, config_names: tuple[str, ...]) -> Roster:
    """The roster kept in the store (``raw``, the fact's value), else the config's names."""
    if not isinstance(raw, dict):
        return _convert(_clean_names(list(config_names)), {})
    if isinstance(raw.get("people"), list):
        people: list[Member] = []
        seen_ids: set[int] = set()
        listed: set[str] = set()
        for p in raw["people"]:
            if not isinstance(p, dict) or type(p.get("id")) is not int or p["id"] in seen_ids:
                continue
            name, on = p.get("name"), not p.get("removed")
            if name_problem(name, listed if on else set(), drawable=False) is not None:
                continue
            if on and len(listed) >= MAX_ROSTER:
                continue
            seen_ids.add(p["id"])
            if on:
                listed.add(fold(name))
            people.append(Member(p["id"], normalise(name), on))
        legacy = raw.get("legacy") if isinstance(raw.get("legacy"), dict) else {}
        legacy = {k: v for k, v in legacy.items() if isinstance(k, str) and type(v) is int and v in seen_ids}
        return Roster(tuple(people), legacy, stored=True)
    if not isinstance(raw.get("names"), list):
        return _convert(_clean_names(list(config_names)), {})
    renamed = raw.get("renamed") if isinstance(raw.get("renamed"), dict) else {}
    renamed = {k: v for k, v in renamed.items() if isinstance(k, str) and isinstance(v, str)}
    return _convert(_clean_names(raw["names"]), renamed)


def _stored(roster: Roster) -> Roster:
    """The roster as it is kept from its first change on: ids fixed, legacy names fixed."""
    return roster if roster.stored else Roster(roster.people, roster.legacy, stored=True)


def _index(roster: Roster, name: str) -> int:
    folded = fold(name) if isinstance(name, str) else None
    for i, m in enumerate(roster.people):
        if m.listed and fold(m.name) == folded:
            return i
    raise RosterError(f"no player called {quoted(name)}")


def _check_new(roster: Roster, name: str, ignore: int | None = None) -> str:
    others = [m for i, m in enumerate(roster.people) if m.listed and i != ignore]
    problem = name_problem(name, set())
    if problem:
        raise RosterError(problem)
    same = next((m for m in others if fold(m.name) == fold(name)), None)
    if same is not None:  # typed once, by someone who did not see it there: not "listed twice" (issue 47, item 7)
        raise RosterError(f"{same.name} is already on the list")
    return normalise(name)


def add(roster: Roster, name: str) -> Roster:
    """A new person (a new id, even if somebody had this name once)."""
    roster = _stored(roster)
    name = _check_new(roster, name)
    if len(roster.names) >= MAX_ROSTER:
        raise RosterError(f"the roster is full ({MAX_ROSTER} names); remove one first")
    next_id = max((m.id for m in roster.people), default=0) + 1
    return Roster(roster.people + (Member(next_id, name),), roster.legacy, stored=True)


def remove(roster: Roster, name: str) -> Roster:
    """Take a person off the list; their id (and so their games' name) stays."""
    roster = _stored(roster)
    i = _index(roster, name)
    people = list(roster.people)
    people[i] = Member(people[i].id, people[i].name, listed=False)
    return Roster(tuple(people), roster.legacy, stored=True)


def rename(roster: Roster, old: str, new: str) -> Roster:
    """The same person (the same id) goes by a new name from now on, in every game they played."""
    roster = _stored(roster)
    i = _index(roster, old)
    name = _check_new(roster, new, ignore=i)
    people = list(roster.people)
    people[i] = Member(people[i].id, name)
    return Roster(tuple(people), roster.legacy, stored=True)


def load(store, config_names: tuple[str, ...]) -> Roster:
    """The roster for the box: the store's, else the config's (a store that cannot be read: the config's)."""
    if store is None:
        return from_fact(None, config_names)
    try:
        raw = store.fact(ROSTER_KEY)
    except Exception:
        raw = None
    return from_fact(raw, config_names)
