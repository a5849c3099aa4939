"""The card lint: the built card read against each board it claims (tools/image/boards.py), from
that board's own .dtb on the boot partition. Run at the end of every `make image`, and as
`make image-check`'s first rows.

    python -m tools.image.lint (--image CARD.img[.xz|.zst] | --boot DIR --root DIR) [--markdown FILE]

Its rules, each a column of the table it prints (one row a board):

    tree      the board's .dtb is on the boot partition and reads as a device tree
    sd        every driver on the path from the tree's root to the SD controller (each node's
              compatible, its parents, and what it takes: each *-supply and its regulator, clocks,
              GPIOs, pins, resets, mailboxes, DMA, interrupts) is built in or in the initramfs
    config    every dtparam and dtoverlay of config.txt that applies to the board resolves against
              its tree: an __overrides__ the firmware applies, or its effect already in the tree
    i2c       the header's I2C on, at 400 kHz, its pins muxed, and named i2c1 (so /dev/i2c-1)
    spi       SPI0 on, its pins muxed, a device at each chip select for spidev, named spi0
    wifi      the firmware of every Wi-Fi chip the board ships with (a chip no Debian package has
              firmware for is a "gap", said in one line, not a failure)
    cmdline   no cma= on the kernel's command line (it leaves a Pi 4 unbootable)

Exit status 0 when every row passes (gaps said), 1 when one fails, 2 when the card cannot be read.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import boards as boards_
from . import dtpatch, fdt
from .cardfacts import Card, Unreadable, read_card

RULES = ["tree", "sd", "config", "i2c", "spi", "wifi", "cmdline"]
#: Properties whose phandles name what a node needs to work (the first cell of each entry a phandle,
#: then as many cells as the provider's #<kind>-cells say).
CELLS = {"clocks": "#clock-cells", "resets": "#reset-cells", "dmas": "#dma-cells", "mboxes": "#mbox-cells",
         "power-domains": "#power-domain-cells", "gpios": "#gpio-cells", "gpio": "#gpio-cells",
         "interrupts-extended": "#interrupt-cells", "phys": "#phy-cells"}
SINGLE = {"interrupt-parent", "mmc-pwrseq"}
PINCTRL = re.compile(r"pinctrl-\d+$")
#: Compatibles the kernel's device tree core itself handles: a bus's children are made by it.
CORE = {"simple-bus", "simple-mfd", "arm,amba-bus", "isa"}


@dataclass
class Result:
    status: str  # ok, FAIL, gap
    detail: str = ""


def references(tree: fdt.Tree, node: fdt.Node) -> list[tuple[str, fdt.Node]]:
    """(property, node) for each phandle ``node`` takes from another node."""
    out = []
    for prop in node.props:
        cells = node.cells(prop)
        if prop.endswith("-supply") or prop in SINGLE or PINCTRL.match(prop):
            out += [(prop, tree.by_phandle[c]) for c in (cells if PINCTRL.match(prop) else cells[:1])
                    if c in tree.by_phandle]
        elif prop in CELLS or prop.endswith("-gpios"):
            size_prop = CELLS.get(prop, "#gpio-cells")
            i = 0
            while i < len(cells):
                provider = tree.by_phandle.get(cells[i])
                if provider is None:
                    break
                out.append((prop, provider))
                i += 1 + (provider.cells(size_prop) or [0])[0]
    return out


def needed(tree: fdt.Tree, start: fdt.Node) -> list[tuple[str, fdt.Node]]:
    """Every node ``start`` needs a driver of, with how it was reached: its parents, what it takes,
    and theirs in turn. A pin group (no compatible) stands for its controller."""
    out, seen, todo = [], set(), [("the SD controller", start)]
    while todo:
        how, node = todo.pop(0)
        while node is not None and not node.strings("compatible") and node.parent is not None:
            node = node.parent  # a pin group, a regulator's state: its controller does the work
        if node is None or node.path in seen or node.parent is None:
            continue
        seen.add(node.path)
        if not node.enabled and how.startswith("clocks of ") and not how.endswith(f" of {start.name}"):
            continue  # a clock controller's optional parent (cprman's DSI PLLs): it runs without them
        out.append((how, node))
        if not node.enabled:
            continue
        todo.append((f"parent of {node.name}", node.parent))
        todo += [(f"{prop} of {node.name}", ref) for prop, ref in references(tree, node)]
    return out


def check_sd(tree: fdt.Tree, board: boards_.Board, card: Card) -> Result:
    controllers = [n for n in tree.compatible_nodes(board.sd) if n.enabled]
    if not controllers:
        return Result("FAIL", f"no enabled {board.sd} in the tree")
    if card.kernel is None:
        return Result("FAIL", "the kernel's module lists cannot be read")
    faults, served = [], []
    for how, node in needed(tree, controllers[0]):
        if not node.enabled:
            faults.append(f"{node.name} ({how}) is disabled in the tree")
            continue
        compatibles = node.strings("compatible")
        drivers = [(c, card.kernel.serves(c)) for c in compatibles if c not in CORE]
        if set(compatibles) & CORE or any(d == "builtin" for _, d in drivers):
            continue
        modules = [(c, d) for c, d in drivers if d]
        if not modules:
            faults.append(f"{node.name} ({how}): no driver for {', '.join(compatibles)}")
            continue
        gaps = [(c, d, card.kernel.missing(d)) for c, d in modules]
        if any(not missing for _, _, missing in gaps):
            served.append(gaps[0][1])
            continue
        c, d, missing = gaps[0]
        faults.append(f"{c} ({how}): {', '.join(m + '.ko' for m in missing)} not in the initramfs")
    if faults:
        return Result("FAIL", "; ".join(faults))
    return Result("ok", f"{controllers[0].name}: in the initramfs {', '.join(sorted(set(served))) or 'nothing needed'}")


# -- config.txt -------------------------------------------------------------------------

def config_lines(config_txt: str, board: boards_.Board) -> list[tuple[str, str]]:
    """(key, value) of each active line that applies to ``board``: before any section, under [all],
    under one of its filters, or under a filter that names no board ([EDID=...], [gpio4=1]: it may)."""
    applies, out = True, []
    for raw in config_txt.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1].strip().lower()
            applies = name == "all" or name in board.filters or (name not in boards_.BOARD_FILTERS and name != "none")
            continue
        key, sep, value = line.partition("=")
        if applies and sep:
            out.append((key.strip(), value.strip()))
    return out


def header_i2c(tree: fdt.Tree) -> tuple[fdt.Node | None, list[str]]:
    """The header's I2C controller and what is wrong with it."""
    node = tree.find(f"/soc/{dtpatch.I2C1}")
    if node is None:
        return None, [f"no /soc/{dtpatch.I2C1}"]
    faults = []
    if not node.enabled:
        faults.append("disabled")
    hz = node.cells("clock-frequency")
    if hz != [dtpatch.I2C_HZ]:
        faults.append(f"at {hz[0] // 1000 if hz else 100} kHz, not {dtpatch.I2C_HZ // 1000}")
    pins = [tree.by_phandle.get(p) for p in node.cells("pinctrl-0")]
    if not any(p is not None and p.cells("brcm,pins") == [2, 3] for p in pins):
        faults.append("GPIO2/3 not muxed to it")
    if tree.alias("i2c1") != node.path:
        faults.append(f"i2c1 is {tree.alias('i2c1') or 'no alias'}, so its number is whatever it probes as")
    return node, faults


