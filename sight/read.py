"""A photo of the board read against the empty board and the pieces the game says should be there.

The box knows where every piece should be, so the camera checks rather than
guesses. The photo is straightened onto the board's plane by the corner
tags, and every pixel judged against the empty board's photo
(:mod:`sight.pixels`). Then, for each piece the game expects, its body (its
space's square swept along its lean away from the camera) says whether it is
there: enough of its colour there, or surely none while its square shows the
board plainly and unchanged; and colour that no expected piece explains, in a
blob the size of a piece standing in a space's square (a glint or a rim lies
between them), is a piece that should not be there. Whatever the picture
cannot settle (glare, a hand, a dark piece on a board of its own colour) is
*unsure*, never a guess: only a confident difference is a mismatch
(:mod:`sight.verdict` turns a :class:`Reading` into findings). When too few
tags can be read, the board is followed from where the set-up saw it
(:mod:`sight.follow`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from . import markers
from .calibrate import Calibration, canonical
from .follow import follow
from .layout import RUNNER, Piece
from .palette import Palette
from .pixels import BOARD, FOREIGN, KIND0, SHADE, UNKNOWN, bodies, classify, larger
from .pose import pose


@dataclass(frozen=True)
class Tuning:
    """Every threshold of a reading, in one place (the benchmark measures them: make camera-bench). Amounts of
    a kind's pixels are fractions of what one piece covers on that space (``Bodies.area``)."""

    tall: float = 16.0  # a piece's height (mm), for its lean
    present: float = 0.15  # this much of a piece's colour in its body: it is there
    absent: float = 0.05  # at most this: it is not (when the body shows the board plainly)
    plain: float = 0.15  # ... plainly: at most this fraction of the body glare, foreign or shade
    extra: float = 0.35  # a blob of colour no expected piece explains, this big: a piece is there
    square: float = 0.8  # ... when this much of it lies in the space's square (a piece stands in one; twice as big,
    centred: float = 0.45  # half as much), its middle at most this far from where a piece there is seen (in a
    # piece's width: a glint or a rim lies off it)
    leaning: float = 0.3  # ... this big (``extra`` where the game has a piece), with as little as this much of it in
    leaning_square: float = 0.35  # the square, where nearly all of it (``inbody``) lies in the body of a piece on
    inbody: float = 0.95  # that space: a piece leaning far off its square (a camera well off the middle) stands there
    extra_lost: float = 0.15  # ... this big, where a piece of its kind the game has a square or two off is not found
    stray: float = 0.2  # ... less than this in any square: it stands on none, and makes no space unsure
    extra_runner: float = 0.5  # a runner (in half a square at least) this big, its colour plainly the runners' white
    white: float = 0.12  # ... its pixels' median distance to that white at most this (palette units)
    beside: float = 0.5  # white on a piece found (``extra`` big) this far off where a piece there is seen (in a
    # piece's width): a runner beside it, unsure; nearer, its lit top (boards 0 to 299 of make camera-bench: the 2
    # runners left on beside a piece were 0.61 and 0.71 off, and 84 of the 128 lit tops nearer than this)
    doubt: float = 0.15  # ... this big: the space it lies on is unsure
    hand: float = 3.5  # something foreign bigger than this many pieces: a hand or an arm over the board (a hand is
    # tens of pieces; at 2.5, the board's own red between its squares joined to a glare's rim made a "hand": 500
    # boards, unsure 6.0% -> 5.8%, the same false mismatches and hand boards' findings)
    change: tuple[float, float] = (0.04, 4.0)  # a pixel changed: by this much at least, this many times the noise
    visible: float = 2.5  # a piece said absent only where it would stand out this many times plainer than a change
    still: float = 0.3  # ... and where at most this much of its square changed by half a change (a dim piece in a
    # haze changes it faintly but widely; a square with no piece, hardly: 95% of them under 0.11)
    crowd: int = 3  # more blobs of one colour than this unexplained: that colour's are look-alikes, unsure
    foot: float = 0.3  # a piece's colour over this much of a square: its foot stands there
    filled: float = 0.25  # a square the game leaves empty changed over this much: something stands there (a
    # runner left on: median 0.35; an empty square: 95% under 0.04)


