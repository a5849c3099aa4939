# Two commands for a newcomer: `make run` and `make test`. Both set up the
# virtual environment from nothing first.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

# Bytecode caches on, even where the environment turns them off (PYTHONDONTWRITEBYTECODE, as on
# this machine): the suite starts many Python processes (two workers, the emulator, the web view,
# the commands), and without caches each compiles every module it imports again (collecting the
# tests alone: 17 s of CPU a worker, 6 s with caches). They are kept in the venv, not the tree.
export PYTHONDONTWRITEBYTECODE :=
export PYTHONPYCACHEPREFIX ?= $(abspath $(VENV))/pycache

.PHONY: run test test-tools test-phone test-floors setup-floors-deps soak bench camera-bench camera-heldout camera-black scale gallery web-gallery golden wiring markers fonts messages clean setup pi-check boot-check bundle release-key image image-dev image-check

setup: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (set PYTHON=...)")'
	@# uv installs the same packages as pip from the same index in a few seconds (pip: about 35 s here,
	@# most of the suite's set-up); where uv cannot be had, pip does it. The venv starts without pip
	@# (ensurepip's copy took 5 s of a 13 s set-up here): uv comes from the system's pip where it has
	@# one (pip --python), else from the venv's own, and uv puts pip in the venv with the rest.
	$(PYTHON) -m venv --without-pip $(VENV)
	{ $(PYTHON) -m pip --python $(PY) install --quiet --disable-pip-version-check 'uv>=0.4' 2>/dev/null || \
	  { $(PY) -m ensurepip --default-pip >/dev/null && \
	    $(PY) -m pip install --quiet --disable-pip-version-check 'uv>=0.4'; }; } && \
	  $(VENV)/bin/uv pip install --quiet --python $(PY) pip -e '.[test]' || \
	  { $(PY) -m ensurepip --default-pip >/dev/null; \
	    $(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'; }
	@touch $@

# `make run SIZE=128x32` tries another panel size (as [display] size in the config).
# `make run CAMERA=1` adds a camera over a drawn board that follows the game (emulate --camera):
# what it read beside the screen, x makes one mistake on the board or puts it right.
# `make run WEB=1` also serves the live web view of the same games at
# http://127.0.0.1:8080/ (PORT=... for another port; its log in $TMPDIR/cantstop-web.log),
# stopped when the emulator quits.
WEB_LOG = $${TMPDIR:-/tmp}/cantstop-web.log
run: $(STAMP)
ifneq ($(WEB),)
	@$(VENV)/bin/cantstop-box web --host 127.0.0.1 --port $(or $(PORT),8080) >$(WEB_LOG) 2>&1 & web=$$!; \
	trap 'kill $$web 2>/dev/null' EXIT INT TERM; \
	sleep 1; if ! kill -0 $$web 2>/dev/null; then cat $(WEB_LOG) >&2; exit 1; fi; \
	echo "web view: http://127.0.0.1:$(or $(PORT),8080)/ (open it in a browser; log: $(WEB_LOG))"; sleep 1; \
	$(VENV)/bin/cantstop-box emulate $(if $(SIZE),--size $(SIZE)) $(if $(CAMERA),--camera)
else
	$(VENV)/bin/cantstop-box emulate $(if $(SIZE),--size $(SIZE)) $(if $(CAMERA),--camera)
endif

# Four workers on two cores (pytest-xdist): much of the suite waits (a watchdog's interval, a browser,
# a box seat's turn), so two more workers fill the cores (on this 2-core machine, quiet: 3 workers
# 138 s, 4 workers 119 s, 5 workers 123 s); TEST_JOBS=1 runs in one process, TEST_ARGS adds pytest
# options.
# --dist worksteal: a worker that runs out takes tests from the other's queue, so one long test
# does not leave a core idle at the end.
TEST_JOBS ?= 4
TEST_DIST := --dist worksteal
# tests.kit.warm first: the bytecode caches filled once, a collecting process per core (from a fresh
# clone each worker would otherwise compile everything itself, all four at once).
test: $(STAMP) test-tools
	$(PY) -m tests.kit.warm
	$(PY) -m pytest -q -n $(TEST_JOBS) $(TEST_DIST) -m 'not slow and not emulator_browser' $(TEST_ARGS)

# What make test cannot fall back from: ssh-keygen, with which the updater checks a bundle's signature
# (tested for real). Installed when missing, as .ci/run installs the tools whose tests do fall back.
test-tools:
	@bash deploy/ci-deps.sh ssh-keygen=openssh-client

# The phone as the table's keyboard (docs/phone.md), whole: its HTTP attacks and the QR code read back
# (in make test too), and Chromium pairing, adding names and setting up a game beside the real emulator.
test-phone: $(STAMP)
	bash deploy/ci-deps.sh chromium=chromium chromedriver=chromium-driver zbarimg=zbar-tools
	$(PY) -m pytest -q tests/phone

# The same code against the lowest versions pyproject.toml allows: tools/floors.py turns each
# `>=X` of the dependencies and the test extra into `==X`, a venv of its own gets exactly those
# (binary wheels only, as deploy/install.sh: a floor that would need a compiler fails here), the
# project goes in with --no-deps, and the tests that touch Pillow, luma, gpiozero and Babel run,
# and the web view's own (Starlette, uvicorn: its server, its stop with pages open).
# Run it with the oldest Python the box supports (3.11: Raspberry Pi OS bookworm's); newer ones
# have no wheels of the oldest Pillow. See docs/building.md, "Dependency floors".
FLOORS_VENV  ?= .venv-floors
FLOORS_PY    := $(FLOORS_VENV)/bin/python
FLOORS_STAMP := $(FLOORS_VENV)/.installed
FLOOR_TESTS  := tests/hw tests/screens tests/daemon/test_glass.py tests/daemon/test_daemon.py \
                tests/daemon/test_pager.py tests/cli/test_selftest.py tests/words/test_i18n.py \
                tests/config/test_diagram.py tests/hostile/test_hostile_dice.py \
                tests/hostile/test_hostile_emulator.py tests/tools/test_floors.py hw tools/floors.py \
                tests/web/test_command.py tests/web/test_stop.py tests/web/test_http.py tests/web/test_limits.py

# Two steps: the floors themselves (FLOORS_DEPS: all download, no build in the tree; .ci/run starts
# it in the background while the main venv builds), then the project itself.
FLOORS_DEPS  := $(FLOORS_VENV)/.floors

$(FLOORS_DEPS): pyproject.toml tools/floors.py
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (set PYTHON=...)")'
	rm -rf $(FLOORS_VENV)
	$(PYTHON) -m venv $(FLOORS_VENV)
	$(PYTHON) -m tools.floors --extra test > $(FLOORS_VENV)/floors.txt
	$(FLOORS_PY) -m pip install --quiet --only-binary=:all: -r $(FLOORS_VENV)/floors.txt
	@touch $@

$(FLOORS_STAMP): $(FLOORS_DEPS)
	$(FLOORS_PY) -m pip install --quiet --no-deps -e .
	$(FLOORS_PY) -m pip check
	@touch $@

setup-floors-deps: $(FLOORS_DEPS)

test-floors: $(FLOORS_STAMP)
	@echo "floors: $$(paste -sd' ' $(FLOORS_VENV)/floors.txt)"
	$(FLOORS_PY) -m pytest -q -n $(TEST_JOBS) $(TEST_DIST) -m 'not slow' $(FLOOR_TESTS)

# The long runs: big property profiles (marked slow), the tests make test runs a share of (all of it under
# CANTSTOP_SOAK=1, tests/kit/examples.py: the files below) and the crash test with 500 kills.
SOAK_SHARES := tests/screens/test_fit_*.py tests/web/test_layout_browser.py tests/web/test_browser.py \
               tests/engine/test_engine_properties.py tests/screens/test_screens.py
soak: $(STAMP)
	$(PY) -m pytest -q -n $(TEST_JOBS) $(TEST_DIST) -m slow
	CANTSTOP_SOAK=1 $(PY) -m pytest -q -n $(TEST_JOBS) $(TEST_DIST) -m 'not slow' $(SOAK_SHARES)
	CRASH_KILLS=500 $(PY) -m pytest -q tests/daemon/test_crash.py
	$(PY) -m benchmarks.daemon_memory --games 2000
	$(PY) -m benchmarks.simulate_memory --games 20000

bench: $(STAMP)
	$(PY) -m benchmarks.engine_speed
	$(PY) -m benchmarks.store
	$(PY) -m benchmarks.people
	$(PY) -m benchmarks.roster
	$(PY) -m benchmarks.box
	$(PY) -m benchmarks.startup
	$(PY) -m benchmarks.screens
	$(PY) -m benchmarks.fonts
	$(PY) -m benchmarks.players --quick
	$(PY) -m benchmarks.player_memory
	$(PY) -m benchmarks.web
	$(PY) -m benchmarks.scale --quick

# The camera's rendered benchmark (issue 49): 500 boards from real played games, photographed
# virtually, each checked right and one space off; prints accuracy, false and missed mismatches,
# unsure spaces and the time and memory of one check (about 9 minutes on two cores), then one check without the
# renderer on the fixed photos (benchmarks/camera_check.py). Every rule of the reader was measured on
# these 500 boards (seed 49); `make camera-heldout` reads boards of other seeds, which the rules were not
# chosen on (docs/camera.md, *Boards the rules were not chosen on*).
camera-bench: $(STAMP)
	$(PY) -m benchmarks.camera --boards 500
	$(PY) -m benchmarks.camera_check

camera-heldout: $(STAMP)
	$(PY) -m benchmarks.camera --boards 300 --seed 50
	$(PY) -m benchmarks.camera --boards 200 --seed 51
	$(PY) -m benchmarks.camera --boards 300 --seed 52
	$(PY) -m benchmarks.camera --boards 300 --seed 54

# The same benchmark's first 250 boards with black runners (the config's [camera] runner = "black", for a
# board whose spaces are white or cream): the same boards, games and shots, only the runners' colour changed
# (about 6 minutes; docs/camera.md, *Black runners*).
camera-black: $(STAMP)
	$(PY) -m benchmarks.camera --boards 250 --runner black

# Every screen and command with 100, 1,000 and 10,000 games stored (issue 21), the
# stores built by the box's own writes and again by `cantstop-box import` of records.
# About 10 minutes here; prints a table per way of building.
scale: $(STAMP)
	$(PY) -m benchmarks.scale --fill writes
	$(PY) -m benchmarks.scale --fill import

# Install with deploy/install.sh in emulated Pi root file systems (Debian
# bookworm arm64 and armhf, trixie arm64, under qemu-user) and check the
# result; prints a table. Needs root and network; not part of `make test`.
# Roots are cached in /var/cache/cantstop-pi-check (PI_CHECK_CACHE to move it):
# measured 16.5 minutes cold, under 5 cached (4:43 from a fresh clone). See tools/picheck/.
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
pi-check: $(STAMP)
	$(SUDO) $(PY) -m tools.picheck $(PI_CHECK_ARGS)

# Boots Debian bookworm arm64 in qemu-system-aarch64 (TCG), installs the box as an owner
# would, reboots and checks it on a real kernel, GPIO simulator and I2C bus. Kernel, modules
# and disk are cached in /var/cache/cantstop-boot-check (BOOT_CHECK_CACHE to move it):
# root built in 7.6 min cold; a cached run took 8 min here (18 min on a busier machine).
# It installs Debian's packages for what it runs here when missing (qemu's ROMs, ipxe-qemu, included):
# `make boot-check BOOT_CHECK_ARGS=--packages` lists them and does nothing else.
# See tools/bootcheck/ and docs/building.md ("Booted in"), docs/verified.md (the last run).
boot-check: $(STAMP)
	$(SUDO) $(PY) -m tools.bootcheck $(BOOT_CHECK_ARGS)

# The SD card image an owner flashes (docs/image.md): build/image/cantstop-box-<version>-arm64.img.xz,
# its .bmap and .sha256, from Debian bookworm's packages and PyPI, the box installed by its own
# deploy/install.sh. Needs root and network. Stages cached in /var/cache/cantstop-image
# (IMAGE_CACHE to move it). It installs what it runs with apt; `$(PY) -m tools.image --packages` lists them.
image: $(STAMP) release-key
	$(SUDO) $(PY) -m tools.image --release-key $(RELEASE_KEY).pub $(IMAGE_ARGS)

# A developer's card: the same, compressed with zstd (.img.zst, seconds instead of xz's minute or more);
# image-check takes the newest of the two. Releases stay .img.xz, which Imager, Etcher and bmaptool read.
image-dev: $(STAMP) release-key
	$(SUDO) $(PY) -m tools.image --zstd --release-key $(RELEASE_KEY).pub $(IMAGE_ARGS)

# Boots that image (a copy, its own kernel, initramfs and partitions) in qemu-system-aarch64 with
# boot-check's simulated header and bus (its cache: BOOT_CHECK_CACHE) and checks it; prints a table.
# `$(PY) -m tools.image.check --packages` lists what it installs. IMAGE_CHECK_ARGS='--only wifi' (the Wi-Fi
# rows), '--only update' (the update rows), '--only tones --rolls 40 --busy 2' (the buzzer's soak, docs/image.md).
image-check: $(STAMP) release-key
	$(SUDO) $(PY) -m tools.image.check --release-key $(RELEASE_KEY) $(IMAGE_CHECK_ARGS)

gallery: $(STAMP)
	$(PY) -m firmware.devtools.gallery docs/gallery

# A release bundle for an offline update (docs/update.md): dist/cantstop-box-<version>.bundle, the
# project and every wheel it needs on a Pi (aarch64 and armhf, Python 3.11 and 3.13), downloaded
# with pip (binary wheels only; needs PyPI). On the box: sudo cantstop-box-update FILE.
# BUNDLE_ARGS='--arch aarch64 --python 3.11' makes a smaller one for one kind of Pi.
# Signed with the release key (RELEASE_KEY): a box takes only bundles of the key it trusts.
bundle: $(STAMP) release-key
	$(PY) deploy/makebundle.py --key $(RELEASE_KEY) --out $(or $(OUT),dist) $(BUNDLE_ARGS)

# The key that signs bundles (docs/update.md, "The release key"): made by the first make bundle or
# make image on this machine, kept as whoever runs make (root's, under sudo make); every card made
# here takes bundles signed by it. Needs ssh-keygen (installed when missing: openssh-client).
RELEASE_KEY ?= $(HOME)/.config/cantstop-box/release-key
release-key:
	@bash deploy/ci-deps.sh ssh-keygen=openssh-client
	@$(PYTHON) deploy/signing.py key $(RELEASE_KEY)

# Screenshots of the web view in headless Chromium (phone and TV, three languages) into docs/gallery/web.
# Installs what it draws with (Debian's chromium, its driver, the CJK fonts) when they are missing.
CJK_FONT := /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
web-gallery: $(STAMP)
	bash deploy/ci-deps.sh chromium=chromium chromedriver=chromium-driver $(CJK_FONT)=fonts-noto-cjk
	$(PY) -m tools.web_gallery docs/gallery/web

golden: $(STAMP)
	$(PY) -m firmware.devtools.gallery --golden tests/screens/golden
	$(PY) -m tests.web.test_sentences

# Rebuild hw/fonts/galmuri*.glyphs from the pinned Galmuri release (needs npm;
# the built files are committed, so nothing else ever needs npm).
fonts: $(STAMP)
	$(PY) -m hw.fonts.build_galmuri

# Message catalogues: extract the marked sentences into firmware/locale/cantstop.pot,
# merge them into every <lang>/LC_MESSAGES/cantstop.po, compile each to its .mo
# (committed beside it). See docs/translating.md.
messages: $(STAMP)
	$(PY) -m firmware.devtools.catalogues

wiring: $(STAMP)
	$(PY) -m firmware.devtools.diagram docs/wiring.png

# The camera's corner tags to print (docs/camera.md): build/markers/corner-tags.pdf and .png (A4, 300 dpi),
# corner-tags-letter.pdf and .png (US Letter). Print at 100%, no scaling.
markers: $(STAMP)
	$(PY) -m firmware.devtools.corner_tags build/markers

clean:
	rm -rf $(VENV) $(FLOORS_VENV) build *.egg-info