def header_spi(tree: fdt.Tree, card: Card) -> tuple[fdt.Node | None, list[str]]:
    node = tree.find(f"/soc/{dtpatch.SPI0}")
    if node is None:
        return None, [f"no /soc/{dtpatch.SPI0}"]
    faults = []
    if not node.enabled:
        faults.append("disabled")
    pins = [tree.by_phandle.get(p) for p in node.cells("pinctrl-0")]
    if not any(p is not None and p.cells("brcm,pins") == dtpatch.SPI_PINS for p in pins):
        faults.append("GPIO7-11 not muxed to it")
    devices = [c for c in node.children if dtpatch.SPI_COMPATIBLE in c.strings("compatible") and c.enabled]
    if sorted(c.cells("reg")[0] for c in devices if c.cells("reg")) != [0, 1]:
        faults.append("no device at CE0 and CE1 for spidev")
    elif dtpatch.SPI_COMPATIBLE not in card.udev_rules or "spidev" not in card.udev_rules:
        faults.append("no udev rule gives its devices to spidev")
    if tree.alias("spi0") != node.path:
        faults.append(f"spi0 is {tree.alias('spi0') or 'no alias'}")
    return node, faults


def applied(name: str, value: str, tree: fdt.Tree, card: Card) -> str:
    """Why a dtparam the tree has no override for is in force all the same, or ""."""
    on = value.lower() in ("", "on", "true", "yes", "okay")
    if name in ("i2c_arm", "i2c") and on:
        _, faults = header_i2c(tree)
        return "" if [f for f in faults if not f.startswith("at ")] else "I2C1 on in the tree"
    if name in ("i2c_arm_baudrate", "i2c_baudrate"):
        node = tree.find(f"/soc/{dtpatch.I2C1}")
        return f"I2C1 at {value} Hz in the tree" if node and node.cells("clock-frequency") == [int(value or 0)] else ""
    if name == "spi" and on:
        return "" if header_spi(tree, card)[1] else "SPI0 on in the tree"
    return ""