@dataclass(frozen=True)
class Reading:
    """What a photo showed: each expected piece there ("yes"), not there ("no") or "unsure"; the pieces found
    that the game does not have; the spaces that cannot be read; ``blind`` when nothing could be read."""

    pieces: dict = field(default_factory=dict)  # Piece -> "yes" | "no" | "unsure"
    extras: tuple = ()  # Piece, each a confident one
    doubts: frozenset = frozenset()  # (column, step) that cannot be read
    blind: str = ""  # "markers" (they place the board) or "light" (no white to judge colours by); "" when read
    why: str = ""  # the blind reading's one line
    hand: bool = False  # something big over the board
    colours: dict = field(default_factory=dict)  # kind -> BGR on the markers' white, of the pieces found
    classes: np.ndarray | None = None  # the raster's pixel classes (for a picture of what was read)
    spaces: int = 0


def look(photo: np.ndarray, cal: Calibration, expected, palette: Palette, tuning: Tuning = Tuning(),
         trace: dict | None = None) -> Reading:
    """Read ``photo`` (BGR) against ``cal`` and the ``expected`` pieces (:class:`sight.layout.Piece`);
    ``trace`` (a dict) gets the steps' pictures and evidence, for a developer looking into a reading."""
    expected = tuple(expected)
    found = markers.find(photo, cal.anchors.corners)
    try:
        to_plane = markers.plane_map(found, cal.anchors)
    except markers.MarkersError as err:
        # too few tags read (a blurred photo): the board followed from where the set-up saw
        # it, a fixed camera's bump away; a board moved off its tags is not followed
        few = sum(i in found for i in cal.anchors.corners) < markers.ENOUGH
        to_plane = follow(photo, cal, cal.to_plane) if few and cal.to_plane is not None else None
        if to_plane is None:
            return Reading(blind="markers", why=str(err))
    raster, layout = cal.raster, cal.layout
    straight = raster.straighten(photo, to_plane)
    seen = raster.seen(photo.shape[1::-1], to_plane)
    cur = canonical(straight, raster, cal.anchors)
    if not np.isfinite(cur).any():
        return Reading(blind="light", why="no tag's paper is lit well enough to judge colours by")
    spaces = layout.spaces()
    index = {(c, k): n for n, (c, k, _) in enumerate(spaces)}
    body = bodies(layout, raster, pose(to_plane, photo.shape[1::-1]), tuning.tall, seen.shape)
    px = classify(straight, seen, cur, cal.empty, expected, index, palette, body, tuning, raster.scale, trace)
    names = px.palette.names()
    flat = px.classes.reshape(-1)
    placed = body.mask([index[(p.column, p.step)] for p in expected if (p.column, p.step) in index], seen.shape)
    coloured = (px.classes >= KIND0) & (px.classes != KIND0 + names.index(RUNNER)) if RUNNER in names else None
    doubts, hand = _hands(px.classes, body, spaces, tuning, coloured, placed)

    at: dict[int, list[Piece]] = {}
    for piece in expected:
        if (n := index.get((piece.column, piece.step))) is not None:
            at.setdefault(n, []).append(piece)
    size = seen.size
    cover = {kind: body.cover([index[(p.column, p.step)] for p in expected if p.kind == kind and
                               (p.column, p.step) in index], size) for kind in names}
    pieces: dict[Piece, str] = {}
    colours: dict[str, list] = {}
    plain: set[Piece] = set()  # found with twice the colour that finds a piece: no other piece's colour misread
    for piece in expected:
        n = index.get((piece.column, piece.step))
        if n is None or piece.kind not in names:
            pieces[piece] = "unsure"
            continue
        status, own = _presence(piece, n, flat, body, at, names, px, cover[piece.kind], tuning, trace)
        pieces[piece] = "unsure" if (piece.column, piece.step) in doubts and status == "no" else status
        if status == "yes" and len(own):
            colours.setdefault(piece.kind, []).append(px.cur.reshape(-1, 3)[own])
        if status == "yes" and len(own) >= 2 * tuning.present * body.area[n]:
            plain.add(piece)
    hidden = np.isin(px.classes, (UNKNOWN, FOREIGN))  # glare, out of the picture, or something foreign
    flat_hidden = hidden.reshape(-1)
    for n, (c, k, _) in enumerate(spaces):  # a space mostly glare or hidden cannot show an extra piece either, nor
        # one off the picture: its square, where a piece would stand; and where the game has a piece, its body too
        # (a piece's colour lies along its lean), but on an empty space a piece would hide its square
        own, feet = body.pixels[n], body.feet[n]
        if not len(own):
            doubts.add((c, k))
            continue
        square_hidden = len(feet) > 0 and flat_hidden[feet].mean() > 0.5
        body_hidden = (n in at or not len(feet)) and flat_hidden[own].mean() > 0.5
        if square_hidden or body_hidden:
            doubts.add((c, k))
    moved = [p for p in _feet(pieces, plain, px.palette, flat, body, index, names, cover, doubts, tuning, trace)
             if (p.column, p.step) not in doubts]
    present = [p for p, status in pieces.items() if status == "yes"]
    # a piece surely not on its space explains no colour near it (it is one a square off, perhaps)
    maybe = [p for p, status in pieces.items() if status != "no"]
    lost = [p for p, status in pieces.items() if status != "yes"]
    more, crowded = _extras(px, body, spaces, index, maybe, doubts, present, lost, tuning, trace)
    doubts.update((p.column, p.step) for p in moved if p.kind in crowded)  # its look-alikes are everywhere
    moved = [p for p in moved if p.kind not in crowded]
    extras = moved + [e for e in more if e not in moved]
    for e in extras:  # a piece of its kind the game has a square or two off, found with little of its colour or
        # with none in its own square while this one's square is full of it, is this one's lean over that space:
        # unsure, so the verdict says the piece moved, not that one more stands
        for p in present:
            if p.kind != e.kind or p.column != e.column or not 0 < abs(p.step - e.step) <= 2:
                continue
            n, m = index[(p.column, p.step)], index[(e.column, e.step)]
            own = body.pixels[n]
            if p not in plain or _foot_share(p.kind, names, own, n, flat, body, cover) <= tuning.absent and \
                    _foot_share(p.kind, names, own, m, flat, body, cover) >= tuning.foot:
                pieces[p] = "unsure"
    doubts |= _stray_feet(flat, body, spaces, at, names, extras, tuning)
    # a square the game leaves empty that changed widely holds something, in no colour the camera can name (a
    # white runner on a pale board shows only as its shade and rim): unsure, never passed as right
    changed = px.change.reshape(-1) > tuning.change[1]
    named = {(e.column, e.step) for e in extras}
    for n, (c, k, _) in enumerate(spaces):
        if n not in at and (c, k) not in named and len(body.feet[n]) >= 10 and \
                float(changed[body.feet[n]].mean()) >= tuning.filled:
            doubts.add((c, k))
    learnt = {k: np.median(np.concatenate(v), axis=0) for k, v in colours.items() if sum(map(len, v)) >= 20}
    return Reading(pieces, tuple(extras), frozenset(doubts), hand=hand, colours=learnt, classes=px.classes,
                   spaces=len(spaces))


