# Shared by install.sh and uninstall.sh (sourced, not run): how a step is
# carried out or only shown. Needs DRY_RUN (1 = print only), REAL (1 = the
# real system, not a --root tree) and R (the root prefix, "" for /).
# shellcheck shell=bash

say() { printf '%s\n' "$*"; }
show() { printf '%q ' "$@" | sed 's/ $//'; }

# A change to files under ROOT: done unless --dry-run.
file_step() {
    if [ "$DRY_RUN" -eq 1 ]; then say "would run: $(show "$@")"; else "$@"; fi
}
# A change to the running system: done only for real (ROOT=/ and no --dry-run).
system_step() {
    if [ "$DRY_RUN" -eq 1 ] || [ "$REAL" -eq 0 ]; then say "would run: $(show "$@")"; else "$@"; fi
}

user_exists() {
    if [ "$REAL" -eq 1 ]; then getent passwd "$1" >/dev/null; else grep -q "^$1:" "$R/etc/passwd" 2>/dev/null; fi
}
# A system step whose chatter (apt, dpkg) goes to a log shown only if it fails.
quiet_system_step() {
    if [ "$DRY_RUN" -eq 1 ] || [ "$REAL" -eq 0 ]; then say "would run: $(show "$@")"; return 0; fi
    local log status=0
    log=$(mktemp)
    "$@" >"$log" 2>&1 || status=$?
    [ "$status" -eq 0 ] || cat "$log" >&2
    rm -f "$log"
    return "$status"
}

# Stop and remove a unit this box installed (UNIT_DIR/$1.service): disabled (and stopped)
# by a running systemd, else offline, its .wants links and the unit file taken away.
remove_unit() {
    local unit=$1 link
    if systemd_running; then
        system_step systemctl disable --now "$unit.service" || true
    elif command -v systemctl >/dev/null 2>&1; then
        file_step systemctl --root="${R:-/}" --quiet disable "$unit.service" || true
    fi
    for link in "$UNIT_DIR"/*.wants/"$unit.service"; do
        if [ -L "$link" ]; then file_step rm -f "$link"; fi
    done
    file_step rm -f "$UNIT_DIR/$unit.service"
}
