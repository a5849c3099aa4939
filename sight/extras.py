"""Pieces the game does not have: the blobs of a kind's colour that no expected piece of that kind explains.

A piece stands in a space's square, so a blob is weighed by the square that
holds most of it, how much of it lies there, how far its middle is from
where a piece there is seen, and its size against one piece's (part of
:mod:`sight.read`'s reading).
"""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np

from .layout import RUNNER, Piece
from .pixels import FOREIGN, KIND0, UNKNOWN, larger
from .tuning import Tuning


def share(region, flat, k: int) -> float:
    """How much of a square (``region``, indices into ``flat``, the classes flattened) shows class ``k``: nothing
    for fewer than 10 pixels, too few to say."""
    return float((flat[region] == k).mean()) if len(region) >= 10 else 0.0


def _alone(foot, classes, explained, k: int) -> float:
    """How much of a square (``foot``, flat indices) shows class ``k`` where no expected piece of that kind's body
    lies (``explained``)."""
    return share(foot[~explained.reshape(-1)[foot]], classes.reshape(-1), k)


def _thinner(blob, others, box, reach: int) -> bool:
    """Whether a blob (``blob``: uint8, 1 on it) is no thicker than the regions of other colours it touches
    (``others``: bool), looked at within ``reach`` pixels of its box (x, y, width, height).

    A piece's blurred rim in a colour between its own and the board's (yellow on blue blurs grey) lies along that
    piece, as thin as the blur; a piece is a piece thick, and what rings it in another colour is its own blurred rim
    (a red piece on a blue board, ringed with purple). Thickness is the distance from the region's deepest point to
    its edge."""
    x, y, w, h = (int(v) for v in box)
    ya, xa = max(0, y - reach), max(0, x - reach)
    own = blob[ya:y + h + reach, xa:x + w + reach]
    near = others[ya:y + h + reach, xa:x + w + reach].astype(np.uint8)
    _, labels = cv2.connectedComponents(near)
    touching = np.unique(labels[cv2.dilate(own, np.ones((5, 5), np.uint8)).astype(bool) & (near > 0)])
    touching = touching[touching > 0]
    if not len(touching):
        return False
    mine = float(cv2.distanceTransform(own, cv2.DIST_L2, 5).max())
    theirs = float(cv2.distanceTransform(near, cv2.DIST_L2, 5)[np.isin(labels, touching)].max())
    return mine <= theirs


def _rim(blob, others, box, piece_area: float, name: str, space, expected, palette, tuning: Tuning) -> bool:
    """Whether a blob of ``name``'s colour ringed mostly by other kinds' colours (``others``) is the blurred rim of a
    piece of another colour (yellow on blue blurs grey), not a piece.

    On a space the game leaves empty, it is a piece when it is thicker than the other colour round it: a piece
    ringed by its own blurred edge (a red piece on a blue board, ringed with purple; 500 boards: 7 more mistakes
    said, and of the right boards' blobs so ringed on a bare space, none so thick but on a hand board). On a space
    the game has pieces on, what rings it is those pieces, a piece thick: it is a rim unless it is a piece thick
    itself (``tuning.thick``) in a colour none of them can take (a green blob on a yellow piece on a dark board is
    that piece read partly green; a red one beside a blue piece is one more piece)."""
    reach = int(1.5 * piece_area ** 0.5)
    there = [p for p in expected if (p.column, p.step) == tuple(space)]
    if not there:
        return _thinner(blob, others, box, reach)
    if any(palette.alike(p.kind, name) for p in there):
        return True
    return _depth(blob, box) < tuning.thick * piece_area ** 0.5


def _depth(blob, box) -> float:
    """How thick a blob (uint8, 1 on it; its box: x, y, width, height) is: the distance (px) from its deepest point
    to its edge."""
    x, y, w, h = (int(v) for v in box)
    return float(cv2.distanceTransform(np.pad(blob[y:y + h, x:x + w], 1), cv2.DIST_L2, 5).max())


