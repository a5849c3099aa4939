"""The buzzer: short melodies played beside the loop, never in it.

``GpioBuzzer`` plays on a gpiozero ``TonalBuzzer`` (a passive piezo, its
pitch set by PWM, the loudness by the PWM's duty: ``volume`` 1..100) or, on
a pin without PWM, a plain ``Buzzer`` (an active one: the same rhythm at its
own pitch). ``BellBuzzer`` rings the terminal's bell for the emulator, once
per note. Both take a melody as notes of (hertz, seconds), 0 hertz a rest,
and play it on their own thread: :meth:`play` only queues it (a full queue
drops the melody rather than wait).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import TextIO

from hw.errors import BuzzerError

log = logging.getLogger(__name__)

Melody = tuple[tuple[float, float], ...]


class _Player:
    """One thread playing queued melodies in order."""

    def __init__(self, backlog: int = 8) -> None:
        self._queue: queue.Queue = queue.Queue(maxsize=backlog)  # melodies waiting; more are dropped
        self.played: list[Melody] = []  # every melody started, in order (for tests and the self test)
        self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
        self._thread.start()

    def play(self, melody: Melody) -> None:
        try:
            self._queue.put_nowait(tuple(melody))
        except queue.Full:
            log.debug("buzzer busy: a melody dropped")

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Until every queued melody has played (tests, the self test)."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.01)
        return not self._queue.unfinished_tasks

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=3.0)

    def _run(self) -> None:
        while True:
            melody = self._queue.get()
            try:
                if melody is None:
                    return
                self.played.append(melody)
                for hz, seconds in melody:
                    self._note(hz, seconds)
                self._silence()
            except Exception as err:  # a buzzer fault never reaches the game
                log.error("buzzer: %s", err)
            finally:
                self._queue.task_done()

    def _note(self, hz: float, seconds: float) -> None:
        raise NotImplementedError

    def _silence(self) -> None:
        pass


class GpioBuzzer(_Player):
    """A piezo on a BCM pin (TonalBuzzer, else Buzzer)."""

    def __init__(self, pin: int, *, pin_factory, volume: int = 50, backlog: int = 8) -> None:
        from gpiozero import Buzzer, TonalBuzzer
        from gpiozero.exc import GPIOPinInUse, PinInvalidPin, PinPWMUnsupported

        if pin_factory is None:
            raise TypeError("GpioBuzzer needs an explicit pin_factory")
        self.volume = max(1, min(100, int(volume)))
        try:
            try:
                self.device = TonalBuzzer(pin, octaves=2, pin_factory=pin_factory)
                self.tonal = True
            except PinPWMUnsupported:
                self.device = Buzzer(pin, pin_factory=pin_factory)
                self.tonal = False
        except GPIOPinInUse as exc:
            raise BuzzerError(f"GPIO{pin} (the buzzer) is already in use by another device in this program") from exc
        except PinInvalidPin as exc:
            raise BuzzerError(f"GPIO{pin} (the buzzer) is not a valid GPIO pin on this board") from exc
        except Exception as exc:
            raise BuzzerError(f"cannot set up GPIO{pin} (the buzzer): {' '.join(str(exc).split())}") from exc
        super().__init__(backlog)

    def _note(self, hz: float, seconds: float) -> None:
        if hz <= 0:
            self._silence()
        elif self.tonal:
            from gpiozero.tones import Tone

            low, high = self.device.min_tone.frequency, self.device.max_tone.frequency
            self.device.play(Tone.from_frequency(min(max(hz, low), high)))
            self.device.pwm_device.value = 0.5 * self.volume / 100  # the duty is the loudness
        else:
            self.device.on()
        time.sleep(seconds)

    def _silence(self) -> None:
        if self.tonal:
            self.device.stop()
        else:
            self.device.off()

    def close(self) -> None:
        super().close()
        self.device.close()


class BellBuzzer(_Player):
    """The emulator's buzzer: the terminal bell, once per sounding note."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.rings = 0
        super().__init__()

    def _note(self, hz: float, seconds: float) -> None:
        if hz > 0:
            self._stream.write("\a")
            self._stream.flush()
            self.rings += 1
        time.sleep(max(seconds, 0.12))  # terminals merge bells closer than this
