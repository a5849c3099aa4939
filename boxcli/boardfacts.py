"""What the kernel and the files say of a board, for ``cantstop-box bench``: one fact a line, key: value.

Every probe reads through a :class:`Sysfs` rooted at "/" on the board (a fake
tree under a test's tmp_path), needs no pin, no bus and no subprocess (but
journalctl where /dev/kmsg cannot be read), and says in its line why a fact is
missing: a missing file is never a traceback. :func:`text_lines` runs them all.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

DT_BASE = "/sys/firmware/devicetree/base"
CLK_DIR = "/sys/kernel/debug/clk"
SPIDEVS = ("0.0", "0.1")
GPIO_GET_CHIPINFO = 0x8044B401  # _IOR(0xB4, 0x01, struct gpiochip_info): name[32], label[32], lines


class Sysfs:
    """The files the report reads, under ``root`` ("/" on the board; a fake tree in the tests)."""

    def __init__(self, root: Path | str = Path("/")) -> None:
        self.root = Path(root)

    def path(self, name: str) -> Path:
        return self.root / name.lstrip("/")

    def read(self, name: str) -> bytes:
        return self.path(name).read_bytes()

    def text(self, name: str) -> str:
        """The file's text, its NULs (a device-tree string list) as spaces; OSError where it cannot be read."""
        return " ".join(self.read(name).decode("utf-8", "replace").replace("\0", " ").split())

    def exists(self, name: str) -> bool:
        return os.path.lexists(self.path(name))

    def glob(self, pattern: str) -> list[str]:
        return sorted("/" + p.relative_to(self.root).as_posix() for p in self.root.glob(pattern.lstrip("/")))

    def resolve(self, name: str) -> str | None:
        """Where ``name`` leads after its links, as a path under the root; None where it does not exist."""
        path = self.path(name)
        if not path.exists():
            return None
        real, root = path.resolve(), self.root.resolve()
        return "/" + real.relative_to(root).as_posix() if real.is_relative_to(root) else str(real)

    def link_name(self, name: str) -> str | None:
        """The last part of where the link ``name`` points (a driver's, a device's name), or None."""
        try:
            return os.path.basename(os.readlink(self.path(name)))
        except OSError:
            return None


def _why(err: OSError) -> str:
    return err.strerror or type(err).__name__


# -- the board, the kernel, the root -----------------------------------------------


def board_lines(fs: Sysfs) -> list[str]:
    for base in ("/proc/device-tree", DT_BASE):
        try:
            model = fs.text(f"{base}/model")
        except OSError:
            continue
        try:
            compatible = fs.text(f"{base}/compatible")
        except OSError as err:
            compatible = f"unknown ({base}/compatible: {_why(err)})"
        return [f"board: {model}", f"compatible: {compatible}"]
    why = f"no /proc/device-tree/model nor {DT_BASE}/model: not a device-tree board"
    return [f"board: unknown ({why})", "compatible: unknown"]


def kernel_line(fs: Sysfs) -> str:
    try:
        return f"kernel: {fs.text('/proc/sys/kernel/osrelease')}"
    except OSError:
        return f"kernel: {platform.release()}" if fs.root == Path("/") else "kernel: unknown"


