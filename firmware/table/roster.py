"""The players' names kept on the box: a list in the store's facts, started from the config's roster.

The fact ``roster`` holds ``{"names": [...], "renamed": {"old": "new"}}``.
Until ``cantstop-box players`` first changes it, there is no fact and the
config's ``[game] roster`` is the list. A rename is remembered so that the
statistics of games played under the old name count for the new one.
Every change is checked here (pure functions on plain values); the command
line and the daemon only read and write the fact.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware.config.check import name_problem
from firmware.config.models import MAX_ROSTER

ROSTER_KEY = "roster"


class RosterError(ValueError):
    """A change the roster cannot take (a name twice, an unknown name): one line."""


@dataclass(frozen=True)
class Roster:
    names: tuple[str, ...] = ()
    renamed: dict[str, str] = field(default_factory=dict, hash=False)

    def to_json(self) -> dict:
        return {"names": list(self.names), "renamed": dict(self.renamed)}

    def current(self, name: str) -> str:
        """The name a player goes by now (following renames, at most once round)."""
        seen = {name}
        while name in self.renamed and self.renamed[name] not in seen:
            name = self.renamed[name]
            seen.add(name)
        return name


def from_fact(raw, config_names: tuple[str, ...]) -> Roster:
    """The roster kept in the store (``raw``, the fact's value), else the config's names."""
    if not isinstance(raw, dict) or not isinstance(raw.get("names"), list):
        return Roster(tuple(config_names))
    names: list[str] = []
    for name in raw["names"][:MAX_ROSTER]:
        if name_problem(name, {n.casefold() for n in names}) is None:
            names.append(name)
    renamed = raw.get("renamed") if isinstance(raw.get("renamed"), dict) else {}
    renamed = {k: v for k, v in renamed.items() if isinstance(k, str) and isinstance(v, str)}
    return Roster(tuple(names), renamed)


def _index(roster: Roster, name: str) -> int:
    folded = [n.casefold() for n in roster.names]
    if name.casefold() not in folded:
        raise RosterError(f"no player called {name!r}")
    return folded.index(name.casefold())


def _check_new(roster: Roster, name: str, ignore: int | None = None) -> None:
    taken = {n.casefold() for i, n in enumerate(roster.names) if i != ignore}
    problem = name_problem(name, taken)
    if problem:
        raise RosterError(problem)


def add(roster: Roster, name: str) -> Roster:
    _check_new(roster, name)
    if len(roster.names) >= MAX_ROSTER:
        raise RosterError(f"the roster is full ({MAX_ROSTER} names); remove one first")
    return Roster(roster.names + (name,), roster.renamed)


def remove(roster: Roster, name: str) -> Roster:
    i = _index(roster, name)
    return Roster(roster.names[:i] + roster.names[i + 1:], roster.renamed)


def rename(roster: Roster, old: str, new: str) -> Roster:
    i = _index(roster, old)
    _check_new(roster, new, ignore=i)
    was = roster.names[i]
    renamed = {k: v for k, v in roster.renamed.items() if k != new} | {was: new}
    return Roster(roster.names[:i] + (new,) + roster.names[i + 1:], renamed)


def load(store, config_names: tuple[str, ...]) -> Roster:
    """The roster for the box: the store's, else the config's (a store that cannot be read: the config's)."""
    if store is None:
        return Roster(tuple(config_names))
    try:
        raw = store.fact(ROSTER_KEY)
    except Exception:
        raw = None
    return from_fact(raw, config_names)