def check_config(tree: fdt.Tree, board: boards_.Board, card: Card) -> Result:
    text = card.boot.get("config.txt", b"").decode("utf-8", "replace")
    overrides = tree.root.child("__overrides__")
    faults, said = [], []
    for key, value in config_lines(text, board):
        if key == "dtoverlay" and value:
            name = value.split(",", 1)[0]
            if f"{name}.dtbo" not in card.overlays:
                faults.append(f"dtoverlay={name}: no overlays/{name}.dtbo on the boot partition")
        elif key == "dtparam":
            for param in value.split(","):
                name, _, val = param.partition("=")
                if overrides is not None and name in overrides.props:
                    said.append(f"{name} (override)")
                elif why := applied(name, val, tree, card):
                    said.append(why)
                else:
                    faults.append(f"dtparam={param}: no __overrides__ in this tree, and not in it already")
    if faults:
        return Result("FAIL", "; ".join(faults))
    return Result("ok", "; ".join(dict.fromkeys(said)) or "no dtparam or dtoverlay")


# -- the rest ---------------------------------------------------------------------------

def check_wifi(tree: fdt.Tree, board: boards_.Board, card: Card) -> Result:
    """Each chip's firmware and the board's own settings for it (brcmfmac asks for
    <firmware>.<the tree's first compatible>.txt: a plain .txt is another board's antenna and power)."""
    board_id = (tree.root.strings("compatible") or ["?"])[0].replace("/", "-")
    said, faults, gaps = [], [], []
    for chip in board.chips:
        bin_ = f"brcm/{chip.firmware}.bin"
        nvram = [f"brcm/{chip.firmware}.{board_id}.txt"] + ([f"brcm/{chip.firmware}.txt"] if chip.one_board else [])
        have_nvram = next((n for n in nvram if n in card.firmware), None)
        if bin_ in card.firmware and have_nvram:
            said.append(f"{chip.name}: {chip.firmware}.bin, {Path(have_nvram).name}")
        elif chip.gap and bin_ not in card.firmware:
            gaps.append(f"{chip.name}: {chip.gap}")
        else:
            faults.append(f"{chip.name}: no {bin_ if bin_ not in card.firmware else nvram[0]}")
    if faults:
        return Result("FAIL", "; ".join(faults + gaps))
    return Result("gap" if gaps else "ok", "; ".join(said + gaps))


def check_cmdline(card: Card) -> Result:
    words = card.boot.get("cmdline.txt", b"").decode("utf-8", "replace").split()
    cma = [w for w in words if w.startswith("cma=")]
    if not words:
        return Result("FAIL", "no cmdline.txt")
    return Result("FAIL", f"{' '.join(cma)}: a Pi 4 does not boot with it") if cma else Result("ok", "no cma=")


def lint_board(board: boards_.Board, card: Card) -> dict[str, Result]:
    raw = card.boot.get(board.dtb)
    if raw is None:
        return {r: Result("FAIL", f"no {board.dtb} on the boot partition") for r in RULES[:-1]} | {
            "cmdline": check_cmdline(card)}
    try:
        tree = fdt.parse(raw)
    except fdt.NotATree as err:
        return {r: Result("FAIL", f"{board.dtb}: {err}") for r in RULES[:-1]} | {"cmdline": check_cmdline(card)}
    _, i2c_faults = header_i2c(tree)
    _, spi_faults = header_spi(tree, card)
    return {
        "tree": Result("ok", f"{board.dtb}: {tree.model}"),
        "sd": check_sd(tree, board, card),
        "config": check_config(tree, board, card),
        "i2c": Result("FAIL", "; ".join(i2c_faults)) if i2c_faults else Result("ok", "i2c1 at 400 kHz"),
        "spi": Result("FAIL", "; ".join(spi_faults)) if spi_faults else Result("ok", "spi0, CE0 and CE1 for spidev"),
        "wifi": check_wifi(tree, board, card),
        "cmdline": check_cmdline(card),
    }


