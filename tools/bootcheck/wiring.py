"""Where `make boot-check` wires the booted box: its buttons, lamps and buzzer on the
simulated header (line N of the GPIO simulator's chip is GPIO N).

The board (board.py) presses the buttons and reads the lamps; the steps wire the
lamps and the buzzer in the settings and check them (check_lamps.py,
check_selftest.py, check_steps.py). All take the lines from here, below them all:
this module imports nothing of the check.
"""

PINS = {"ROLL": 5, "STOP": 6, "A": 13, "B": 19, "C": 26, "MENU": 16}  # firmware/default_config.toml
# The lamps and the buzzer, wired where the default settings suggest (their commented-out lines):
# free lines of the simulated header, clear of the buttons (5 6 13 19 26 16) and of I2C1 (2, 3).
LAMPS = {"ROLL": 17, "STOP": 27, "A": 22, "B": 23, "C": 20, "MENU": 21}
BUZZER = 18
