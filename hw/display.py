"""The OLED: a frame in (1-bit, or grey levels for the SSD1322), bytes on I2C or SPI out (via luma).

``Display`` is the port the firmware draws on. ``open_oled`` builds the
serial interface and one of :mod:`hw.oled`'s drivers (luma's own device
classes, sending only the part of a frame that changed) from the config
values and wraps them in ``LumaDisplay``; every luma/smbus/spidev fault comes
out as a one-line ``DisplayError``.

``LumaDisplay`` keeps the panel honest around faults: after a failed write the
next frame first sends the whole init sequence again (a panel unplugged and
plugged back has lost its set-up and RAM), then the contrast, then the whole
frame; waking from dim repaints the whole last frame.

``i2c_speed_note`` reads the clock the kernel runs an I2C bus at and, when
it is under 400 kHz, says in one line how long a frame takes and the fix
(the self test prints it; the service logs it as it starts).
"""

from __future__ import annotations

import errno
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol, runtime_checkable

from PIL import Image

from hw.errors import DisplayError
from hw.panels import DRIVERS, INTERFACES, SIZES, SPI_ONLY, drivers_for, size_name  # noqa: F401  (the display's names)

WIDTH, HEIGHT = 128, 64

@runtime_checkable
class Display(Protocol):
    """A screen: ``show`` a PIL image of exactly ``size`` pixels (mode "1", or "L" on a grey one)."""

    @property
    def size(self) -> tuple[int, int]: ...

    def show(self, image: Image.Image) -> None: ...

    def clear(self) -> None: ...

    def dim(self, on: bool) -> None: ...

    def keep_last_frame(self) -> None:
        """Leave the last frame on the glass when the program ends (the 'box is off' screen)."""

    def close(self) -> None: ...


class LumaDisplay:
    """A luma device seen through the ``Display`` port.

    The device says what it can do, as luma's devices declare their ``mode``: ``frame_mode`` (the frames it
    takes: "1", or "L" on the grey SSD1322), ``invalidate()`` (forget what the panel holds) and ``reinit()``
    (its whole set-up again, for a panel that lost power). The box's drivers (hw.oled) declare all three, and
    so does the dummy display (:func:`open_dummy`); nothing here probes for them.
    """

    def __init__(self, device, *, where: str = "the display", contrast: int = 255, interface: str = "i2c",
                 port: int | None = None) -> None:
        self.device = device
        self._where = where
        self._interface = interface
        self._port = port  # the I2C bus number, for messages
        self._contrast = contrast
        self._dimmed = False
        self._last: Image.Image | None = None
        self._failed = False  # a write failed: set the panel up again before the next frame

    @property
    def size(self) -> tuple[int, int]:
        return tuple(self.device.size)

    @property
    def mode(self) -> str:
        """The frames the panel takes: "1" (lit or dark), or "L" (grey levels) on the SSD1322."""
        return self.device.frame_mode

    def show(self, image: Image.Image) -> None:
        """Send the frame (what changed of it); raise ``DisplayError`` if the bus fails.

        A frame of the other mode is converted: a 1-bit one shows lit as full
        brightness on a grey panel; on a 1-bit panel any grey level is lit.
        """
        if image.size != self.size:
            raise ValueError(f"frame is {image.size[0]}x{image.size[1]}, the display is {self.size[0]}x{self.size[1]}")
        self._last = as_mode(image, self.mode)  # what the glass should show, even if this write fails
        with self._talking():
            if self._failed:
                self._set_up_again()
            self.device.display(self._last)

    def clear(self) -> None:
        """Blank the screen."""
        self.show(Image.new(self.mode, self.size))

    def dim(self, on: bool) -> None:
        """Turn the brightness right down (an idle screen wears an OLED) or back up.

        Waking repaints the whole last frame, so whatever happened to the
        panel while it sat dim, the players see the real screen.
        """
        self._dimmed = bool(on)
        with self._talking():
            if self._failed:
                self._set_up_again()
            self.device.contrast(self._level())
            if not on and self._last is not None:
                self.device.invalidate()
                self.device.display(self._last)

    def _level(self) -> int:
        return 1 if self._dimmed else self._contrast

    def _set_up_again(self) -> None:
        self.device.reinit()
        self.device.contrast(self._level())
        self.device.invalidate()

    @contextmanager
    def _talking(self):
        try:
            yield
        except Exception as exc:  # smbus OSError, luma DeviceNotFoundError, spidev ...
            self._failed = True
            if _smbus_only(exc):
                reason = _smbus_only_reason(exc, self._port, self._interface)
                raise DisplayError(f"cannot drive {self._where}: {reason}") from exc
            raise DisplayError(f"{self._where} stopped answering ({_reason(exc)})") from exc
        self._failed = False

    def keep_last_frame(self) -> None:
        """Leave the last frame on the panel after exit (luma blanks it at exit otherwise)."""
        if self.device is not None:
            self.device.persist = True

    def close(self) -> None:
        """Blank and switch off the panel, release the bus; never raises."""
        device, self.device = self.device, None
        if device is None:
            return
        try:
            device.cleanup()
        except Exception:
            pass  # shutting down: an unplugged display must not mask the real exit reason

    def __enter__(self) -> LumaDisplay:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def as_mode(image: Image.Image, mode: str) -> Image.Image:
    """A copy of ``image`` in ``mode`` ("1" or "L"): "1" -> "L" lit as 255; "L" -> "1" every level above 0 lit."""
    if image.mode == mode:
        return image.copy()
    if mode == "1":
        return image.convert("L").point(lambda v: 255 if v else 0, "1")
    return image.convert(mode)