def _depth_in(classes, region, k: int) -> float:
    """How thick class ``k`` is within ``region`` (flat indices of ``classes``): the distance (px) from its deepest
    point there to its edge."""
    ys, xs = np.unravel_index(region, classes.shape)
    if not len(ys):
        return 0.0
    y0, x0 = int(ys.min()), int(xs.min())
    mask = np.zeros((int(ys.max()) - y0 + 3, int(xs.max()) - x0 + 3), np.uint8)
    mask[ys - y0 + 1, xs - x0 + 1] = classes.reshape(-1)[region] == k
    return float(cv2.distanceTransform(mask, cv2.DIST_L2, 5).max())


def _tops(where, present, name: str, palette, body, index) -> int:
    """How many found pieces whose lit face may show as ``name`` have a quarter of a blob (``where``, flat
    indices) in their bodies, one at least: each lights its own top."""
    count = sum(1 for p in present if palette.alike(p.kind, name) and (p.column, p.step) in index
                and np.isin(where, body.pixels[index[(p.column, p.step)]]).mean() > 0.25)
    return max(1, count)


def _shade_of(centre, ring, classes, own, kinds, piece_area: float, tuning: Tuning) -> bool:
    """Whether a blob (its ``centre``, the ``ring`` round it) is the shaded side of a marker found on its space:
    its middle within ``tuning.cling`` of a piece's width from the middle of that marker's colour in the space's
    body (``own``, flat indices), and that colour over ``tuning.wrap`` of its ring at least (``kinds``: the
    classes of the markers found there)."""
    flat = classes.reshape(-1)
    for k in kinds:
        pixels = own[flat[own] == k]
        if not len(pixels):
            continue
        ys, xs = np.unravel_index(pixels, classes.shape)
        near = float(np.hypot(xs.mean() - centre[0], ys.mean() - centre[1])) / piece_area ** 0.5
        if near <= tuning.cling and float((classes[ring] == k).mean()) >= tuning.wrap:
            return True
    return False


def _square_of(where, centre, standing, votes, body, piece_area: float) -> tuple[int, float, float]:
    """The space a blob (its pixels ``where``, its ``centre``) stands on: the one whose square holds most of it (by
    ``votes``, the bodies it lies in, when it lies in no square); how much of it lies in that square; and how far
    its middle is from where a piece there is seen, in a piece's width."""
    squares = standing[where]
    squares = np.bincount(squares[squares >= 0], minlength=len(votes))
    n = int(squares.argmax()) if squares.any() else int(votes.argmax())
    off = float(np.hypot(*(centre - (body.foot[n] + body.top[n]) / 2))) / piece_area ** 0.5
    return n, float(squares[n]) / len(where), off


