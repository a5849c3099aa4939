"""A photo of the board read against the empty board and the pieces the game says should be there.

The box knows where every piece should be, so the camera checks rather than
guesses. The photo is straightened onto the board's plane by the corner
tags, and every pixel judged against the empty board's photo
(:mod:`sight.pixels`). Then, for each piece the game expects, its body (its
space's square swept along its lean away from the camera) says whether it is
there: enough of its colour there, or surely none while its square shows the
board plainly and unchanged; and colour that no expected piece explains, in a
blob the size of a piece standing in a space's square (a glint or a rim lies
between them), is a piece that should not be there (:mod:`sight.extras`). Whatever the picture
cannot settle (glare, a hand, a dark piece on a board of its own colour) is
*unsure*, never a guess: only a confident difference is a mismatch
(:mod:`sight.verdict` turns a :class:`Reading` into findings). When too few
tags can be read, the board is followed from where the set-up saw it
(:mod:`sight.follow`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import markers
from .arm import beside, hands
from .calibrate import Calibration, canonical
from .extras import _depth_in, extras as _extras, share
from .follow import follow
from .layout import RUNNER, Piece
from .palette import Palette
from .pixels import BOARD, FOREIGN, KIND0, SHADE, UNKNOWN, bodies, classify, larger
from .pose import pose
from .tuning import Tuning


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
    gone: frozenset = frozenset()  # Piece: "no", and its square barely changed: missing, whatever its column holds


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
    pale = px.classes == KIND0 + names.index(RUNNER) if RUNNER in names else None
    coloured = (px.classes >= KIND0) & ~pale if pale is not None else None
    doubts, arm = hands(px.classes, body, spaces, tuning, coloured, placed, pale)

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
    quiet: list[tuple[Piece, int]] = []  # runners not found, their squares plainly the board, where one hardly shows
    said: dict[Piece, str] = {}  # what each piece's body showed: "yes", "no", "faint" or "unsure"
    for piece in expected:
        n = index.get((piece.column, piece.step))
        if n is None or piece.kind not in names:
            pieces[piece] = "unsure"
            continue
        status, own = _presence(piece, n, flat, body, at, names, px, cover[piece.kind], tuning, trace)
        said[piece] = status
        if status == "faint":  # a runner's only: see _peers_changed
            if piece.kind == RUNNER:
                quiet.append((piece, n))
            status = "unsure"
        pieces[piece] = "unsure" if (piece.column, piece.step) in doubts and status == "no" else status
        if status == "yes" and len(own):
            colours.setdefault(piece.kind, []).append(px.cur.reshape(-1, 3)[own])
        if status == "yes" and len(own) >= 2 * tuning.present * body.area[n]:
            plain.add(piece)
    for piece, status in said.items():  # a marker's colour this photo does not show, or shows on still squares
        # only, proves none absent; nor does a square behind a piece the photo did not see
        if status == "no" and piece.kind != RUNNER and (_unshown(piece, said) or _behind(piece, said, at, index) or
                                                         _peers_still(piece, said, at, px, body, index, tuning)):
            pieces[piece] = "unsure"
    for piece, n in quiet:  # the pieces of its kind standing in this photo show what one changes
        if (piece.column, piece.step) not in doubts and _peers_changed(piece, n, plain, at, px, body, index, tuning):
            pieces[piece] = "no"
    skin = arm  # the hand, with its white far bigger than a piece (its lit skin, read as the runners')
    if arm is not None and pale is not None:
        skin = arm | larger(pale, tuning.hand * body.piece_area)
    if arm is not None:  # a hand hides as much as it shows: skin of the board's colour over a square leaves it still,
        # and its lit part reads as the runners' white, far bigger than a piece (seed 59's board 299: a runner under a
        # palm said missing, six pieces' widths from the skin read foreign, one from the palm's white)
        absent = [p for p, status in pieces.items() if status == "no"]
        near = beside(skin, [body.feet[index[(p.column, p.step)]] for p in absent], body, tuning)
        pieces.update((p, "unsure") for p, close in zip(absent, near) if close)
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
    moved = [p for p in _feet(pieces, plain, px, flat, body, index, names, cover, doubts, tuning, trace)
             if (p.column, p.step) not in doubts]
    present = [p for p, status in pieces.items() if status == "yes"]
    # a piece surely not on its space explains no colour near it (it is one a square off, perhaps)
    maybe = [p for p, status in pieces.items() if status != "no"]
    lost = [p for p, status in pieces.items() if status != "yes"]
    more, crowded = _extras(px, body, spaces, index, maybe, doubts, present, lost, tuning, trace)
    doubts.update((p.column, p.step) for p in moved if p.kind in crowded)  # its look-alikes are everywhere
    moved = [p for p in moved if p.kind not in crowded]
    extras = moved + [e for e in more if e not in moved]
    if arm is not None:  # what lies round a hand (its shadow, the skin's shine, its palm's white) takes a piece's
        # look: unsure there (seed 63's board 99: a runner said on 6 at 2, under a finger read white)
        near = beside(skin, [body.feet[index[(e.column, e.step)]] for e in extras], body, tuning)
        doubts.update((e.column, e.step) for e, close in zip(extras, near) if close)
        extras = [e for e, close in zip(extras, near) if not close]
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
    named = {(e.column, e.step) for e in extras}
    for n, (c, k, _) in enumerate(spaces):
        if n not in at and (c, k) not in named and len(body.feet[n]) >= 10 and \
                px.changed(body.feet[n], tuning.change[1]) >= tuning.filled:
            doubts.add((c, k))
    gone = frozenset(p for p, status in pieces.items() if status == "no" and
                     _stirred(px, body.feet[index[(p.column, p.step)]], tuning) <= tuning.bare)
    learnt = {k: np.median(np.concatenate(v), axis=0) for k, v in colours.items() if sum(map(len, v)) >= 20}
    return Reading(pieces, tuple(extras), frozenset(doubts), hand=arm is not None, colours=learnt, classes=px.classes,
                   spaces=len(spaces), gone=gone)


def _presence(piece: Piece, n: int, flat, body, at, names, px, cover, tuning: Tuning, trace):
    """Whether ``piece`` stands on space ``n``: its colour in the body there (less what the same kind's pieces
    on other spaces explain: ``cover`` counts the bodies of that kind's expected pieces on each pixel), against
    what one piece covers; "no" only where the body shows the board plainly, and "faint" where it does but a
    piece of this kind would hardly stand out there (:func:`_peers_changed` may settle it)."""
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
    if own <= tuning.absent and plainly and float((cls == BOARD).mean()) > 0.6:
        return ("no" if _shows_bare(px, piece.kind, body.feet[n], body.prints[n], tuning) else "faint"), region[:0]
    return "unsure", region[:0]


def _unshown(piece: Piece, said: dict) -> bool:
    """Whether this photo does not show ``piece``'s kind: of the other pieces of that kind the game has whose bodies
    were read plainly (``said``: found, or the board plainly there), fewer than half were found. Then the kind does
    not look here as the check was told (a lamp washing the pieces out, a colour cast), and a bare square proves
    none of it absent. Seed 59's board 219: none of six greens found on a board of white discs under a bright lamp,
    three said missing; board 126: one of seven reds found, none of seven yellows, a red and a yellow said missing.
    Markers only: a runner's white on a pale board is faint as often as not (:func:`_peers_changed` weighs them)."""
    others = [status for p, status in said.items() if p.kind == piece.kind and p != piece and
              status in ("yes", "no", "faint")]
    return bool(others) and 2 * others.count("yes") < len(others)


def _behind(piece: Piece, said: dict, at: dict, index) -> bool:
    """Whether a piece the game has on ``piece``'s space went unseen (``said``: its body showed neither it nor
    plainly the board): it may stand between the camera and ``piece``, hiding it as well as a piece that shows.
    Seed 62's board 1: a red marker behind a white runner on a white disc, the runner unseen, the red's square
    still: said missing while it stood there."""
    n = index[(piece.column, piece.step)]
    return any(said.get(p) in ("unsure", "faint") for p in at.get(n, ()) if p != piece)


def _peers_still(piece: Piece, said: dict, at: dict, px, body, index, tuning: Tuning) -> bool:
    """Whether the markers of ``piece``'s kind found in this photo (``said``), each alone on its space, barely changed
    their squares: the median of how much each changed under ``tuning.peer_changed``. A piece of that kind then
    stands on a square without changing it, and a still square proves none absent. Seed 60's board 36: red markers
    on a red board, the four found changing their squares 0.00 to 0.20; one whose square changed 0.02 was said
    missing while it stood there."""
    squares = [body.feet[index[(p.column, p.step)]] for p, status in said.items()
               if p.kind == piece.kind and p != piece and status == "yes" and
               len(at.get(index[(p.column, p.step)], ())) == 1]
    return bool(squares) and float(np.median([_stirred(px, s, tuning) for s in squares])) < tuning.peer_changed


def _shows_bare(px, kind: str, feet, footprint, tuning: Tuning) -> bool:
    """Whether a square (``feet``, flat indices) shows plainly that no piece of ``kind`` stands there: one would
    stand out plainly (``tuning.visible``; :func:`_stands_out`), and the square has hardly changed
    (``tuning.still``); or one would stand out less plainly (``tuning.faint``), and the square has barely changed
    (``tuning.bare``)."""
    stands_out = _stands_out(px, kind, feet, footprint) / tuning.change[1]
    stirred = _stirred(px, feet, tuning)
    return stands_out >= tuning.visible and stirred <= tuning.still or \
        stands_out >= tuning.faint and stirred <= tuning.bare


def _stands_out(px, kind: str, feet, footprint) -> float:
    """How plainly a piece of ``kind`` would stand out on a square (``feet``, flat indices), in noise units: over
    the whole square and where it stands (``footprint``: the disc in the square's middle), plain only if plain both
    ways. On a board whose spaces are holes or discs, a black runner in a black hole stands out from the band round
    the hole, not from the hole (seed 49's board 34 with black runners: one said missing from the hole it stood
    in). Nor is the disc alone enough: on seed 51's boards 18 and 43, white runners on cream discs lit as bright
    as the tags' paper seemed to stand out there (the runners' white is greyer than paper), and were said not
    there; their lit tops were as bright as the discs, and their squares, dark-rimmed, said they would hardly
    show."""
    return min(px.visible(kind, feet), px.visible(kind, footprint))


def _peers_changed(piece: Piece, n: int, plain: set, at: dict, px, body, index, tuning: Tuning) -> bool:
    """Whether the pieces of ``piece``'s kind found plainly elsewhere in this photo, each alone on its space and on
    a square where it stands out hardly more than one would on space ``n`` (``tuning.peer_ratio``), all changed their
    squares widely (``tuning.peer_changed``), while ``n``'s square barely changed (``tuning.peer_still``): then none
    stands on ``n``. A white runner on a pale board stands out from it by little more than the photo's noise, so
    its colour cannot say it is absent; the runners standing on that board in the same light show what one changes.
    A piece sharing its space is no measure: its square changed for the other piece too. For runners only: on board
    199 of the 500, a purple marker standing on its space unfound had barely changed its square (0.02) while the
    purple ones beside it had changed theirs widely (0.7), and that right board was said wrong."""
    feet = body.feet[n]
    if _stirred(px, feet, tuning) > tuning.peer_still:
        return False
    here = _stands_out(px, piece.kind, feet, body.prints[n])
    others = [index[(p.column, p.step)] for p in plain if p.kind == piece.kind and p != piece]
    seen = [body.feet[m] for m in others if len(at.get(m, ())) == 1 and
            _stands_out(px, piece.kind, body.feet[m], body.prints[m]) <= tuning.peer_ratio * here]
    return bool(seen) and all(_stirred(px, square, tuning) >= tuning.peer_changed for square in seen)


def _stirred(px, feet, tuning: Tuning) -> float:
    """How much of a square (``feet``, flat indices) changed by half a change at least."""
    return px.changed(feet, tuning.change[1] / 2)


def _feet(pieces: dict, plain: set, px, flat, body, index, names, cover, doubts: set, tuning: Tuning,
          trace) -> list[Piece]:
    """Every piece looked for by its foot, up and down its column: the square a piece stands in shows its colour
    however it leans, and a piece's body may show a neighbour's lean, even plainly (a piece a square below it,
    seen from below, leans its top over the body: boards 42 and 348 of make camera-bench). Found plainly on its
    own square, it is there; found plainly a square or two off while its own square shows nothing of it, and its
    body is not hidden (glare, something foreign), it was moved (an extra there; the piece unsure when it was
    found with little of its colour, not in ``plain``, and the verdict says "moved"), unless the game has a piece
    of another kind there that was not found, or found with little of its colour, in a colour the photo makes
    alike, or unless the piece is a runner whose own square does not show plainly that it is bare
    (:func:`_shows_bare`: a white runner on a cream square, and the white a square off a found piece's pale rim or
    the cream lit whiter; or the square changed widely with none of its white, a white runner on a pale square
    showing only as its shaded side), and the runners beside it did not settle that it is not there
    (:func:`_peers_changed`), or unless the colour there is only the blurred rim of a piece of another kind found
    there (:func:`_rimmed`): then that square is added to ``doubts``. A marker's square shows its colour: such a
    bar for markers lost 38 of the 500 boards' markers a square off, found before."""
    palette = px.palette
    moved = []
    for piece, status in list(pieces.items()):
        if piece.kind not in names:
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
        weak = status == "yes" and piece not in plain  # found with little of its colour: a neighbour's lean?
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
                   for p in pieces) or piece.kind == RUNNER and status != "no" and \
                    not _shows_bare(px, RUNNER, body.feet[n], body.prints[n], tuning) or \
                    _rimmed(piece.kind, piece.column, best, pieces, px, body, index, names, tuning):
                doubts.add((piece.column, best))
            else:
                moved.append(Piece(piece.column, best, piece.kind))
                if weak:
                    pieces[piece] = "unsure"
    return moved


