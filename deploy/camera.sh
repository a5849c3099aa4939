# install.sh's part for the camera over the board (sourced, not run; docs/building.md, docs/camera.md):
#
#   [camera] source = "off"              nothing of this (the default)
#   source = "usb" | "pi"                the 'camera' extra (OpenCV, NumPy); the unit's drop-in that
#                                        lets it open the camera's devices, with the group video
#                                        (systemd/camera/<source>.conf as cantstop-box.service.d/camera.conf);
#                                        their kernel modules loaded at boot (install.sh's step 6)
#   source = "pi"                        also python3-picamera2 from apt (Raspberry Pi OS), and the
#                                        venv's NumPy kept at that package's own
#   source = "scene" | "folder"          the 'camera' extra only: no device is opened
#
# Needs what install.sh sets: SRC, PYTHON, REAL, DRY_RUN, R, DROPIN_DIR, CAMERA and CAMERA_DEVICE
# (its read_settings), and steps.sh's and platform.sh's functions.
# shellcheck shell=bash

# The camera extra's OpenCV (pyproject.toml's 'camera' extra; tests/systemd/test_deploy_camera.py).
OPENCV='opencv-python-headless>=4.8.0.74'

# The NumPy the system's python3 has (python3-picamera2's, on Raspberry Pi OS). SYSTEM_NUMPY stands
# in for the tests.
system_numpy() {
    if [ -n "${SYSTEM_NUMPY:-}" ]; then echo "$SYSTEM_NUMPY"; return 0; fi
    [ "$REAL" -eq 1 ] && "$PYTHON" -c 'import numpy; print(numpy.__version__)' 2>/dev/null
}

# The Pi camera's picamera2 and libcamera: Raspberry Pi OS's own packages (no wheel has them).
# camera_apt_question: the package to add to install.sh's one question to apt; camera_apt: where
# picamera2 comes from, after that question (the package goes on apt_wanted).
camera_apt_question() {
    if [ "$CAMERA" = pi ] && ! python_has picamera2; then echo python3-picamera2; fi
}
camera_apt() {
    [ "$CAMERA" = pi ] || return 0
    if python_has picamera2; then
        say "picamera2: already installed"
    elif apt_has python3-picamera2; then
        apt_wanted+=(python3-picamera2); say "picamera2: from the distribution (python3-picamera2), for the Pi camera"
    else
        note "[camera] source = \"pi\": $(os_name) has no python3-picamera2 (Raspberry Pi OS has it), so the Pi"
        note "  camera cannot be read here; a USB webcam can (source = \"usb\")."
    fi
}

# The 'camera' extra onto install.sh's extras, where PyPI has an OpenCV wheel for this Python and
# machine (64-bit Pis); with the Pi camera, held gets numpy==<the system's>: picamera2's compiled
# parts (simplejpeg) are built against that NumPy and break under another, so the venv keeps it and
# pip takes the newest OpenCV that runs on it.
camera_extra() {
    [ "$CAMERA" != off ] || return 0
    if ! wheel_exists "$OPENCV" opencv-python-headless; then
        note "[camera] source = \"$CAMERA\": no OpenCV wheel for this Python on $(uname -m) (PyPI has them for"
        note "  64-bit Pis only): installed without the camera, which says it is missing."
        return 0
    fi
    extras+=(camera)
    say "camera: [camera] source = \"$CAMERA\": OpenCV and NumPy (the 'camera' extra)"
    local numpy=
    if [ "$CAMERA" = pi ]; then numpy=$(system_numpy) || numpy=; fi
    if [ -n "$numpy" ]; then
        # shellcheck disable=SC2034  # read by install.sh
        held=("numpy==$numpy")
        say "camera: NumPy stays the system's $numpy (python3-picamera2's), with an OpenCV that runs on it"
    fi
}

# The unit's drop-in for a camera that opens a device; without one the unit's sandbox is its own.
camera_drop_in() {
    if [ "$CAMERA_DEVICE" -eq 1 ]; then
        file_step install -d -m 0755 "$DROPIN_DIR"
        file_step install -m 0644 "$SRC/systemd/camera/$CAMERA.conf" "$DROPIN_DIR/camera.conf"
        [ "$DRY_RUN" -eq 1 ] ||
            say "the box may open the camera's devices (${DROPIN_DIR#"$R"}/camera.conf: [camera] source = \"$CAMERA\")"
    elif [ -e "$DROPIN_DIR/camera.conf" ]; then
        file_step rm -f "$DROPIN_DIR/camera.conf"
        if [ "$DRY_RUN" -eq 0 ]; then rmdir "$DROPIN_DIR" 2>/dev/null || true; fi
        [ "$DRY_RUN" -eq 1 ] || say "the box opens no camera device any more ([camera] source = \"$CAMERA\")"
    fi
}

# The kernel modules whose devices the drop-in names, one a line: systemd turns
# DeviceAllow=char-video4linux (char-media) into device numbers when the unit starts, from
# /proc/devices, so they are loaded at boot before the box (modules-load.d) whenever the
# camera is plugged in. The DMA heaps are built into the Pi's kernel.
camera_modules() {
    case $CAMERA in
        usb) echo videodev ;;
        pi) printf '%s\n' videodev mc ;;
    esac
}
