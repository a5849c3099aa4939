"""One ``cantstop-box`` process measured whole: its wall time, processor time and peak memory.

Run as a script by path (``python -P tests/kit/peak.py WORDS...``, -P keeping its own folder off
the path, with $PEAK_TO set), it runs the command line of whichever checkout ``PYTHONPATH`` names,
then writes the process's own peak memory (VmHWM, of this program only: a child's ru_maxrss also
counts the pages of the parent it was forked from) to the file $PEAK_TO names. Being run by path,
it needs nothing of the checkout it measures, so the import benchmark's ``--code DIR`` can time an
older one.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

SCRIPT = Path(__file__).resolve()


@dataclass
class Measured:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    cpu_seconds: float
    peak_mb: float


def measure(code: Path, *words: str) -> Measured:
    """Run ``cantstop-box WORDS`` from the checkout ``code`` in a process of its own, and measure it."""
    with tempfile.TemporaryDirectory() as where:
        peak_to, out, err = Path(where) / "peak", Path(where) / "out", Path(where) / "err"
        env = dict(os.environ, PYTHONPATH=str(code), PEAK_TO=str(peak_to))
        t = time.perf_counter()
        with out.open("w") as o, err.open("w") as e:
            proc = subprocess.Popen([sys.executable, "-P", str(SCRIPT), *words], cwd=code, env=env, stdout=o, stderr=e)
            _, status, usage = os.wait4(proc.pid, 0)
        took = time.perf_counter() - t
        peak = int(peak_to.read_text()) / 1024 if peak_to.exists() else float("nan")
        return Measured(os.waitstatus_to_exitcode(status), out.read_text(), err.read_text(), took,
                        usage.ru_utime + usage.ru_stime, peak)


def _main() -> int:
    from boxcli.cli import main

    try:
        code = main(sys.argv[1:])
    finally:
        with open("/proc/self/status") as f:
            peak = next(line.split()[1] for line in f if line.startswith("VmHWM:"))
        with open(os.environ["PEAK_TO"], "w") as f:
            f.write(peak)
    return code


if __name__ == "__main__":
    sys.exit(_main())