def _presence(piece: Piece, n: int, flat, body, at, names, px, cover, tuning: Tuning, trace):
    """Whether ``piece`` stands on space ``n``: its colour in the body there (less what the same kind's pieces
    on other spaces explain: ``cover`` counts the bodies of that kind's expected pieces on each pixel), against
    what one piece covers; "no" only where the body shows the board plainly."""
    k = KIND0 + names.index(piece.kind)
    region = body.pixels[n]
    region = region[cover[region] <= 1]
    cls = flat[region]
    area = body.area[n]
    own = float((cls == k).sum()) / area
    hidden = float(np.isin(cls, (UNKNOWN, FOREIGN)).sum()) / max(1, len(cls))
    shade = float((cls == SHADE).sum()) / area
    others = [KIND0 + names.index(p.kind) for p in at.get(n, ()) if p.kind != piece.kind and p.kind in names]
    covered = float(np.isin(cls, others).sum()) / area if others else 0.0
    if trace is not None:
        trace.setdefault("evidence", {})[piece] = (round(own, 2), round(hidden, 2), round(shade, 2), round(covered, 2))
    if own >= tuning.present:
        return "yes", region[cls == k]
    plainly = hidden <= tuning.plain and shade <= tuning.plain * 2 and covered < 0.6
    if own <= tuning.absent and plainly and float((cls == BOARD).mean()) > 0.6 and \
            px.visible(piece.kind, body.feet[n]) >= tuning.visible * tuning.change[1] and \
            float((px.change.reshape(-1)[body.feet[n]] > tuning.change[1] / 2).mean()) <= tuning.still:
        return "no", region[:0]
    return "unsure", region[:0]