def open_oled(
    driver: str,
    *,
    interface: str = "i2c",
    port: int = 1,
    address: int = 0x3C,
    spi_device: int = 0,
    spi_port: int = 0,
    gpio_dc: int = 24,
    gpio_reset: int = 25,
    rotation: int = 0,
    contrast: int = 255,
    width: int = WIDTH,
    height: int = HEIGHT,
    serial=None,
) -> LumaDisplay:
    """Open a real OLED (or drive a given luma ``serial`` object, for tests).

    ``rotation`` is luma's: 0..3 quarter turns clockwise. Raises
    ``DisplayError`` (one line, original as ``__cause__``) for an unknown
    driver or interface, a missing bus, or a display that does not answer.
    """
    if driver not in DRIVERS:
        raise DisplayError(f"unknown display driver {driver!r}: use one of {', '.join(DRIVERS)}")
    if interface not in INTERFACES:
        raise DisplayError(f"unknown display interface {interface!r}: use one of {', '.join(INTERFACES)}")
    if driver in SPI_ONLY and interface != "spi":
        raise DisplayError(f"the {driver} talks SPI only: use interface spi")
    if rotation not in (0, 1, 2, 3):
        raise DisplayError(f"display rotation must be 0, 1, 2 or 3 quarter turns, not {rotation!r}")
    if not 0 <= contrast <= 255:
        raise DisplayError(f"display contrast must be 0..255, not {contrast!r}")

    name = f"{driver.upper()} display"
    if interface == "i2c":
        location = f"on I2C bus {port} at address 0x{address:02X}"
    else:
        location = f"on SPI {spi_port}.{spi_device} (DC GPIO{gpio_dc}, RST GPIO{gpio_reset})"

    if serial is None:
        serial = _open_serial(interface, name, location, port=port, address=address, spi_port=spi_port,
                              spi_device=spi_device, gpio_dc=gpio_dc, gpio_reset=gpio_reset)

    from luma.core.error import DeviceDisplayModeError

    from hw.oled import DRIVERS as driver_classes

    try:
        device = driver_classes[driver](serial, width=width, height=height, rotate=rotation)
        device.contrast(contrast)
    except DeviceDisplayModeError as exc:
        _close_quietly(serial)
        raise DisplayError(f"the {driver} driver does not support a {width}x{height} display") from exc
    except Exception as exc:
        _close_quietly(serial)
        if _smbus_only(exc):
            reason = _smbus_only_reason(exc, port, interface)
            raise DisplayError(f"cannot drive the {name} {location}: {reason}") from exc
        raise DisplayError(f"no {name} answers {location} ({_reason(exc)}; check wiring and address)") from exc
    return LumaDisplay(device, where=f"the {name} {location}", contrast=contrast, interface=interface,
                       port=port if interface == "i2c" else None)


def _smbus_only(exc: BaseException) -> bool:
    """Did the bus refuse the transfer itself (EOPNOTSUPP), rather than nobody answering?

    luma sends commands as SMBus block writes but a frame's data as one plain
    I2C transfer (I2C_RDWR); an adapter that speaks SMBus only (i2c-stub, some
    USB and PC adapters) refuses that with errno 95 although the display answered.
    """
    return isinstance(exc, OSError) and exc.errno == errno.EOPNOTSUPP


