"""Test doubles for the hardware ports."""

from __future__ import annotations

from PIL import Image

from hw.display import HEIGHT, WIDTH
from hw.errors import DisplayError


class FakeDisplay:
    """A ``Display`` that records every frame it is shown.

    Set ``fail`` to True (or to a message) to make ``show`` and ``clear``
    raise ``DisplayError``, as an unplugged OLED would.
    """

    def __init__(self, size: tuple[int, int] = (WIDTH, HEIGHT)) -> None:
        self._size = (int(size[0]), int(size[1]))
        self.frames: list[Image.Image] = []
        self.show_calls = 0
        self.clear_calls = 0
        self.closed = False
        self.fail: bool | str = False
        self.dimmed = False
        self.kept = False  # keep_last_frame was asked

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    @property
    def last(self) -> Image.Image | None:
        """The last frame shown (a copy), or None before the first."""
        return self.frames[-1] if self.frames else None

    def dim(self, on: bool) -> None:
        self._maybe_fail()
        self.dimmed = bool(on)

    def show(self, image: Image.Image) -> None:
        self.show_calls += 1
        self._maybe_fail()
        if image.size != self._size:
            raise ValueError(f"frame is {image.size[0]}x{image.size[1]}, the display is {self._size[0]}x{self._size[1]}")
        self.frames.append(image.copy())

    def clear(self) -> None:
        self.clear_calls += 1
        self._maybe_fail()
        self.frames.append(Image.new("1", self._size))

    def keep_last_frame(self) -> None:
        self.kept = True

    def close(self) -> None:
        self.closed = True

    def _maybe_fail(self) -> None:
        if self.fail:
            message = self.fail if isinstance(self.fail, str) else "the fake display is unplugged"
            raise DisplayError(message)