def _feet(pieces: dict, plain: set, palette, flat, body, index, names, cover, doubts: set, tuning: Tuning,
          trace) -> list[Piece]:
    """A piece not found in its body, or found there with little of its colour (not in ``plain``: a neighbour
    leaning over its body shows as much), looked for by its foot, up and down its column: the square a piece
    stands in shows its colour however it leans. Found plainly on its own square, it is there; found plainly a
    square or two off while its own square shows nothing of it, and its body is not hidden (glare, something
    foreign), it was moved (an extra there, and the piece unsure: the verdict says "moved"), unless the game has
    a piece of another kind there that was not found, or found with little of its colour, in a colour
    ``palette`` makes alike: then that square is added to ``doubts``."""
    moved = []
    for piece, status in list(pieces.items()):
        if status == "yes" and piece in plain or piece.kind not in names:
            continue
        n = index[(piece.column, piece.step)]
        own_body = body.pixels[n]

        def share(m: int) -> float:
            return _foot_share(piece.kind, names, own_body, m, flat, body, cover)

        here = share(n)
        hidden = float(np.isin(flat[own_body], (UNKNOWN, FOREIGN)).mean()) if len(own_body) else 1.0
        near = {s: share(index[(piece.column, s)]) for s in (piece.step - 2, piece.step - 1, piece.step + 1,
                                                             piece.step + 2) if (piece.column, s) in index}
        if trace is not None:
            trace.setdefault("feet", {})[piece] = (round(here, 2), {s: round(v, 2) for s, v in near.items()})
        if here >= tuning.foot:
            pieces[piece] = "yes"
            continue
        if not near:
            continue
        weak = status == "yes"  # found with little of its colour: perhaps a neighbour's lean over its body
        best = max(near, key=near.get)
        # moved only when its own space shows plainly that it is not there (glare over it hides a runner)
        if near[best] >= tuning.foot and here <= tuning.absent and near[best] >= 4 * max(here, 0.02) and \
                hidden <= 2 * tuning.plain:
            # where the game has a piece of another kind that the reading did not find, or found with little of
            # its colour, in a colour this photo makes alike (a blue piece's shaded side read purple, the two
            # learnt a third of a colour apart), the colour there is that piece misread as often as this one
            # moved: unsure
            if any(p.kind != piece.kind and (p.column, p.step) == (piece.column, best) and p not in plain and
                   RUNNER not in (p.kind, piece.kind) and p.kind in names and palette.alike(p.kind, piece.kind)
                   for p in pieces):
                doubts.add((piece.column, best))
            else:
                moved.append(Piece(piece.column, best, piece.kind))
                if weak:
                    pieces[piece] = "unsure"
    return moved


def _foot_share(kind: str, names, own_body, m: int, flat, body, cover) -> float:
    """How much of space ``m``'s square shows ``kind``'s colour, where no other expected piece of that kind's body
    lies (a piece's own body, ``own_body``, counts)."""
    foot = body.feet[m]
    mine = np.isin(foot, own_body)
    foot = foot[(cover[kind][foot] == 0) | (mine & (cover[kind][foot] == 1))]
    return float((flat[foot] == KIND0 + names.index(kind)).mean()) if len(foot) >= 10 else 0.0


def _stray_feet(flat, body, spaces, at, names, extras, tuning: Tuning) -> set:
    """Spaces whose square (where a piece's foot stands) is mostly a colour no piece expected there has, and no
    extra found explains: a piece may stand there, hidden in the blob of a neighbour's (a red piece beside a red
    one): unsure, never right."""
    doubts = set()
    found = {(e.column, e.step, e.kind) for e in extras}
    for n, (c, k, _) in enumerate(spaces):
        foot = flat[body.feet[n]]
        if len(foot) < 10:
            continue
        here = {p.kind for p in at.get(n, ())}
        for i, name in enumerate(names):
            if name in here or (c, k, name) in found:
                continue
            if float((foot == KIND0 + i).mean()) >= tuning.foot * 1.5:
                doubts.add((c, k))
                break
    return doubts


