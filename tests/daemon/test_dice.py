"""The box's dice: from the OS entropy source, fair, four at a time."""

from collections import Counter

from firmware.daemon.dice import os_dice, seeded_dice

# Chi-square critical values at p = 1e-6 (a real bias fails; chance alone about once in a million runs).
CHI2_5_DOF = 35.89  # six faces
CHI2_35_DOF = 87.95  # ordered pairs of neighbouring dice, 36 cells


def chi_square(counts, expected):
    return sum((c - expected) ** 2 / expected for c in counts)


def test_dice_os_entropy_is_fair_over_100000_dice():
    rolls = [os_dice() for _ in range(25_000)]  # 100,000 dice
    assert all(len(r) == 4 and all(type(d) is int and 1 <= d <= 6 for d in r) for r in rolls)
    faces = Counter(d for r in rolls for d in r)
    assert chi_square([faces[f] for f in range(1, 7)], 100_000 / 6) < CHI2_5_DOF
    # Each die position on its own is fair too (no die is loaded).
    for i in range(4):
        per_die = Counter(r[i] for r in rolls)
        assert chi_square([per_die[f] for f in range(1, 7)], 25_000 / 6) < CHI2_5_DOF


def test_dice_neighbours_are_independent():
    rolls = [os_dice() for _ in range(25_000)]
    pairs = Counter((r[0], r[1]) for r in rolls) + Counter((r[2], r[3]) for r in rolls)
    cells = [pairs[(a, b)] for a in range(1, 7) for b in range(1, 7)]
    assert chi_square(cells, 50_000 / 36) < CHI2_35_DOF


def test_dice_seeded_only_when_asked():
    a, b = seeded_dice(5), seeded_dice(5)
    assert [a() for _ in range(10)] == [b() for _ in range(10)]
    assert len({os_dice() for _ in range(50)}) > 1