def _unescape(field: str) -> str:
    """A mount table's field with its octal escapes (``\\040`` a space) undone."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def mounts(fs: Sysfs) -> dict[str, tuple[str, str, str]]:
    """Mount point -> (source, type, options), the last mount of each winning; {} where neither table reads."""
    found: dict[str, tuple[str, str, str]] = {}
    try:
        for line in fs.read("/proc/self/mountinfo").decode(errors="replace").splitlines():
            left, _, right = line.partition(" - ")
            mine, theirs = left.split(), right.split()
            if len(mine) >= 6 and len(theirs) >= 2:
                found[_unescape(mine[4])] = (_unescape(theirs[1]), theirs[0], mine[5])
        return found
    except OSError:
        pass
    try:
        for line in fs.read("/proc/mounts").decode(errors="replace").splitlines():
            parts = line.split()
            if len(parts) >= 4:
                found[_unescape(parts[1])] = (_unescape(parts[0]), parts[2], parts[3])
    except OSError:
        pass
    return found


def root_lines(table: dict[str, tuple[str, str, str]]) -> list[str]:
    if "/" not in table:
        return ["root: unknown (" + ("no / in the mount table)" if table
                                    else "neither /proc/self/mountinfo nor /proc/mounts could be read)")]

    def said(point: str) -> str:
        source, kind, options = table[point]
        return f"{source} ({kind}, {'ro' if 'ro' in options.split(',') else 'rw'})"

    lines = [f"root: {said('/')}"]
    lines.append(f"root-ro: {said('/media/root-ro')}" if "/media/root-ro" in table
                 else "root-ro: none (/media/root-ro not mounted)")
    if table["/"][1] == "overlay":
        upper = table.get("/media/root-rw")
        lines.append("root overlay: yes" + (f" (writes go to {upper[1]} at /media/root-rw)" if upper else ""))
    else:
        lines.append(f"root overlay: no (/ is {table['/'][1]}: writes go to {table['/'][0]})")
    return lines


# -- the buses -------------------------------------------------------------------


def i2c_lines(fs: Sysfs, port: int, table: dict[str, tuple[str, str, str]]) -> list[str]:
    dev, adapter = f"/dev/i2c-{port}", f"/sys/class/i2c-adapter/i2c-{port}"
    lines = [f"i2c: {dev} present" if fs.exists(dev)
             else f"i2c: {dev} missing (is I2C on? dtparam=i2c_arm=on in config.txt, and the i2c-dev module)"]
    where = fs.resolve(adapter)
    if where is None:
        return lines + [f"i2c adapter: none ({adapter} missing)"]
    try:
        lines.append(f"i2c adapter: {fs.text(adapter + '/name')}")
    except OSError as err:
        lines.append(f"i2c adapter: name unknown ({adapter}/name: {_why(err)})")
    node = next((n for n in (fs.resolve(f"{adapter}/of_node"), fs.resolve(f"{adapter}/device/of_node")) if n), None)
    if node is None:
        lines.append(f"i2c node: none (no {adapter}/of_node: not from the device tree)")
    else:
        node = node.removeprefix(DT_BASE) or "/"
        lines.append(f"i2c node: {node}")
        lines.append(_clock_frequency(fs, f"{DT_BASE}{node}/clock-frequency"))
    lines.append(_kernel_clock(fs, f"{os.path.basename(os.path.dirname(where))}_div", table))
    return lines


def _clock_frequency(fs: Sysfs, name: str) -> str:
    try:
        raw = fs.read(name)
    except FileNotFoundError:
        return f"i2c clock-frequency: not in the device tree (i2c-bcm2835 then runs at 100000 Hz; {name} missing)"
    except OSError as err:
        return f"i2c clock-frequency: unknown ({name}: {_why(err)})"
    if len(raw) != 4:
        return f"i2c clock-frequency: unknown ({name} holds {len(raw)} bytes, not 4)"
    return f"i2c clock-frequency: {int.from_bytes(raw, 'big')} Hz (device tree)"


def _kernel_clock(fs: Sysfs, clock: str, table) -> str:
    """The rate of the divider i2c-bcm2835 registers for the bus ("<device>_div"), from debugfs."""
    name = f"{CLK_DIR}/{clock}/clk_rate"
    try:
        return f"i2c clock: {int(fs.text(name))} Hz (the kernel's {clock})"
    except PermissionError:
        return f"i2c clock: not readable ({name}: permission denied; run it with sudo)"
    except (OSError, ValueError) as err:
        if table.get("/sys/kernel/debug", ("", "", ""))[1] != "debugfs":
            return ("i2c clock: not readable (debugfs is not mounted:"
                    " sudo mount -t debugfs none /sys/kernel/debug)")
        why = _why(err) if isinstance(err, OSError) else "not a number"
        return f"i2c clock: not readable ({name}: {why}; not the Pi's i2c-bcm2835?)"


def spi_lines(fs: Sysfs) -> list[str]:
    return [f"spi{n}: /dev/spidev{n} {'present' if fs.exists(f'/dev/spidev{n}') else 'missing'}" for n in SPIDEVS]


def _chip_info(fs: Sysfs, chip: str) -> tuple[str, str] | None:
    """(label, line count) of gpiochipN from sysfs, else from the chip itself (its info ioctl); None: unknown."""
    for base in (f"/sys/bus/gpio/devices/{chip}", *fs.glob(f"/sys/bus/gpio/devices/{chip}/gpio/gpiochip*"),
                 *(c for c in fs.glob("/sys/class/gpio/gpiochip*") if fs.link_name(f"{c}/device") == chip)):
        try:
            return fs.text(f"{base}/label"), fs.text(f"{base}/ngpio")
        except OSError:
            continue
    try:
        import fcntl

        with open(fs.path(f"/dev/{chip}"), "rb") as node:
            info = fcntl.ioctl(node, GPIO_GET_CHIPINFO, bytes(68))
    except OSError:
        return None
    return info[32:64].split(b"\0")[0].decode(errors="replace"), str(int.from_bytes(info[64:68], "little"))


def gpio_lines(fs: Sysfs) -> list[str]:
    chips = sorted((p.rsplit("/", 1)[1] for p in fs.glob("/dev/gpiochip*")), key=lambda c: (len(c), c))
    if not chips:
        return ["gpio: no /dev/gpiochip* (no GPIO on this machine, or its driver is not loaded)"]
    lines = []
    for chip in chips:
        info = _chip_info(fs, chip)
        lines.append(f"{chip}: {info[0]}, {info[1]} lines" if info
                     else f"{chip}: label unknown (no sysfs entry, and the chip does not say)")
    return lines


# -- the Wi-Fi -------------------------------------------------------------------


def kernel_log(fs: Sysfs) -> list[str]:
    """The kernel's messages since boot: /dev/kmsg read without blocking, else journalctl on a real root.
    An OSError saying why where neither answers."""
    try:
        fd = os.open(fs.path("/dev/kmsg"), os.O_RDONLY | os.O_NONBLOCK)
    except OSError as err:
        kmsg_error = f"/dev/kmsg: {_why(err)}"
    else:
        chunks = []
        try:
            while len(chunks) < 100_000:
                try:
                    chunk = os.read(fd, 8192)  # one record a read; a plain file: all of it
                except BrokenPipeError:  # a record overwritten while reading: go on with the next
                    continue
                except BlockingIOError:
                    break
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            os.close(fd)
        text = b"".join(chunks).decode("utf-8", "replace")
        return [line.partition(";")[2] for line in text.splitlines() if ";" in line and not line.startswith(" ")]
    journalctl = shutil.which("journalctl") if fs.root == Path("/") else None
    if journalctl is None:
        raise OSError(f"{kmsg_error}; no journalctl")
    try:
        done = subprocess.run([journalctl, "-k", "-b", "--no-pager", "-o", "cat"], capture_output=True, text=True,
                              timeout=20)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise OSError(f"{kmsg_error}; journalctl: {err}") from None
    if done.returncode != 0:
        raise OSError(f"{kmsg_error}; journalctl: {' '.join(done.stderr.split()) or done.returncode}")
    return done.stdout.splitlines()


def wifi_lines(fs: Sysfs, log: Callable[[Sysfs], list[str]] = kernel_log) -> list[str]:
    names = ["wlan0"] + [p.split("/")[4] for p in fs.glob("/sys/class/net/*/wireless")]
    iface = next((n for n in names if fs.exists(f"/sys/class/net/{n}")), None)
    if iface is None:
        lines = ["wifi: none (no /sys/class/net/wlan0, no wireless interface)"]
    else:
        device = f"/sys/class/net/{iface}/device"
        driver = fs.link_name(f"{device}/driver")
        lines = [f"wifi: {iface}", f"wifi driver: {driver}" if driver else f"wifi driver: unknown ({device}/driver missing)"]
        ids = []
        for vendor, product in (("vendor", "device"), ("../idVendor", "../idProduct")):
            try:
                ids = [fs.text(f"{device}/{vendor}"), fs.text(f"{device}/{product}")]
                break
            except OSError:
                continue
        bus = fs.link_name(f"{device}/subsystem")
        lines.append(f"wifi chip: {ids[0]}:{ids[1]}" + (f" ({bus})" if bus else "") if ids
                     else f"wifi chip: unknown (no vendor and device ids in {device})")
    try:
        found = [line.strip() for line in log(fs) if "brcmfmac" in line]
    except OSError as err:
        return lines + [f"wifi log: kernel log not readable ({err})"]
    if not found:
        return lines + ["wifi log: no brcmfmac line in the kernel log"]
    firmware = [line for line in found if "firmware" in line.lower()]
    kept = set((firmware + [line for line in found if line not in firmware])[:3])
    return lines + [f"wifi log: {line}" for line in found if line in kept][:3]


def text_lines(fs: Sysfs, port: int = 1, *, log: Callable[[Sysfs], list[str]] = kernel_log) -> list[str]:
    """Everything the kernel and the files say, each probe alone: one failing is one line, never a traceback."""
    table = mounts(fs)
    probes = [("board", lambda: board_lines(fs)), ("kernel", lambda: [kernel_line(fs)]),
              ("root", lambda: root_lines(table)), ("i2c", lambda: i2c_lines(fs, port, table)),
              ("spi", lambda: spi_lines(fs)), ("gpio", lambda: gpio_lines(fs)), ("wifi", lambda: wifi_lines(fs, log))]
    lines = []
    for key, probe in probes:
        try:
            lines += probe()
        except Exception as err:  # a tree odder than any foreseen: said, and the report goes on
            lines.append(f"{key}: probe failed: {type(err).__name__}: {' '.join(str(err).split())}")
    return lines