def _smbus_only_reason(exc: OSError, port: int | None, interface: str = "i2c") -> str:
    if interface != "i2c":
        return f"the SPI bus refused the transfer ({_reason(exc)})"
    bus = f"I2C bus {port}" if port is not None else "the I2C bus"
    return (f"{bus}'s adapter speaks SMBus only and cannot do the plain I2C transfers a frame needs"
            f" ({_reason(exc)}); use the Pi's own I2C bus (dtparam=i2c_arm=on, bus 1)")


def _open_serial(interface: str, name: str, location: str, **kw):
    from luma.core.interface import serial as luma_serial

    try:
        if interface == "i2c":
            return luma_serial.i2c(port=kw["port"], address=kw["address"])
        return luma_serial.spi(port=kw["spi_port"], device=kw["spi_device"],
                               gpio_DC=kw["gpio_dc"], gpio_RST=kw["gpio_reset"])
    except Exception as exc:
        raise DisplayError(_serial_message(interface, name, location, kw, exc)) from exc


def _serial_message(interface: str, name: str, location: str, kw: dict, exc: Exception) -> str:
    from luma.core.error import DeviceNotFoundError, DevicePermissionError

    if isinstance(exc, (DevicePermissionError, PermissionError)):
        group = "i2c" if interface == "i2c" else "spi' and 'gpio"
        return f"permission denied opening the {name} {location} (add the user to the '{group}' group)"
    if isinstance(exc, ImportError):
        return (f"cannot drive the {name} {location}: Python module {exc.name or '?'} is missing"
                " (install the 'pi' extra; on a laptop try 'cantstop-box emulate')")
    if interface == "i2c" and isinstance(exc, (DeviceNotFoundError, FileNotFoundError)):
        return f"no {name} answers {location} (/dev/i2c-{kw['port']} is missing: is I2C enabled? check wiring)"
    bus = "I2C" if interface == "i2c" else "SPI"
    return f"no {name} answers {location} ({_reason(exc)}: is {bus} enabled? check wiring)"


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _close_quietly(serial) -> None:
    try:
        serial.cleanup()
    except Exception:
        pass


def i2c_clock_hz(port: int, sys_dir: Path = Path("/sys")) -> int | None:
    """The clock the kernel runs I2C bus ``port`` at, from its device tree node; None where it does not say.

    On a Raspberry Pi the node's ``clock-frequency`` (a big-endian 32-bit
    number) is what ``dtparam=i2c_arm_baudrate`` set, 100 kHz when nothing did.
    """
    try:
        raw = (sys_dir / f"class/i2c-adapter/i2c-{port}/of_node/clock-frequency").read_bytes()
    except OSError:
        return None
    return int.from_bytes(raw, "big") if len(raw) == 4 else None


#: The I2C clock the box asks for: a whole 128x64 frame then takes about 23 ms on the wire, not 93 as at the default 100 kHz.
FAST_I2C_HZ = 400_000


def i2c_speed_note(port: int, size: tuple[int, int] = (WIDTH, HEIGHT), sys_dir: Path = Path("/sys")) -> str | None:
    """One line for a slow display bus: how long a whole frame of ``size`` takes on it, and the fix;
    None when the bus is fast or does not say."""
    hz = i2c_clock_hz(port, sys_dir)
    if hz is None or hz >= FAST_I2C_HZ:
        return None
    frame_ms = (size[0] * size[1] // 8 + 10) * 9 / hz * 1000  # the bytes, the address, control and window commands
    fast_ms = frame_ms * hz / FAST_I2C_HZ
    return (f"I2C bus {port} runs at {hz / 1000:g} kHz: a whole frame takes {frame_ms:.0f} ms to reach the glass"
            f" ({fast_ms:.0f} ms at 400 kHz); add dtparam=i2c_arm_baudrate=400000 to the Pi's config.txt and reboot")


def open_dummy(width: int = WIDTH, height: int = HEIGHT) -> LumaDisplay:
    """A display that only keeps the last frame, as ``.device.image``."""
    from luma.core.device import dummy

    class Dummy(dummy):
        """luma's dummy, declaring what the box's drivers declare: 1-bit frames, and nothing on a panel to
        forget or set up again."""

        frame_mode = "1"

        def invalidate(self) -> None:
            pass

        def reinit(self) -> None:
            pass

    return LumaDisplay(Dummy(width=width, height=height, mode="1"), where="the dummy display")
