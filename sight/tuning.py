"""Every threshold of a reading of the board (:mod:`sight.read`), in one place: ``make camera-bench`` measures
them, and each says what it was chosen on."""

from __future__ import annotations

from dataclasses import dataclass


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
    far: float = 0.55  # ... or this far, when its square's foot shows its colour too (``foot``: a piece stands there;
    # 500 boards: 8 more mistakes found at 0.55 and none said on a right board; at 0.6 a right board said wrong)
    leaning: float = 0.3  # ... this big (``extra`` where the game has a piece), with as little as this much of it in
    leaning_square: float = 0.35  # the square, where nearly all of it (``inbody``) lies in the body of a piece on
    inbody: float = 0.95  # that space: a piece leaning far off its square (a camera well off the middle) stands there
    lean_thick: float = 0.19  # ... when it is this thick at least, in its square's width (a leaning piece's body
    # is long: a width from its area is too big a unit. make test's leaning photo: its pieces 0.22 to 0.36; seed 50's
    # board 26, a red piece's rim on a blue board taken for a navy marker leaning, 0.15. 500 boards: 3 mistakes fewer
    # said, none more said wrong)
    extra_lost: float = 0.15  # ... this big, where a piece of its kind the game has a square or two off is not found
    thick: float = 0.31  # a blob this thick at least (the distance from its deepest point to its edge, in a
    # piece's width) is a piece: not the rim of the pieces on its space that ring it, when it is in a colour none of
    # them can take (500 boards: 3 more mistakes said, 0.37 and 0.38 thick, and none on a right board; a rim, a
    # blurred edge, 0.1 to 0.25), nor a found piece's lit face in a marker's colour (right boards' such faces 0.29
    # thick at most; the mistakes' 0.33 to 0.59). A piece of the game's found in no patch this thick was not seen,
    # only a neighbour's rim in its colour (make camera-heldout: a right board of seed 50 said wrong so)
    thick_square: float = 0.6  # a blob a piece thick (``thick``), ``extra`` big, ``far`` off the square's middle at
    # most and this much of it in the square, is a piece there (500 boards: 5 more mistakes said, 0.62 to 0.79 in
    # their squares; of right boards' blobs so thick and big that no other bar took, none within ``far``)
    stray: float = 0.2  # ... less than this in any square: it stands on none, and makes no space unsure
    extra_runner: float = 0.5  # a runner (in half a square at least) this big, its colour plainly the runners' white
    white: float = 0.12  # ... its pixels' median distance to that white at most this (palette units)
    paper: float = 1.1  # ... and their median brightness at most this, on the tags' white (1: their paper): a
    # runner's flat top is lit as the paper is, and glare, the lamp's reflection, is brighter (500 boards, boards 0
    # to 249: the blobs taken for a runner where one stood, 0.54 to 1.01; glare spots said a runner left on on right
    # boards of seeds 53 and 56, 1.26 and 1.21)
    beside: float = 0.5  # white on a piece found (``extra`` big) this far off where a piece there is seen (in a
    # piece's width): a runner beside it, unsure; nearer, its lit top (boards 0 to 299 of make camera-bench: the 2
    # runners left on beside a piece were 0.61 and 0.71 off, and 84 of the 128 lit tops nearer than this)
    haze: float = 0.5  # a runner's white this near (in a piece's width) white far bigger than a piece (``hand``) is
    # that glare's haze on a pale board as often as a runner: unsure (seed 50's board 130, 0.16 near, was said a
    # runner left on; 500 boards: every runner found was 1.14 away at least)
    doubt: float = 0.15  # ... this big: the space it lies on is unsure
    hand: float = 3.5  # something foreign bigger than this many pieces: a hand or an arm over the board (a hand is
    # tens of pieces; at 2.5, the board's own red between its squares joined to a glare's rim made a "hand": 500
    # boards, unsure 6.0% -> 5.8%, the same false mismatches and hand boards' findings)
    join: float = 1.0  # bits of something foreign this near (a piece's width) are one thing: a dark arm on a dark
    alien: float = 1.0  # board breaks into bits of skin, shine and sleeve, none a hand alone; joined, a hand when
    # this many pieces of it are of no kind (seed 63's board 49: a red said on 2 at 2 under a dark hand; the
    # benchmark's board 34, a crowd of pieces and their leans on a blue board joined, has none. With the hand's white
    # kept round found pieces too, 500 boards: missed 330 -> 334, all on hand photos; unsure 4.36% -> 4.41%)
    hand_reach: float = 3.0  # a piece found this near a hand (in a piece's width, from the hand's own region) is
    # unsure: the hand's shadow and its skin's shine take a piece's look round it (make camera-heldout: runners and a
    # red marker said on right boards 1.1 to 2.4 from the hand; 500 boards: the mistakes found that near a hand,
    # two, at 1.6 and 2.4, and the next at 4.2: 1 more missed. Seed 56, read first with it: right boards said wrong
    # 5 -> 4 of 297, 3 more of 672 mistakes missed, found but said of another place 6 -> 3)
    halo: float = 0.5  # ... unless this much of it lies within a piece's width of glare: glare's halo (500 boards:
    # 21 of the 34 bare boards said to have a hand had only halos, 0.5 to 1.0 of them so near; every hand, 0.31 at most)
    change: tuple[float, float] = (0.04, 4.0)  # a pixel changed: by this much at least, this many times the noise
    visible: float = 2.5  # a piece said absent only where it would stand out this many times plainer than a change
    still: float = 0.3  # ... and where at most this much of its square changed by half a change (a dim piece in a
    # haze changes it faintly but widely; a square with no piece, hardly: 95% of them under 0.11)
    bare: float = 0.2  # ... at most this much: it is missing, even where a space in its column cannot be read (500
    # boards: 65 of the 66 pieces said absent beside a blob that could not be settled, at most 0.19; the one piece
    # said absent that stood there, a washed-out green on a small dark board, 0.28)
    peer_still: float = 0.1  # a square that changed (by half a change) over at most this much, where pieces of its
    peer_changed: float = 0.3  # kind found plainly in the same photo, each alone on a square where it stands out at
    peer_ratio: float = 1.25  # most this many times as plainly as here, all changed at least this much: none is
    # there: a runner, not a marker (:func:`sight.read._peers_changed`. 500 boards' runners: those alone and found
    # plainly changed their squares 0.41 at least; where such runners were, every runner that stood there unfound
    # changed its square 0.23 at least, and 16 of the 19 squares a runner was moved off, 0.1 at most)
    faint: float = 2.0  # ... or absent where it would stand out only this many times plainer, if its square changed
    # ``bare`` at most (500 boards: 5 more mistakes said, nothing else moved; a bar of 2.0 for every square said a
    # right board's green piece under a glare's haze missing, its square changed 0.29: board 142)
    cling: float = 0.62  # a blob whose middle is this near (in a piece's width) the middle of a marker of another
    wrap: float = 0.2  # kind found on its space, that colour over this much of its ring, is that marker's shade
    # (500 boards: the two right boards said wrong so, 0.32 and 0.56 near, 0.25 and 0.32 wrapped; of 98 pieces
    # really beside a found marker, none so near and wrapped but one beside a runner, whose shade is grey)
    crowd: int = 3  # more blobs of one colour than this unexplained: that colour's are look-alikes, unsure
    foot: float = 0.3  # a piece's colour over this much of a square: its foot stands there
    faint_off: float = 0.35  # a blob of a marker's colour this near the middle (in a piece's width) of a square
    faint_filled: float = 0.5  # the game leaves empty, that square changed over this much of itself, is a piece
    # however little of it shows its colour (a dark blue piece on a dark board shows as shade; 500 boards: 5 more
    # mistakes said. On right boards such blobs so near the middle changed their squares 0.26 at most; the mistakes'
    # 0.61 to 0.96. At 0.45 off, a hand board's yellow blob under the hand, its square changed 0.87)
    filled: float = 0.25  # a square the game leaves empty changed over this much: something stands there (a
    # runner left on: median 0.35; an empty square: 95% under 0.04)
