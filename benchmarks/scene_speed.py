"""How long a virtual photo takes: ``python -m benchmarks.scene_speed [--tables N] [--shots N]``.

For each camera resolution, ``--tables`` random tables, each photographed
``--shots`` times at positions from played games (every third shot with a
hand): the first photo of a table (it draws the board and the table top,
then cached) apart from the rest. Wall and CPU milliseconds a photo (CPU
counts OpenCV's threads too: on a busy machine it is the steadier figure).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from engine import HEIGHTS
from sight import scene
from sight.layout import centred

from .camera_positions import sample_positions


def measure(size: tuple[int, int], tables: int, shots: int, seed: int) -> dict:
    layout = centred(HEIGHTS)
    positions = sample_positions(shots, seed)
    rng = np.random.default_rng(seed)
    first, later_wall, later_cpu, hands_wall = [], [], [], []
    for _ in range(tables):
        table = scene.random_table(rng, layout, size=size)
        for k, (pieces, _colours) in enumerate(positions):
            shot = scene.random_shot(rng, hand=k % 3 == 2)
            wall, cpu = time.perf_counter(), time.process_time()
            scene.render(layout, pieces, table, shot)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            if k == 0:
                first.append(wall)
            else:
                later_wall.append(wall)
                later_cpu.append(cpu)
                if shot.hand is not None:
                    hands_wall.append(wall)
    ms = lambda xs: round(1000 * statistics.median(xs), 1)  # noqa: E731 - a unit, not a function
    return {"size": f"{size[0]}x{size[1]}", "first_wall_ms": ms(first), "wall_ms": ms(later_wall),
            "cpu_ms": ms(later_cpu), "p90_wall_ms": round(1000 * sorted(later_wall)[int(0.9 * len(later_wall))], 1),
            "hand_wall_ms": ms(hands_wall) if hands_wall else None}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--shots", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for size in ((640, 480), (1280, 720), (1920, 1080)):
        print(measure(size, args.tables, args.shots, args.seed))


if __name__ == "__main__":
    main()