def extras(px, body, spaces, index, expected, doubts: set, present, lost, tuning: Tuning,
            trace) -> tuple[list[Piece], set]:
    """Pieces the game does not have: blobs of a kind's colour that no expected piece of that kind explains,
    each on the space whose square holds most of it.

    In that square, centred and big enough, a blob is a piece; so is one less centred whose square's foot shows
    its colour, one leaning far off its square that lies nearly all in the body of a piece on that space, and a
    small one a square or two from an unfound piece of its kind (that piece, moved). Any other blob in a square
    makes that space unsure; one in no square at all is nothing (a glint or a rim). A blob far bigger than a
    piece is no piece (glare, a sleeve: its spaces are unsure); a colour with more such blobs than
    ``tuning.crowd`` is one whose look-alikes fill the picture (returned as crowded: all unsure); one on a piece
    found where the game has it, no bigger than a piece, in a colour that piece's lit face or rim can take
    (white, or a colour near its own: an orange face on a red piece, and then thinner than a piece), is that face
    (a red blob on a blue piece found is a red piece). A blob that hugs a marker of another kind found on its
    space, wrapped round it, may be that marker's shaded side: its space is unsure. A blob ringed mostly by other
    kinds' colours is the blurred rim of a piece of another colour, unless it is a piece thick (:func:`_rim`). One
    not squarely in its square, beside a piece of its kind found a space up or down its column on a space of three
    pieces or more, or beside a marker of its kind standing in its own square, may be that piece off its hole,
    half onto the next space: unsure."""
    classes, palette = px.classes, px.palette
    given = px.given or palette
    shape = classes.shape
    out: list[Piece] = []
    crowded: set[str] = set()  # the colours whose look-alikes are all over the picture
    piece_area = body.piece_area
    thick = tuning.thick * piece_area ** 0.5  # a piece thick (px)
    names = palette.names()
    faces = {name: body.mask([index[(p.column, p.step)] for p in present if palette.alike(p.kind, name)],
                             shape).reshape(-1) for name in names}
    lit = {index[(p.column, p.step)] for p in present}  # the squares whose found piece a lamp may light white
    owners = body.owners(classes.size)
    standing = body.standing(classes.size)
    occupied = {(p.column, p.step) for p in expected}
    crowds = Counter((p.column, p.step) for p in expected)
    glared = classes == UNKNOWN
    huge = tuning.hand * piece_area  # far bigger than a piece: a hand, an arm, a sleeve
    foreign = larger(classes == FOREIGN, huge)
    pale = larger(classes == KIND0 + names.index(RUNNER), huge) if RUNNER in names else np.zeros(shape, bool)
    # how far each pixel is from white far bigger than a piece (px): glare on a pale board, a white sleeve
    from_pale = cv2.distanceTransform((~pale).astype(np.uint8), cv2.DIST_L2, 3) if pale.any() else None
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
            depth = _depth(blob, stats[label, :4])  # how thick it is (px), weighed by several bars below
            ring = cv2.dilate(blob, np.ones((5, 5), np.uint8)).astype(bool) & ~blob.astype(bool)
            # it comes out of glare, or out of something foreign far bigger than a piece (a finger in a piece's
            # colour); a piece's own shaded side, foreign to the palette, is no such thing. A runner's white beside
            # white far bigger than a piece is that glare's haze on a pale board as often as a runner
            where = np.flatnonzero(labels.reshape(-1) == label)
            hidden_by = glared[ring].mean() > 0.35 or bool(foreign[ring].any()) or \
                name == RUNNER and from_pale is not None and \
                float(from_pale.reshape(-1)[where].min()) <= tuning.haze * piece_area ** 0.5
            held = owners[where]
            votes = np.bincount(held[held >= 0], minlength=len(spaces))
            if votes.max() == 0:
                continue
            # the space it stands on: the square holding most of it, how much of it lies there, how far off its middle
            n, square, off = _square_of(where, centres[label], standing, votes, body, piece_area)
            if others[ring].mean() > 0.35 and _rim(blob, others, stats[label, :4], piece_area, name, spaces[n][:2],
                                                   expected, palette, tuning):
                continue
            if faces[name][where].mean() > 0.5 and (size <= 1.5 or size <= 1.5 * _tops(where, present, name, palette,
                                                                                     body, index)) and \
                    (name == RUNNER or depth < thick):
                # white over a piece found: its lit top, when it stands in that piece's square, where the piece is
                # seen (two found side by side on a space: their two tops in one blob); a runner beside it (two
                # pieces on a space stand side by side, each half a piece off its middle), or one in a square
                # where no piece was found, makes the spaces it lies on unsure. A marker's colour over it is its
                # lit face or rim only when thinner than a piece (a red marker beside a yellow one the photo makes
                # alike is a piece thick: 500 boards, such faces on right boards 0.29 thick at most, the mistakes'
                # blobs 0.33 to 0.59)
                if name == RUNNER and size >= tuning.extra:
                    if n not in lit or off >= tuning.beside:
                        doubts.update(spaces[m][:2] for m in np.flatnonzero(votes > 0.5 * votes.max()))
                continue
            if size > 2.5:
                blobs += 1
                doubts.update((spaces[m][0], spaces[m][1]) for m in np.flatnonzero(votes > 0.1 * votes.max()))
                continue
            # a piece stands in a square: the space it is on is the square holding most of its blob; a blob in
            # no square (a glint, a rim, a shadow's edge between the spaces) is no piece, and doubts none
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
            if name == RUNNER:  # a runner's white is plain white: a lit top, a glint or glare's edge is tinted; and
                # it is lit as the tags' paper is: white brighter than that paper is the lamp's reflection, a glare
                # spot a runner's size (unsure)
                white = float(np.median(px.near.reshape(-1)[where])) <= tuning.white
                dull = float(np.median(px.cur.reshape(-1, 3)[where].mean(axis=1))) <= tuning.paper
                piece = size >= tuning.extra_runner and off <= tuning.centred and white and dull and \
                    square >= tuning.square / 2
            else:
                # on a space the game has a piece on, a blob as small as the leaning's bar may be that piece's lit
                # face or rim (a yellow blob on a green piece found there): the usual bar there
                inbody = float(np.isin(where, body.pixels[n]).mean())
                leaning = tuning.extra if (c, step) in occupied else tuning.leaning
                piece = (size >= tuning.extra and off <= tuning.centred and square >= tuning.square or
                         size >= 2 * tuning.extra and off <= tuning.centred and square >= tuning.square / 2 or
                         size >= leaning and off <= tuning.centred and square >= tuning.leaning_square and
                         inbody >= tuning.inbody and
                         depth >= tuning.lean_thick * len(body.feet[n]) ** 0.5 or
                         near_lost and size >= tuning.extra_lost and square >= tuning.square or
                         size >= tuning.extra and off <= tuning.far and square >= tuning.square and
                         _alone(body.feet[n], classes, explained, KIND0 + k) >= tuning.foot or
                         size >= tuning.extra and off <= tuning.far and square >= tuning.thick_square and
                         depth >= thick or
                         (c, step) not in occupied and off <= tuning.faint_off and square >= tuning.square and
                         px.changed(body.feet[n], tuning.change[1]) >= tuning.faint_filled)
            # on a space where the game has a piece of another kind that the reading did not find, a blob of this
            # kind is that piece misread as often as one more (a red piece read yellow under a warm lamp); so it is
            # where that piece, of a colour near this one's (as the check was told the colours: the photo may have
            # pulled them apart), was found in no patch a piece thick: what was found of it is a neighbour's rim in
            # its colour (an orange piece read yellow beside a blue one, its orange only the blue one's blurred edge)
            misread = piece and any(p.kind != name and (p.column, p.step) == (c, step) and
                                    (p in lost or p.kind != RUNNER and given.alike(p.kind, name) and
                                     _depth_in(classes, body.pixels[n], KIND0 + names.index(p.kind)) < thick)
                                    for p in expected)
            # a blob hugging a marker of another kind found there, wrapped round it, is that marker's shaded side
            # read in this colour (a green piece's brown shade under a warm lamp read orange) as often as a piece
            # beside it (two pieces on a space stand a piece's width apart): unsure
            shaded = piece and _shade_of(centres[label], ring, classes, body.pixels[n],
                                         [KIND0 + names.index(p.kind) for p in present if p.kind not in (name, RUNNER)
                                          and (p.column, p.step) == (c, step)], piece_area, tuning)
            # a blob not squarely in its square, beside a piece of its kind found a space up or down its column on a
            # space of three pieces or more, which do not fit its square, is that piece half over the next space as
            # often as one more (seed 59's board 285: a red of three on 3 at 1, over 3 at 2); beside a marker of its
            # kind whose own square shows it (``tuning.foot``), that marker off its hole: a colour has one marker on
            # a column, and one a table forgets there stands squarely in its own hole (seed 61's board 81: the red
            # of 10 at 2 over the hole of 10 at 1; seed 58's board 135). A marker found only by a neighbour's lean
            # over its body, none of it in its square, is no such marker (make test's leaning photo)
            pushed = piece and square < tuning.square and \
                any(p.kind == name and p.column == c and abs(p.step - step) == 1 and
                    (crowds[(p.column, p.step)] >= 3 or name != RUNNER and
                     share(body.feet[index[(p.column, p.step)]], classes.reshape(-1), KIND0 + k) >= tuning.foot)
                    for p in present)
            if piece and (c, step) not in doubts and not hidden_by and not misread and not shaded and not pushed:
                found.append(Piece(c, step, name))
            else:
                doubts.add((c, step))
        if blobs > tuning.crowd:  # the picture is full of this colour's look-alikes (glints on a glossy board are
            doubts.update((p.column, p.step) for p in found)  # white): none of them can be told for a piece
            crowded.add(name)
        else:
            out += found
    return out, crowded
