"""The live part as a tree of elements, and what changed from one version to the next: what a press sends a page.

A press changes a few things on the page (the dice, a column or two, the
log), and sending every page the whole game part each time (about 9 KB)
was most of the bytes. The live part is built as :class:`El` nodes, each
part that changes on its own with an ``id``; :func:`diff` compares two
versions and gives the operations that turn one into the other:

- ``["h", id, html]``: the element ``id`` is replaced by ``html`` (its new
  outer HTML);
- ``["a", id, {name: value or null}]``: the element's attributes change
  (null: removed).

An element whose children changed in shape (one more, one fewer, another
tag), or a text of it changed, is replaced whole; an element without an id
that changed makes its parent's replacement. The page applies them in
order (``static/live.js``); a page that is not at the version they start
from is sent the whole part instead (see :mod:`web.hub`).
"""

from __future__ import annotations

from html import escape


#: Elements that have no end tag (and no children).
VOID = frozenset({"img", "br", "hr", "input", "meta", "link", "source", "wbr"})


class El:
    """An element: ``tag``, its attributes (name, value: escaped here), its children (``El`` or HTML text)."""

    __slots__ = ("tag", "attrs", "children", "_html")

    def __init__(self, tag: str, attrs=(), children=()):
        self.tag = tag
        self.attrs = tuple((k, v) for k, v in attrs if v is not None)
        self.children = tuple(c for c in children if not (isinstance(c, str) and not c))
        self._html: str | None = None

    @property
    def id(self) -> str | None:
        for k, v in self.attrs:
            if k == "id":
                return v
        return None

    def html(self) -> str:
        if self._html is None:
            attrs = "".join(f' {k}="{escape(str(v), quote=True)}"' for k, v in self.attrs)
            if self.tag in VOID:
                self._html = f"<{self.tag}{attrs}>"
                return self._html
            inner = "".join(c if isinstance(c, str) else c.html() for c in self.children)
            self._html = f"<{self.tag}{attrs}>{inner}</{self.tag}>"
        return self._html


def diff(old: El, new: El) -> list | None:
    """The operations that make ``old`` into ``new`` ([] for none); None when ``new`` must replace ``old`` whole
    and it has no id of its own to be replaced by (its parent's business)."""
    if old.html() == new.html():
        return []
    ident = new.id
    if ident is None or old.tag != new.tag or old.id != ident:
        return None
    whole = [["h", ident, new.html()]]
    if len(old.children) != len(new.children):
        return whole
    ops: list = []
    before, after = dict(old.attrs), dict(new.attrs)
    changed = {k: v for k, v in after.items() if before.get(k) != v}
    changed.update({k: None for k in before if k not in after})
    if changed:
        ops.append(["a", ident, {k: (None if v is None else str(v)) for k, v in changed.items()}])
    for a, b in zip(old.children, new.children):
        if isinstance(a, str) or isinstance(b, str):
            if a != b:
                return whole
            continue
        sub = diff(a, b)
        if sub is None:
            return whole
        ops.extend(sub)
    return ops
