"""The errors the rules engine raises: one family, each saying what was wrong."""


class CantStopError(Exception):
    """Base of every error the engine raises."""


class RulesError(CantStopError, ValueError):
    """A rules setting (variant) is out of range or of the wrong type."""


class RecordError(CantStopError, ValueError):
    """A game record is not valid JSON or does not follow the record schema."""


class IllegalEventError(CantStopError, ValueError):
    """An event is not allowed in the current state of the game.

    ``index`` is the 1-based number of the event in its record when known.
    """

    def __init__(self, message: str, index: int | None = None):
        super().__init__(message)
        self.message = message
        self.index = index

    def __str__(self) -> str:
        if self.index is None:
            return self.message
        return f"event {self.index}: {self.message}"

    def at(self, index: int) -> "IllegalEventError":
        """The same error, numbered as the ``index``-th event of a record."""
        err = type(self)(self.message, index)
        err.__cause__ = self.__cause__
        return err


class GameOverError(IllegalEventError):
    """An event came after the game was already won."""