def _hands(classes, body, spaces, tuning: Tuning, coloured, placed) -> tuple[set, bool]:
    """Something big and foreign over the board (a hand, an arm): the spaces under and near it are unsure.

    A hand's skin is read as often red, orange or yellow as foreign: ``coloured`` (bool, the raster's shape; None
    for none) are the pixels of a piece's colour, joined to the foreign ones; a region so joined is a hand when far
    more of it than a piece lies outside ``placed`` (where the game's pieces stand: a crowd of pieces touching is
    no hand)."""
    doubts: set[tuple[int, int]] = set()
    foreign = classes == FOREIGN
    if coloured is not None:
        foreign = foreign | coloured
    foreign = cv2.morphologyEx(foreign.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    piece = float(np.median(body.area))
    count, labels = cv2.connectedComponents(foreign)
    outside = np.bincount(labels[~placed & (labels > 0)], minlength=count)
    mask = (outside[labels] > tuning.hand * piece).astype(np.uint8)
    if not mask.any():
        return doubts, False
    reach = int(2.2 * np.sqrt(piece)) | 1
    mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))).reshape(-1)
    for n, (c, k, _) in enumerate(spaces):
        if mask[body.pixels[n]].mean() > 0.05:
            doubts.add((c, k))
    return doubts, True


def _square_of(where, centre, standing, votes, body, piece_area: float) -> tuple[int, float, float]:
    """The space a blob (its pixels ``where``, its ``centre``) stands on: the one whose square holds most of it (by
    ``votes``, the bodies it lies in, when it lies in no square); how much of it lies in that square; and how far
    its middle is from where a piece there is seen, in a piece's width."""
    squares = standing[where]
    squares = np.bincount(squares[squares >= 0], minlength=len(votes))
    n = int(squares.argmax()) if squares.any() else int(votes.argmax())
    off = float(np.hypot(*(centre - (body.foot[n] + body.top[n]) / 2))) / piece_area ** 0.5
    return n, float(squares[n]) / len(where), off


