"""The live roster and names: what watching for a roster change costs the box's loop, what a change costs.

Timed, beside a box holding the store (its lock, its connection):

- *data_version*: the loop's check once a second (``PRAGMA data_version``), per call;
- *roster read*: reading and parsing the roster fact, done only when the check moved;
- *players add*: one ``cantstop-box players add`` change beside the running box (the shared
  transaction: open, read, write, commit, close), median;
- *name check*: judging one name (normalised, drawable by the fonts), first call (fonts loaded) and later.

Run: ``.venv/bin/python -m benchmarks.roster [--names N]``.
"""

import argparse
import statistics
import tempfile
import time

from firmware.store import Store
from firmware.store.shared import update_fact
from firmware.table import roster as R


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", type=int, default=40, help="people on the roster (default 40)")
    args = parser.parse_args()
    t0 = time.perf_counter()
    from firmware.table.names import name_problem
    name_problem("김민준")
    first_check = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(1000):
        name_problem("Zoë Müller")
    later_check = (time.perf_counter() - t0) / 1000
    with tempfile.TemporaryDirectory() as tmp:
        box = Store.open(tmp)
        try:
            for i in range(args.names):
                update_fact(tmp, R.ROSTER_KEY, lambda raw, i=i: R.add(R.from_fact(raw, ()), f"P{i}").to_json())
            t0 = time.perf_counter()
            for _ in range(10000):
                box.data_version()
            version = (time.perf_counter() - t0) / 10000
            t0 = time.perf_counter()
            for _ in range(200):
                R.load(box, ())
            read = (time.perf_counter() - t0) / 200
            adds = []
            for k in range(20):
                t0 = time.perf_counter()
                update_fact(tmp, R.ROSTER_KEY, lambda raw, k=k: R.add(R.from_fact(raw, ()), f"New{k}").to_json()
                            if k % 2 == 0 else R.remove(R.from_fact(raw, ()), f"New{k - 1}").to_json())
                adds.append(time.perf_counter() - t0)
        finally:
            box.close()
    print(f"roster of {args.names} people, beside a running box")
    print(f"  data_version check   {_ms(version)}  (once a second on the loop)")
    print(f"  roster read          {_ms(read)}  (only when the check moved)")
    print(f"  players add/remove   {_ms(statistics.median(adds))}  median of 20 (max {_ms(max(adds)).strip()})")
    print(f"  name check, first    {_ms(first_check)}  (loads the fonts' character sets)")
    print(f"  name check, later    {_ms(later_check)}")


if __name__ == "__main__":
    main()
