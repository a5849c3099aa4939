"""The next game's form as the table has it now, and the mark that tells a stale form from a fresh one.

The form starts from the set-up and language the box keeps (the store's ``table`` fact, which the box
writes at every change: on its own screen or from a phone), not from the config's defaults: a phone that
changes only the seats keeps the table's language, speedy and risky. The form carries ``from``, a digest
of that set-up (the seats, who starts, the rules, the language; not the box's cursor), and a form whose
``from`` is no longer the table's is refused, "changed by another phone", with the form again as it is
now: two phones never overwrite each other unseen (issue 46, item 5; issue 47, item 3).
"""

from __future__ import annotations

import hashlib
import json

from firmware import i18n
from firmware.store import Store, StoreError

from . import pages


def kept_facts(state_dir, *keys: str) -> tuple:
    """The store's facts ``keys``, read-only, each None where it is not there or the store cannot be read
    (a damaged fact: the config's defaults, as for a first start)."""
    try:
        store = Store.open(state_dir, readonly=True)
    except StoreError:
        return (None,) * len(keys)
    try:
        return tuple(store.fact(key) for key in keys)
    except Exception:
        return (None,) * len(keys)
    finally:
        store.close()


def _table(state_dir) -> dict:
    from firmware.table import restart

    (table,) = kept_facts(state_dir, restart.MEMORY_KEY)
    return table if isinstance(table, dict) else {}


def _kept(table: dict) -> dict:
    """The part of the kept facts the form shows: seats, first, rules, language (checked; {} if unusable)."""
    setup = table.get("setup")
    if not isinstance(setup, dict) or not isinstance(setup.get("seats"), list):
        return {}
    seats = [s for s in setup["seats"][:pages.SEATS] if isinstance(s, dict) and isinstance(s.get("colour"), str)]
    rules = setup.get("rules") if isinstance(setup.get("rules"), dict) else {}
    kept = {"seats": [{"colour": s["colour"], "name": s.get("name") if isinstance(s.get("name"), str) else "",
                       "box": bool(s.get("bot"))} for s in seats],
            "first": setup.get("first") if type(setup.get("first")) is int else 0,
            "win": rules.get("columns_to_win") if type(rules.get("columns_to_win")) is int else None,
            "speedy": rules.get("speedy") is True, "risky": rules.get("risky") is True}
    if table.get("language") in i18n.LANGUAGES:
        kept["language"] = table["language"]
    return kept if kept["seats"] else {}


def digest(kept: dict) -> str:
    return hashlib.sha256(json.dumps(kept, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def current(state_dir, defaults: dict) -> tuple[dict, str]:
    """(the form's values as the table has them now, over ``defaults``; their ``from`` mark)."""
    kept = _kept(_table(state_dir))
    chosen = dict(defaults)
    if kept:
        chosen = {k: v for k, v in chosen.items() if not k.startswith(("plays", "name"))}
        for i, seat in enumerate(kept["seats"]):
            chosen |= {f"plays{i}": "box" if seat["box"] else "person", f"colour{i}": seat["colour"],
                       f"name{i}": seat["name"]}
        chosen["first"] = str(kept["first"])
        if kept["win"] is not None:
            chosen["win"] = str(kept["win"])
        chosen |= {k: "on" for k in ("speedy", "risky") if kept[k]}
        if "language" in kept:
            chosen["language"] = kept["language"]
    chosen["from"] = digest(kept)
    return chosen, chosen["from"]
