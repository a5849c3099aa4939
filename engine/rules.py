"""Rules settings: the variants of the game, all off by default."""

from dataclasses import dataclass, fields

from .errors import RulesError


@dataclass(frozen=True, slots=True)
class Rules:
    """The variants in force for one game.

    >>> Rules()
    Rules(columns_to_win=3, speedy=False, risky=False)
    >>> Rules.from_json({"columns_to_win": 4}).to_json()
    {'columns_to_win': 4, 'speedy': False, 'risky': False}
    """

    columns_to_win: int = 3
    speedy: bool = False
    risky: bool = False

    def __post_init__(self):
        c = self.columns_to_win
        if type(c) is not int or not 1 <= c <= 11:
            raise RulesError(f"columns_to_win must be a whole number from 1 to 11, not {c!r}")
        for name in ("speedy", "risky"):
            value = getattr(self, name)
            if type(value) is not bool:
                raise RulesError(f"{name} must be true or false, not {value!r}")

    @classmethod
    def from_json(cls, obj) -> "Rules":
        """Rules from the record's ``rules`` object; every key is optional."""
        if obj is None:
            return cls()
        if not isinstance(obj, dict):
            raise RulesError("rules must be an object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(obj) - known)
        if unknown:
            raise RulesError(f"unknown rule {unknown[0]!r} (known: {', '.join(sorted(known))})")
        return cls(**obj)

    def to_json(self) -> dict:
        """The rules as the record's ``rules`` object, every key present."""
        return {"columns_to_win": self.columns_to_win, "speedy": self.speedy, "risky": self.risky}