def _rimmed(kind: str, column: int, step: int, pieces: dict, px, body, index, names, tuning: Tuning) -> bool:
    """Whether ``kind``'s colour on a space is only the blurred rim of a piece of another kind found there: one stands
    there, and ``kind``'s colour in that space's body is nowhere a piece thick (``tuning.thick``). Seed 60's board
    155: a red marker on a pale yellow space, ringed by its own edge blurred orange and read yellow, while the yellow
    marker a square above, pale on that space, showed little of itself: "moved"."""
    if not any(status == "yes" and p.kind != kind and (p.column, p.step) == (column, step)
               for p, status in pieces.items()):
        return False
    thick = tuning.thick * body.piece_area ** 0.5
    return _depth_in(px.classes, body.pixels[index[(column, step)]], KIND0 + names.index(kind)) < thick


def _foot_share(kind: str, names, own_body, m: int, flat, body, cover) -> float:
    """How much of space ``m``'s square shows ``kind``'s colour, where no other expected piece of that kind's body
    lies (a piece's own body, ``own_body``, counts)."""
    foot = body.feet[m]
    mine = np.isin(foot, own_body)
    foot = foot[(cover[kind][foot] == 0) | (mine & (cover[kind][foot] == 1))]
    return share(foot, flat, KIND0 + names.index(kind))


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