def _extras(px, body, spaces, index, expected, doubts: set, present, lost, tuning: Tuning,
            trace) -> tuple[list[Piece], set]:
    """Pieces the game does not have: blobs of a kind's colour that no expected piece of that kind explains,
    each on the space whose square holds most of it (in it, centred and big enough: a piece, and so is one
    leaning far off its square that lies nearly all in the body of a piece on that space; a small one a
    square or two from an unfound piece of its kind: that piece, moved; otherwise that space is unsure; in no
    square at all: nothing, a glint or a rim). A blob
    far bigger than a piece is no piece (glare, a sleeve: its spaces are unsure); a colour with more such blobs
    than ``tuning.crowd`` is one whose look-alikes fill the picture (returned as crowded: all unsure); one on a
    piece found where the game has it, no bigger than a piece, in a colour that piece's lit face or rim can take
    (white, or a colour near its own: an orange face on a red piece), is that face (a red blob on a blue piece
    found is a red piece)."""
    classes, palette = px.classes, px.palette
    shape = classes.shape
    out: list[Piece] = []
    crowded: set[str] = set()  # the colours whose look-alikes are all over the picture
    piece_area = float(np.median(body.area))
    names = palette.names()
    faces = {name: body.mask([index[(p.column, p.step)] for p in present if palette.alike(p.kind, name)],
                             shape).reshape(-1) for name in names}
    lit = {index[(p.column, p.step)] for p in present}  # the squares whose found piece a lamp may light white
    owners = body.owners(classes.size)
    standing = body.standing(classes.size)
    occupied = {(p.column, p.step) for p in expected}
    glared = classes == UNKNOWN
    huge = tuning.hand * piece_area  # far bigger than a piece: a hand, an arm, a sleeve
    foreign = larger(classes == FOREIGN, huge)
    pale = larger(classes == KIND0 + names.index(RUNNER), huge) if RUNNER in names else np.zeros(shape, bool)
    for k, name in enumerate(names):
        mine = [index[(p.column, p.step)] for p in expected if p.kind == name and (p.column, p.step) in index]
        explained = body.mask(mine, shape) if mine else np.zeros(shape, bool)
        alone = ((classes == KIND0 + k) & ~explained).astype(np.uint8)
        alone = cv2.morphologyEx(alone, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        count, labels, stats, centres = cv2.connectedComponentsWithStats(alone)
        # the other kinds, but the runners' white only in something far bigger than a piece (a hand's highlights):
        # a piece's top lit to white is still that piece's
        unlike = [KIND0 + j for j, other in enumerate(names) if other != name and other != RUNNER]
        others = np.isin(classes, unlike) | (pale if name != RUNNER else False)
        found: list[Piece] = []
        blobs = 0  # blobs of this colour no expected piece explains, whatever their size
        for label in range(1, count):
            size = stats[label, cv2.CC_STAT_AREA] / piece_area
            if size < tuning.doubt:
                continue
            blob = (labels == label).astype(np.uint8)
            ring = cv2.dilate(blob, np.ones((5, 5), np.uint8)).astype(bool) & ~blob.astype(bool)
            if others[ring].mean() > 0.35:
                continue  # the blurred rim of a piece of another colour (yellow on blue blurs grey), not a piece
            # it comes out of glare, or out of something foreign far bigger than a piece (a finger in a piece's
            # colour); a piece's own shaded side, foreign to the palette, is no such thing
            hidden_by = glared[ring].mean() > 0.35 or bool(foreign[ring].any())
            where = np.flatnonzero(labels.reshape(-1) == label)
            held = owners[where]
            votes = np.bincount(held[held >= 0], minlength=len(spaces))
            if votes.max() == 0:
                continue
            if size <= 1.5 and faces[name][where].mean() > 0.5:
                # white over a piece found: its lit top, when it stands in that piece's square, where the piece is
                # seen; a runner beside it (two pieces on a space stand side by side, each half a piece off its
                # middle), or one in a square where no piece was found, makes the spaces it lies on unsure
                if name == RUNNER and size >= tuning.extra:
                    on, _, off = _square_of(where, centres[label], standing, votes, body, piece_area)
                    if on not in lit or off >= tuning.beside:
                        doubts.update(spaces[m][:2] for m in np.flatnonzero(votes > 0.5 * votes.max()))
                continue
            if size > 2.5:
                blobs += 1
                doubts.update((spaces[m][0], spaces[m][1]) for m in np.flatnonzero(votes > 0.1 * votes.max()))
                continue
            # a piece stands in a square: the space it is on is the square holding most of its blob; a blob in
            # no square (a glint, a rim, a shadow's edge between the spaces) is no piece, and doubts none
            n, square, off = _square_of(where, centres[label], standing, votes, body, piece_area)
            if square < tuning.stray:
                continue
            blobs += 1
            c, step, _ = spaces[n]
            if (c, step) in occupied:  # two pieces on one space stand side by side, each off its middle
                off /= 2
            # a piece of this kind the game has a square or two away and the reading did not find: its blob here is
            # a piece moved, however small a part of it shows
            near_lost = any(p.kind == name and p.column == c and 0 < abs(p.step - step) <= 2 for p in lost)
            if trace is not None:
                trace.setdefault("extras", {})[Piece(c, step, name)] = (round(size, 2), round(square, 2), round(off, 2),
                                                                        near_lost)
            if name == RUNNER:  # a runner's white is plain white: a lit top, a glint or glare's edge is tinted
                white = float(np.median(px.near.reshape(-1)[where])) <= tuning.white
                piece = size >= tuning.extra_runner and off <= tuning.centred and white and square >= tuning.square / 2
            else:
                # on a space the game has a piece on, a blob as small as the leaning's bar may be that piece's lit
                # face or rim (a yellow blob on a green piece found there): the usual bar there
                inbody = float(np.isin(where, body.pixels[n]).mean())
                leaning = tuning.extra if (c, step) in occupied else tuning.leaning
                piece = (size >= tuning.extra and off <= tuning.centred and square >= tuning.square or
                         size >= 2 * tuning.extra and off <= tuning.centred and square >= tuning.square / 2 or
                         size >= leaning and off <= tuning.centred and square >= tuning.leaning_square and
                         inbody >= tuning.inbody or
                         near_lost and size >= tuning.extra_lost and square >= tuning.square)
            # on a space where the game has a piece of another kind that the reading did not find, a blob of this
            # kind is that piece misread as often as one more (a red piece read yellow under a warm lamp)
            misread = any(p.kind != name and (p.column, p.step) == (c, step) for p in lost)
            if piece and (c, step) not in doubts and not hidden_by and not misread:
                found.append(Piece(c, step, name))
            else:
                doubts.add((c, step))
        if blobs > tuning.crowd:  # the picture is full of this colour's look-alikes (glints on a glossy board are
            doubts.update((p.column, p.step) for p in found)  # white): none of them can be told for a piece
            crowded.add(name)
        else:
            out += found
    return out, crowded