def lint(card: Card, boards: list[boards_.Board] | None = None) -> dict[str, dict[str, Result]]:
    return {b.name: lint_board(b, card) for b in boards or boards_.BOARDS}


def passed(results: dict[str, dict[str, Result]]) -> bool:
    return all(r.status != "FAIL" for row in results.values() for r in row.values())


def table(results: dict[str, dict[str, Result]], markdown: bool = False) -> str:
    """The board-by-rule table, then a line for each result that is not plain ok."""
    head = ["board", *RULES]
    rows = [[name, *(row[r].status for r in RULES)] for name, row in results.items()]
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + ["| " + " | ".join(r) + " |" for r in rows]
    else:
        widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
        lines = ["  ".join(str(x).ljust(w) for x, w in zip(r, widths)).rstrip() for r in [head, *rows]]
    notes = [f"{name} {rule}: {row[rule].status}: {row[rule].detail}" for name, row in results.items()
             for rule in RULES if row[rule].status != "ok"]
    return "\n".join(lines + ([""] + notes if notes else [])) + "\n"


# -- a card image -----------------------------------------------------------------------

#: What the lint reads of the root (folders whole, the kernel's lists by name).
ROOT_FOLDERS = ["usr/lib/firmware/brcm", "usr/lib/firmware/cypress", "etc/udev/rules.d"]
MODULE_LISTS = ["modules.alias", "modules.dep", "modules.builtin.modinfo"]


def extract(image: Path, work: Path) -> tuple[Path, Path]:
    """The boot partition's files and the root's that the lint reads, out of a raw card image (mtools
    for the FAT, debugfs for the ext4: no loop device, no mount)."""
    from .layout import partitions
    parts = partitions(image)
    boot_at, root_at, root_size = parts[0]["start"], parts[1]["start"], parts[1]["size"]
    boot, root = work / "boot", work / "root"
    boot.mkdir(parents=True)
    root.mkdir(parents=True)
    subprocess.run(["mcopy", "-s", "-n", "-i", f"{image}@@{boot_at}", "::/*", str(boot)], check=True,
                   capture_output=True)
    fs = work / "root.img"
    subprocess.run(["dd", f"if={image}", f"of={fs}", "bs=4M", f"skip={root_at}", f"count={root_size}",
                    "iflag=skip_bytes,count_bytes", "conv=sparse", "status=none"], check=True)

    def debugfs(request: str) -> None:
        subprocess.run(["debugfs", "-R", request, str(fs)], check=True, capture_output=True)

    for path in ROOT_FOLDERS:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        debugfs(f"rdump /{path} {root / Path(path).parent}")
    from .cardfacts import kernel_names
    config = (boot / "config.txt").read_text(errors="replace") if (boot / "config.txt").is_file() else ""
    version = kernel_names(config)[0].removeprefix("vmlinuz-")
    if version:
        mods = root / "usr/lib/modules" / version
        mods.mkdir(parents=True)
        for name in MODULE_LISTS:
            debugfs(f"dump /usr/lib/modules/{version}/{name} {mods / name}")
    fs.unlink()
    return boot, root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="lint", description=__doc__.split("\n\n")[0])
    parser.add_argument("--image", help="a raw card image (.img)")
    parser.add_argument("--boot", help="the boot partition's folder (with --root)")
    parser.add_argument("--root", help="the root's folder")
    parser.add_argument("--markdown", metavar="FILE", help="also write the table as Markdown to FILE")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="card-lint-") as tmp:
        try:
            if args.image:
                boot, root = extract(Path(args.image), Path(tmp))
            elif args.boot and args.root:
                boot, root = Path(args.boot), Path(args.root)
            else:
                parser.error("give --image, or --boot and --root")
            card = read_card(boot, root)
        except (Unreadable, OSError, subprocess.CalledProcessError, KeyError, ValueError) as err:
            print(f"lint: cannot read the card: {err}", file=sys.stderr)
            return 2
    results = lint(card)
    print(table(results), end="")
    for problem in card.problems:
        print(f"lint: {problem}")
    if args.markdown:
        Path(args.markdown).write_text(table(results, markdown=True))
    return 0 if passed(results) and not card.problems else 1


if __name__ == "__main__":
    sys.exit(main())
