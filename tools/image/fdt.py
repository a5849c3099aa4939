"""A flattened device tree (.dtb) read into nodes: what the card lint (tools/image/lint.py) reads
each board's tree with. Pure; the format is the Devicetree Specification's, chapter 5 (a header,
a structure block of BEGIN_NODE / PROP / END_NODE tokens, a strings block).

:meth:`Tree.to_bytes` writes a tree back (its memory reservations and boot CPU kept), so that the
build can change the trees it ships (tools/image/dtpatch.py) and the tests can, with no tool installed.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

MAGIC = 0xD00DFEED
BEGIN_NODE, END_NODE, PROP, NOP, END = 1, 2, 3, 4, 9
MAX_BYTES = 4 * 1024 * 1024  # a Pi's tree is about 50 KB: anything past this is not a device tree


class NotATree(ValueError):
    """The bytes are not a device tree this reader can read (one line)."""


@dataclass
class Node:
    name: str
    path: str
    parent: Node | None = None
    props: dict[str, bytes] = field(default_factory=dict)
    children: list[Node] = field(default_factory=list)

    def child(self, name: str) -> Node | None:
        return next((c for c in self.children if c.name == name), None)

    def strings(self, prop: str) -> list[str]:
        """A string-list property (``compatible``), [] when absent."""
        raw = self.props.get(prop)
        return [] if raw is None else [s.decode("utf-8", "replace") for s in raw.rstrip(b"\0").split(b"\0")]

    def string(self, prop: str) -> str | None:
        values = self.strings(prop)
        return values[0] if values else None

    def cells(self, prop: str) -> list[int]:
        """A property of 32-bit cells, [] when absent."""
        raw = self.props.get(prop, b"")
        return list(struct.unpack(f">{len(raw) // 4}I", raw[: len(raw) // 4 * 4]))

    @property
    def enabled(self) -> bool:
        """As the kernel's of_device_is_available: no status, or "okay"/"ok"."""
        status = self.string("status")
        return status is None or status in ("okay", "ok")

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()


class Tree:
    def __init__(self, root: Node, reserved: bytes = b"\0" * 16, boot_cpu: int = 0):
        self.root = root
        self.reserved = reserved  # the memory reservation block, as read (its closing empty entry included)
        self.boot_cpu = boot_cpu
        self.index()

    def index(self) -> None:
        """The phandles again (after a node was added or given one)."""
        self.by_phandle = {}
        for node in self.root.walk():
            for prop in ("phandle", "linux,phandle"):
                if len(node.props.get(prop, b"")) == 4:
                    self.by_phandle[node.cells(prop)[0]] = node

    def find(self, path: str) -> Node | None:
        """A node by its path, or by an alias as the first component (``i2c1``, ``serial1/...``)."""
        if not path.startswith("/"):
            first, _, rest = path.partition("/")
            target = self.alias(first)
            if target is None:
                return None
            path = target.rstrip("/") + ("/" + rest if rest else "")
        node = self.root
        for part in filter(None, path.split("/")):
            node = node.child(part) or next((c for c in node.children if c.name.split("@")[0] == part), None)
            if node is None:
                return None
        return node

    def aliases(self) -> dict[str, str]:
        node = self.root.child("aliases")
        return {} if node is None else {k: node.string(k) or "" for k in node.props if k not in ("phandle",)}

    def alias(self, name: str) -> str | None:
        return self.aliases().get(name)

    def compatible_nodes(self, compatible: str) -> list[Node]:
        return [n for n in self.root.walk() if compatible in n.strings("compatible")]

    @property
    def model(self) -> str:
        return self.root.string("model") or "?"

    def new_phandle(self, node: Node) -> int:
        """``node``'s phandle, given one (one more than the highest) when it has none."""
        if "phandle" in node.props:
            return node.cells("phandle")[0]
        value = max(self.by_phandle, default=0) + 1
        node.props["phandle"] = struct.pack(">I", value)
        self.index()
        return value

    def to_bytes(self) -> bytes:
        """The tree as a version-17 .dtb."""
        strings: dict[str, int] = {}
        table = bytearray()
        out = bytearray()

        def name_offset(name: str) -> int:
            if name not in strings:
                strings[name] = len(table)
                table.extend(name.encode() + b"\0")
            return strings[name]

        def pad() -> None:
            out.extend(b"\0" * (-len(out) % 4))

        def emit(node: Node) -> None:
            out.extend(struct.pack(">I", BEGIN_NODE) + (node.name.encode() if node.parent else b"") + b"\0")
            pad()
            for prop, value in node.props.items():
                out.extend(struct.pack(">III", PROP, len(value), name_offset(prop)) + value)
                pad()
            for c in node.children:
                emit(c)
            out.extend(struct.pack(">I", END_NODE))

        emit(self.root)
        out.extend(struct.pack(">I", END))
        off_rsv = 40
        off_struct = off_rsv + len(self.reserved)
        off_strings = off_struct + len(out)
        total = off_strings + len(table)
        header = struct.pack(">10I", MAGIC, total, off_struct, off_strings, off_rsv, 17, 16, self.boot_cpu,
                             len(table), len(out))
        return header + self.reserved + bytes(out) + bytes(table)


def parse(data: bytes) -> Tree:
    """A .dtb's bytes as a :class:`Tree`; :class:`NotATree` for anything else."""
    if len(data) > MAX_BYTES:
        raise NotATree(f"{len(data)} bytes: more than a device tree ever is")
    if len(data) < 40:
        raise NotATree("shorter than a device tree's header")
    magic, total, off_struct, off_strings, off_rsv, version, _last, boot_cpu, size_strings, size_struct = \
        struct.unpack(">10I", data[:40])
    if magic != MAGIC:
        raise NotATree(f"no device tree magic (0x{magic:08x})")
    if version < 17 or total > len(data) or off_struct + size_struct > total or off_strings + size_strings > total:
        raise NotATree(f"a device tree of version {version} or with its blocks past its end")
    strings = data[off_strings:off_strings + size_strings]
    block = data[off_struct:off_struct + size_struct]

    def name_at(offset: int) -> str:
        end = strings.index(b"\0", offset)
        return strings[offset:end].decode()

    pos, stack, root = 0, [], None
    while pos + 4 <= len(block):
        (token,) = struct.unpack_from(">I", block, pos)
        pos += 4
        if token == BEGIN_NODE:
            end = block.index(b"\0", pos)
            name = block[pos:end].decode("utf-8", "replace")
            pos = (end + 1 + 3) & ~3
            parent = stack[-1] if stack else None
            path = "/" if parent is None else (parent.path.rstrip("/") + "/" + name)
            node = Node(name, path, parent)
            if parent is None:
                root = node
            else:
                parent.children.append(node)
            stack.append(node)
        elif token == END_NODE:
            if not stack:
                raise NotATree("a node ends that never began")
            stack.pop()
        elif token == PROP:
            length, nameoff = struct.unpack_from(">II", block, pos)
            pos += 8
            if not stack:
                raise NotATree("a property outside any node")
            stack[-1].props[name_at(nameoff)] = block[pos:pos + length]
            pos = (pos + length + 3) & ~3
        elif token == NOP:
            continue
        elif token == END:
            break
        else:
            raise NotATree(f"unknown token {token} in the structure block")
    if root is None or stack:
        raise NotATree("the structure block does not close its nodes")
    reserved, at = bytearray(), off_rsv
    while at + 16 <= off_struct:
        entry = data[at:at + 16]
        reserved.extend(entry)
        at += 16
        if entry == b"\0" * 16:
            break
    return Tree(root, bytes(reserved) or b"\0" * 16, boot_cpu)
