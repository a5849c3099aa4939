# install.sh's part in the releases layout (sourced, not run; docs/update.md):
#
#   $OPT/releases/<version>/{src,venv,.complete}   each version in its own place
#   $OPT/current -> releases/<version>              the one the units run
#   $OPT/venv -> current/venv                       where older installs (and the docs) had it
#   $OPT/updater/                                   deploy/update.py and its parts, run by the system's
#                                                   python3 (sudo cantstop-box-update, and at boot)
#
# Needs what install.sh sets: OPT, R, NAME, SRC, PYTHON, DRY_RUN, REAL and steps.sh's file_step.
# shellcheck shell=bash

UPDATER_FILES=(update.py releases.py switching.py system.py storeops.py bundle.py signing.py wanted.py)
RECOVER_UNIT=$NAME-update-recover

# The version this checkout installs (pyproject.toml's).
release_version() {
    sed -n 's/^version *= *"\([0-9.]*\)".*/\1/p' "$SRC/pyproject.toml" | head -1
}

# An older install's venv was $OPT/venv itself: it goes once the new one is current.
old_layout_venv() {
    [ -d "$OPT/venv" ] && [ ! -L "$OPT/venv" ]
}

# The checkout's files beside the venv (the updater, the units, the docs of that version).
release_files() {
    local place=$1
    [ "$REAL" -eq 1 ] || return 0  # --root (the tests): no venv either
    file_step install -d -m 0755 "$place/src"
    if [ "$DRY_RUN" -eq 0 ]; then
        tar -C "$SRC" --exclude=./.venv --exclude=./.git --exclude=./build --exclude='*.egg-info' \
            --exclude=./dist -cf - . | tar -C "$place/src" -xf -
    fi
}

# Mark the release whole and make it current: one rename(2) of a new symlink over the old.
make_current() {
    local version=$1
    if [ "$DRY_RUN" -eq 1 ]; then
        say "would make $OPT/current point at releases/$version"
        return 0
    fi
    sync
    mkdir -p "$OPT/releases/$version"
    printf '%s\n' "$version" > "$OPT/releases/$version/.complete"
    ln -sfn "releases/$version" "$OPT/.current.new"
    mv -T "$OPT/.current.new" "$OPT/current"
    if old_layout_venv; then rm -rf "$OPT/venv"; fi
    ln -sfn current/venv "$OPT/.venv.new" && mv -T "$OPT/.venv.new" "$OPT/venv"
    # The updater's state: this version is the good one (a checkout's install is no trial).
    local previous=null
    if [ -n "${OLD_CURRENT:-}" ] && [ "$OLD_CURRENT" != "$version" ] && [ -e "$OPT/releases/$OLD_CURRENT/.complete" ]; then
        previous="\"$OLD_CURRENT\""
    fi
    printf '{"phase": "idle", "good": "%s", "previous": %s}\n' "$version" "$previous" > "$OPT/.update-state.json.new"
    mv -T "$OPT/.update-state.json.new" "$OPT/update-state.json"
}

# The updater where the system's python3 runs it, its command on root's PATH, and its
# boot-time step (finish or undo a half-done switch before the box starts).
install_updater() {
    local file
    file_step install -d -m 0755 "$OPT/updater"
    for file in "${UPDATER_FILES[@]}"; do
        file_step install -m 0644 "$SRC/deploy/$file" "$OPT/updater/$file"
    done
    file_step chmod 0755 "$OPT/updater/update.py"
    file_step install -d -m 0755 "$R/usr/local/sbin"
    file_step ln -sfn "/opt/$NAME/updater/update.py" "$R/usr/local/sbin/$NAME-update"
    file_step install -d -m 0755 "$UNIT_DIR"
    file_step install -m 0644 "$SRC/systemd/$RECOVER_UNIT.service" "$UNIT_DIR/$RECOVER_UNIT.service"
}

# The release keys the updater takes bundles from ($OPT/release-keys, deploy/signing.py): the key
# of --trust KEY.pub alone, else the ones trusted before; with none, updates are refused (said once).
trust_release_key() {
    local keys=$OPT/release-keys
    if [ -n "${TRUST:-}" ]; then
        if [ "$DRY_RUN" -eq 1 ]; then
            say "would take update bundles signed by the key in $TRUST only ($keys)"
        else
            local said
            said=$("$PYTHON" "$SRC/deploy/signing.py" trust "$TRUST" "$keys") || fail "--trust: see the line above"
            say "$said"
        fi
    elif [ -e "$keys" ]; then
        say "kept the release keys update bundles are checked against ($keys)"
    else
        say "update bundles: none taken until this box trusts a release key (sudo deploy/install.sh --trust KEY.pub; docs/update.md)"
    fi
}
