# Two commands for a newcomer: `make run` and `make test`. Both set up the
# virtual environment from nothing first.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test test-floors soak bench gallery golden wiring fonts messages clean setup pi-check

setup: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (set PYTHON=...)")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $@

# `make run SIZE=128x32` tries another panel size (as [display] size in the config).
run: $(STAMP)
	$(VENV)/bin/cantstop-box emulate $(if $(SIZE),--size $(SIZE))

test: $(STAMP)
	$(PY) -m pytest -q -m 'not slow'

# The same code against the lowest versions pyproject.toml allows: tools/floors.py turns each
# `>=X` of the dependencies and the test extra into `==X`, a venv of its own gets exactly those
# (binary wheels only, as deploy/install.sh: a floor that would need a compiler fails here), the
# project goes in with --no-deps, and the tests that touch Pillow, luma, gpiozero and Babel run.
# Run it with the oldest Python the box supports (3.11: Raspberry Pi OS bookworm's); newer ones
# have no wheels of the oldest Pillow. See docs/building.md, "Dependency floors".
FLOORS_VENV  ?= .venv-floors
FLOORS_PY    := $(FLOORS_VENV)/bin/python
FLOORS_STAMP := $(FLOORS_VENV)/.installed
FLOOR_TESTS  := tests/hw tests/screens tests/firmware/test_glass.py tests/firmware/test_daemon.py \
                tests/firmware/test_pager.py tests/firmware/test_selftest.py tests/firmware/test_i18n.py \
                tests/config/test_diagram.py tests/hostile/test_hostile_dice.py \
                tests/hostile/test_hostile_emulator.py tests/tools/test_floors.py hw tools/floors.py

$(FLOORS_STAMP): pyproject.toml tools/floors.py
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (set PYTHON=...)")'
	rm -rf $(FLOORS_VENV)
	$(PYTHON) -m venv $(FLOORS_VENV)
	$(PYTHON) tools/floors.py --extra test > $(FLOORS_VENV)/floors.txt
	$(FLOORS_PY) -m pip install --quiet --only-binary=:all: -r $(FLOORS_VENV)/floors.txt
	$(FLOORS_PY) -m pip install --quiet --no-deps -e .
	$(FLOORS_PY) -m pip check
	@touch $@

test-floors: $(FLOORS_STAMP)
	@echo "floors: $$(paste -sd' ' $(FLOORS_VENV)/floors.txt)"
	$(FLOORS_PY) -m pytest -q -m 'not slow' $(FLOOR_TESTS)

# The long runs: big property profiles (marked slow) and the crash test with 500 kills.
soak: $(STAMP)
	$(PY) -m pytest -q -m slow
	CRASH_KILLS=500 $(PY) -m pytest -q tests/firmware/test_crash.py
	$(PY) benchmarks/daemon_memory.py --games 2000
	$(PY) benchmarks/simulate_memory.py --games 20000

bench: $(STAMP)
	$(PY) benchmarks/engine.py
	$(PY) benchmarks/store.py
	$(PY) benchmarks/people.py
	$(PY) benchmarks/roster.py
	$(PY) benchmarks/box.py
	$(PY) benchmarks/startup.py
	$(PY) benchmarks/screens.py
	$(PY) benchmarks/fonts.py
	$(PY) benchmarks/players.py --quick
	$(PY) benchmarks/player_memory.py

# Install with deploy/install.sh in emulated Pi root file systems (Debian
# bookworm arm64 and armhf, trixie arm64, under qemu-user) and check the
# result; prints a table. Needs root and network; not part of `make test`.
# Roots are cached in /var/cache/cantstop-pi-check (PI_CHECK_CACHE to move it):
# measured 16.5 minutes cold, under 5 cached (4:43 from a fresh clone). See tools/pi_check.py.
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
pi-check: $(STAMP)
	$(SUDO) $(PY) tools/pi_check.py $(PI_CHECK_ARGS)

gallery: $(STAMP)
	$(PY) -m firmware.devtools.gallery docs/gallery

golden: $(STAMP)
	$(PY) -m firmware.devtools.gallery --golden tests/screens/golden

# Rebuild hw/fonts/galmuri*.glyphs from the pinned Galmuri release (needs npm;
# the built files are committed, so nothing else ever needs npm).
fonts: $(STAMP)
	$(PY) hw/fonts/build_galmuri.py

# Message catalogues: extract the marked sentences into firmware/locale/cantstop.pot,
# merge them into every <lang>/LC_MESSAGES/cantstop.po, compile each to its .mo
# (committed beside it). See docs/translating.md.
messages: $(STAMP)
	$(PY) -m firmware.devtools.catalogues

wiring: $(STAMP)
	$(PY) -m firmware.devtools.diagram docs/wiring.png

clean:
	rm -rf $(VENV) $(FLOORS_VENV) build *.egg-info
