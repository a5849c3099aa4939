"""Buttons without lgpio: gpiozero's register backend on /dev/gpiomem, its edges read by polling.

gpiozero's own ``NativeFactory`` reads and sets pins through the GPIO
registers that /dev/gpiomem maps (a Pi Zero, 1, 2, 3 or 4), but it watches
for edges through the kernel's sysfs GPIO interface: it writes the pin's
number to /sys/class/gpio/export and its gpioN/edge file. Under the service
that cannot work: ``ProtectKernelTunables=`` makes /sys read-only, plain
Debian leaves those files to root, and the number sysfs wants is the chip's
base plus the pin, which is not the pin on every kernel.

``PolledNativeFactory`` is that factory with the sysfs part replaced: a
thread reads each watched pin's level from the level register every
``POLL_INTERVAL`` seconds and reports each change as an edge (a press is
tens of milliseconds; the firmware debounces). So the only file it opens is
/dev/gpiomem, which the unit's ``DeviceAllow=/dev/gpiomem rw`` lets through.
"""

from __future__ import annotations

import threading

from gpiozero.exc import PinInvalidEdges
from gpiozero.pins.local import LocalPiFactory
from gpiozero.pins.native import GPIOMemory, Native2711Pin, Native2835Pin, NativeFactory

#: How often a watched pin's level is read: 200 times a second costs a Pi Zero well under 1% of its CPU.
POLL_INTERVAL = 0.005
EDGES = ("none", "rising", "falling", "both")


class _PolledEdges:
    """NativePin's edge handling, taken from the factory's poller instead of sysfs."""

    def _get_edges(self) -> str:
        return getattr(self, "_polled_edges", "none")

    def _set_edges(self, value: str) -> None:
        if value not in EDGES:
            raise PinInvalidEdges(f'invalid edge specification "{value}" for pin {self!r}')
        self._polled_edges = value

    def _enable_event_detect(self) -> None:
        self._last_call = None
        self.factory.poller.watch(self)

    def _disable_event_detect(self) -> None:
        self.factory.poller.unwatch(self)


class PolledPin2835(_PolledEdges, Native2835Pin):
    """A pin of a Pi Zero, 1, 2 or 3."""


class PolledPin2711(_PolledEdges, Native2711Pin):
    """A pin of a Pi 4 (its pull-ups sit in other registers)."""


class _Poller:
    """A thread that reads the watched pins' levels and calls each pin's when_changed on an edge it watches."""

    def __init__(self, ticks, ticks_diff, interval: float) -> None:
        self._ticks, self._ticks_diff = ticks, ticks_diff
        self._interval = interval
        self._lock = threading.Lock()
        self._levels: dict[object, bool] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gpiomem-poll", daemon=True)
        self._thread.start()

    def watch(self, pin) -> None:
        with self._lock:
            self._levels[pin] = pin.state

    def unwatch(self, pin) -> None:
        with self._lock:
            self._levels.pop(pin, None)

    def poll(self) -> None:
        """Read every watched pin once (the thread's loop; tests call it to step)."""
        with self._lock:
            watched = list(self._levels.items())
        for pin, before in watched:
            now = pin.state
            if now == before:
                continue
            with self._lock:
                if pin not in self._levels:
                    continue
                self._levels[pin] = now
            if pin.edges in ("both", "rising" if now else "falling"):
                ticks = self._ticks()
                bounce = pin.bounce
                if bounce is None or pin._last_call is None or self._ticks_diff(ticks, pin._last_call) > bounce:
                    pin._call_when_changed(ticks, now)
                    pin._last_call = ticks

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            self.poll()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join()


class PolledNativeFactory(NativeFactory):
    """gpiozero's native factory, opening /dev/gpiomem and nothing under /sys.

    ``memory`` (a ``GPIOMemory``) and ``revision`` (the board's revision code)
    replace /dev/gpiomem and the device tree's revision for tests;
    ``interval`` 0 starts no polling thread (tests step ``poller.poll()``).
    """

    def __init__(self, *, memory: GPIOMemory | None = None, revision: int | None = None,
                 interval: float = POLL_INTERVAL) -> None:
        LocalPiFactory.__init__(self)  # not NativeFactory's: that one starts the sysfs watcher
        self._revision = revision
        self.fs = None
        self.dispatch = None
        self.mem = memory if memory is not None else GPIOMemory(self.board_info.soc)
        self.poller = _Poller(self.ticks, self.ticks_diff, interval) if interval else _Stepped(self)
        self.pin_class = PolledPin2711 if self.board_info.soc == "BCM2711" else PolledPin2835

    def _get_revision(self) -> int:
        return self._revision if self._revision is not None else super()._get_revision()

    def close(self) -> None:
        if self.poller is not None:
            self.poller.close()  # the thread stops first; closing the pins below still unwatches them
        super().close()


class _Stepped(_Poller):
    """A poller without a thread: ``poll()`` reads the pins when called."""

    def __init__(self, factory) -> None:
        self._ticks, self._ticks_diff = factory.ticks, factory.ticks_diff
        self._lock = threading.Lock()
        self._levels = {}

    def close(self) -> None:
        pass
