"""What a page does with the stream's events, in Python: the live part as a tree, a patch applied to it.

The same operations as ``web/static/live.js`` (``["h", id, html]`` replaces the element, ``["a", id, attrs]``
sets or removes its attributes), so a test can check that a page following patches shows exactly what a page
loaded afresh shows.
"""

from __future__ import annotations

from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = {"tag": None, "attrs": {}, "children": []}
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = {"tag": tag, "attrs": {k: v or "" for k, v in attrs}, "children": []}  # <p data-say>: ""
        self.stack[-1]["children"].append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        while len(self.stack) > 1:
            if self.stack.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        self.stack[-1]["children"].append(data)


def parse(html: str) -> list:
    """The elements and texts of ``html`` (attributes as dicts: their order is no matter to a page)."""
    p = _Tree()
    p.feed(html)
    p.close()
    return p.root["children"]


def _find(nodes: list, ident: str):
    for i, node in enumerate(nodes):
        if isinstance(node, dict):
            if node["attrs"].get("id") == ident:
                return nodes, i
            found = _find(node["children"], ident)
            if found:
                return found
    return None


def apply(tree: list, ops: list) -> list:
    """``tree`` with the patch's operations applied in order (as live.js does); AssertionError for a missing id."""
    for op in ops:
        found = _find(tree, op[1])
        assert found is not None, f"no element {op[1]!r} to patch"
        siblings, i = found
        if op[0] == "h":
            siblings[i:i + 1] = parse(op[2])
        else:
            assert op[0] == "a", op
            for name, value in op[2].items():
                if value is None:
                    siblings[i]["attrs"].pop(name, None)
                else:
                    siblings[i]["attrs"][name] = value
    return tree


def first_difference(a, b, path="") -> str | None:
    """Where two parsed trees first differ (for an assertion's message), else None."""
    if type(a) is not type(b):
        return f"{path}: {a!r:.200} != {b!r:.200}"
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}/{i}")
            if found:
                return found
        return None if len(a) == len(b) else f"{path}: {len(a)} children != {len(b)}"
    if isinstance(a, dict):
        if a["tag"] != b["tag"] or a["attrs"] != b["attrs"]:
            return f"{path}: <{a['tag']} {a['attrs']}> != <{b['tag']} {b['attrs']}>"
        return first_difference(a["children"], b["children"], f"{path}/{a['tag']}#{a['attrs'].get('id', '')}")
    return None if a == b else f"{path}: {a!r:.200} != {b!r:.200}"
