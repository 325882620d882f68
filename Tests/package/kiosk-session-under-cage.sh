#!/usr/bin/env bash
# Runs the shipped kiosk session — packaging/kiosk/kiosk-session, the script that
# vitrine-kiosk.service runs — for real: as an unprivileged user, under cage on wlroots'
# headless backend, with the shipped packaging/kiosk/kiosk.toml whose start-url is
# pointed at a page served on loopback. Checks that a grim screenshot of the output shows
# the page (fullscreen) and that its web process runs under bubblewrap, then that SIGTERM to the program ends the session cleanly
# (exit status 0, no process of the user left), and so does the unit's stop
# (`kiosk-session --stop CAGE_PID`, its ExecStop=), without cage aborting.
#
# Usage: Tests/package/kiosk-session-under-cage.sh [PROGRAM]
#        (default: .build/debug/vitrine; `make test-kiosk-session` builds it and installs
#        cage, grim, Xwayland and D-Bus first)
# Needs root: it creates the user vitrine-kiosk-test (cage refuses to run as root) and
# runs the session as that user. The user stays; everything else is removed afterwards.
# KIOSK_TEST_TIMEOUT: the overall time limit in seconds for each wait (default 120).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
program=${1:-$repo/.build/debug/vitrine}
user=vitrine-kiosk-test
limit=${KIOSK_TEST_TIMEOUT:-120}
# The page's colour: a solid block over the whole page, looked for in the screenshot.
colour="18 171 99"

passed=0; failed=0
pass() { passed=$((passed + 1)); echo "  ok      $*"; }
fail() { failed=$((failed + 1)); echo "  not ok  $*"; }
finish() {
    echo
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] && exit 0
    exit 1
}
abort() { fail "$*"; finish; }

[ "$(id -u)" = 0 ] || { echo "kiosk-session-under-cage: needs root (useradd, setpriv)" >&2; exit 1; }
for tool in cage grim dbus-run-session setpriv setsid useradd python3; do
    command -v "$tool" >/dev/null || { echo "kiosk-session-under-cage: $tool is missing (make test-kiosk-session installs it)" >&2; exit 1; }
done
[ -x "$program" ] || { echo "kiosk-session-under-cage: no program at $program (run swift build)" >&2; exit 1; }

work=$(mktemp -d /tmp/vitrine-kiosk-session.XXXXXX)
chmod 755 "$work"
server=""; session=""; sid=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null
    if [ -n "$sid" ] && pgrep -s "$sid" >/dev/null; then kill -KILL -- "-$sid" 2>/dev/null; fi
    [ -n "$session" ] && { kill -KILL "$session" 2>/dev/null; wait "$session" 2>/dev/null; }
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_for SECONDS COMMAND...: runs the command every 0.2 s until it succeeds, or fails
# once SECONDS have passed.
wait_for() {
    local deadline=$((SECONDS + $1)); shift
    until "$@"; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.2
    done
}

# as_user COMMAND...: runs the command as the test user with a clean environment.
as_user_command=(setpriv --reuid="$user" --regid="$user" --init-groups
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$work/home"
    XDG_RUNTIME_DIR="$work/run" LANG=C.UTF-8)
as_user() { "${as_user_command[@]}" "$@"; }

# --- the user and the files it reads ---------------------------------------------------
echo "== set-up"
if ! id -u "$user" >/dev/null 2>&1; then
    useradd --system --user-group --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin "$user" || abort "useradd $user"
fi
if pgrep -u "$user" >/dev/null; then
    abort "processes of $user left from an earlier run: $(pgrep -u "$user" -l | tr '\n' ' ')"
fi
# The installed layout, in a folder the user can read: <prefix>/bin/vitrine finds its
# resources in <prefix>/share/vitrine, as /usr/bin/vitrine finds /usr/share/vitrine.
prefix=$work/prefix
mkdir -p "$prefix/bin" "$prefix/share" "$prefix/libexec/vitrine" "$work/site"
cp "$program" "$prefix/bin/vitrine"
cp -r "$repo/Resources" "$prefix/share/vitrine"
install -m 755 "$repo/packaging/kiosk/kiosk-session" "$prefix/libexec/vitrine/kiosk-session"
chmod -R a+rX "$prefix"
install -d -m 700 -o "$user" -g "$user" "$work/home" "$work/run" "$work/shots"
install -m 600 -o "$user" -g "$user" /dev/null "$work/home/secret.txt"
if out=$(cd "$work" && as_user "$prefix/bin/vitrine" --version 2>&1); then
    pass "the program runs as $user: $out"
else
    abort "the program does not run as $user: $out"
fi

# The page: one solid colour over the whole page; once it has been painted, it fetches
# /painted from the server, so the server's log says when to look.
read -r red green blue <<<"$colour"
cat >"$work/site/index.html" <<EOF
<!doctype html>
<html><head><meta charset="utf-8"><title>Vitrine kiosk session test</title>
<style>html, body { margin: 0; height: 100%; background: rgb($red, $green, $blue); }
h1 { margin: 0; padding: 40px; font: bold 40px sans-serif; color: white; }</style></head>
<body><h1>Vitrine kiosk session</h1>
<script>addEventListener("load", () =>
    requestAnimationFrame(() => requestAnimationFrame(() => fetch("/painted"))));</script>
</body></html>
EOF
echo painted >"$work/site/painted"
chmod -R a+rX "$work/site"

python3 -u -m http.server --bind 127.0.0.1 --directory "$work/site" 0 \
    >"$work/server.out" 2>"$work/server.log" &
server=$!
port_known() { grep -qs ' port [0-9]*' "$work/server.out"; }
wait_for 20 port_known || abort "the loopback page server did not start: $(cat "$work/server.log")"
port=$(sed -n 's/.* port \([0-9]*\).*/\1/p' "$work/server.out" | head -n 1)
url="http://127.0.0.1:$port/"

# The shipped kiosk.toml, with only its start-url changed.
sed "s|^start-url = .*|start-url = \"$url\"|" "$repo/packaging/kiosk/kiosk.toml" >"$work/kiosk.toml"
chmod 644 "$work/kiosk.toml"
if grep -qx "start-url = \"$url\"" "$work/kiosk.toml" && grep -qx 'preset = "kiosk"' "$work/kiosk.toml"; then
    pass "kiosk.toml: the shipped one with start-url = $url"
else
    abort "kiosk.toml: start-url not replaced"
fi

# --- the session -------------------------------------------------------------------------
# run_session CONFIG CAGE_OPTIONS SIZE STOP: the session with CONFIG, whose screenshot must
# be SIZE (WIDTHxHEIGHT) and show the page; then STOP must end it cleanly: `program` (SIGTERM
# to vitrine) or `unit` (what vitrine-kiosk.service's ExecStop= runs).
run_session() {
local config=$1 cage_options=$2 size=$3 stop=$4
echo "== session: $(basename "$config"), cage $cage_options, expecting $size"
# As the unit runs it (kiosk-session CONFIG), with wlroots' headless backend instead of
# tty1 and a session bus of its own (without one cage's Xwayland is started for D-Bus).
started=$SECONDS
paints_before=$(grep -cs '"GET /painted ' "$work/server.log")
(
    cd "$work" && exec setsid -w "${as_user_command[@]}" \
        WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
        VITRINE_CAGE_OPTIONS="$cage_options" VITRINE_PROGRAM="$prefix/bin/vitrine" \
        dbus-run-session -- "$prefix/libexec/vitrine/kiosk-session" "$config"
) >"$work/session.log" 2>&1 &
session=$!
session_log() { sed 's/^/        /' "$work/session.log" | tail -n 30; }

# The session's processes share a session id (setsid): the session's leader, $session or,
# when setsid had to fork, its child.
session_known() {
    sid=$(ps -o sid= -p "$session" 2>/dev/null | tr -d ' ')
    [ "$sid" = "$session" ] || sid=$(pgrep -P "$session" | head -n 1)
    [ -n "$sid" ]
}
wait_for 10 session_known || sid=""
program_pid() { pgrep -u "$user" -x vitrine | head -n 1; }
running() { kill -0 "$session" 2>/dev/null; }

socket_ready() { [ -S "$work/run/wayland-0" ] || ! running; }
if wait_for "$limit" socket_ready && running; then
    pass "cage is up: $work/run/wayland-0 ($((SECONDS - started)) s)"
else
    fail "cage did not start"; session_log; return
fi
painted() { [ "$(grep -cs '"GET /painted ' "$work/server.log")" -gt "$paints_before" ] || ! running; }
if wait_for "$limit" painted && running; then
    pass "vitrine loaded and painted $url ($((SECONDS - started)) s)"
else
    fail "the page was not loaded and painted within $limit s"; session_log; return
fi
pid=$(program_pid)
if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "--config $config"; then
    pass "cage runs $(tr '\0' ' ' <"/proc/$pid/cmdline")as $user"
else
    fail "no vitrine --config $config process of $user"
fi

# --- the sandbox -------------------------------------------------------------------------
# The page's web process, seen from outside: bwrap among its ancestors below vitrine, a
# mount namespace of its own, a seccomp filter (mode 2), and no view of the user's home.
sandbox_report() {
    local vitrine=$1 web chain parent
    web=$(pgrep -u "$user" -x WebKitWebProces | head -n 1)
    [ -n "$web" ] || { echo "no web process"; return 1; }
    chain=""; parent=$web
    while parent=$(awk '/^PPid:/ { print $2 }' "/proc/$parent/status" 2>/dev/null) && [ -n "$parent" ] \
        && [ "$parent" != "$vitrine" ] && [ "$parent" -gt 1 ]; do
        chain="$chain $(cat "/proc/$parent/comm")"
    done
    echo "web process $web, ancestors up to vitrine:$chain, $(grep '^Seccomp:' "/proc/$web/status" | tr -s '\t ' ' ')"
    [ "$parent" = "$vitrine" ] && [[ " $chain " == *" bwrap "* ]] \
        && [ "$(readlink "/proc/$web/ns/mnt")" != "$(readlink "/proc/$vitrine/ns/mnt")" ] \
        && grep -qx $'Seccomp:\t2' "/proc/$web/status" \
        && [ -e "$work/home/secret.txt" ] && [ ! -e "/proc/$web/root$work/home/secret.txt" ]
}
if report=$(sandbox_report "$(program_pid)"); then
    pass "sandboxed: $report, $work/home/secret.txt not in its file system"
else
    fail "the web process is not sandboxed: $report"
fi

# --- the screenshot --------------------------------------------------------------------
# shows_page: a grim screenshot (PPM) of which at least 90 % of the pixels have the
# page's colour (within 8 per channel): the page is shown, fullscreen.
check_ppm() {
    python3 - "$1" "$colour" "$2" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
want = [int(v) for v in sys.argv[2].split()]
parts = data.split(maxsplit=4)
if parts[0] != b"P6" or parts[3] != b"255":
    sys.exit("not an 8-bit P6 PPM")
width, height = int(parts[1]), int(parts[2])
pixels = parts[4][:width * height * 3]
rows = [pixels[i:i + 3] for i in range(0, len(pixels), 3)]
close = sum(1 for p in rows if all(abs(p[c] - want[c]) <= 8 for c in range(3)))
share = close / max(1, width * height)
print(f"{width}x{height}, {share:.1%} of the pixels rgb({', '.join(map(str, want))})")
sys.exit(0 if share >= 0.9 and f"{width}x{height}" == sys.argv[3] else 1)
EOF
}
shot=$work/shots/shot.ppm
shows_page() {
    as_user env WAYLAND_DISPLAY=wayland-0 grim -t ppm "$shot" >"$work/grim.log" 2>&1 &&
        check=$(check_ppm "$shot" "$size" 2>&1)
}
if wait_for "$limit" shows_page; then
    pass "grim: the screenshot shows the page: $check ($((SECONDS - started)) s)"
else
    fail "grim: the screenshot does not show the page: ${check:-$(cat "$work/grim.log")}"
    mkdir -p "$repo/out" && cp "$shot" "$repo/out/kiosk-session-under-cage.ppm" 2>/dev/null &&
        echo "        screenshot kept at out/kiosk-session-under-cage.ppm"
    session_log
fi

# --- the remote view ---------------------------------------------------------------------
# With [remote.vnc], Vitrine's wayvnc serves the output on loopback: a real RFB client
# reads the page's colour at the output's centre.
if [ -n "${vnc_port:-}" ] && grep -q '^\[remote.vnc\]' "$config"; then
    width=${size%x*}; height=${size#*x}
    vnc_pixel() {
        seen=$(python3 "$repo/Tests/VitrineGTKTests/Support/rfb_pixel.py" 127.0.0.1 "$vnc_port" \
            $((width / 2)) $((height / 2)) 2>&1) &&
            python3 -c 'import sys; want = [int(v) for v in sys.argv[2].split()]; got = bytes.fromhex(sys.argv[1][1:])
sys.exit(0 if all(abs(a - b) <= 8 for a, b in zip(got, want)) else 1)' "$seen" "$colour"
    }
    if wait_for 30 vnc_pixel; then
        pass "wayvnc: a VNC client sees the page at the centre: $seen"
    else
        fail "wayvnc: no page through VNC on 127.0.0.1:$vnc_port: ${seen:-}"; session_log
    fi
    # Every listening socket the wayvnc process holds, on any port and either IP version:
    # its socket inodes (/proc/PID/fd) in the LISTEN rows (0A) of /proc/PID/net/tcp{,6}.
    wayvnc=$(pgrep -u "$user" -x wayvnc | head -n 1)
    listening=$(ss -Hltnp | awk '/"wayvnc"/ { print $4 }' | tr '\n' ' ')
    held=""
    if [ -n "$wayvnc" ]; then
        inodes=$(find "/proc/$wayvnc/fd" -type l -lname 'socket:*' -printf '%l\n' 2>/dev/null | tr -dc '0-9\n')
        held=$(awk 'NR == FNR { mine[$1] = 1; next } FNR > 1 && $4 == "0A" && ($10 in mine) { print $2 }' \
            <(echo "$inodes") "/proc/$wayvnc/net/tcp" "/proc/$wayvnc/net/tcp6" | tr '\n' ' ')
    fi
    want=$(printf '0100007F:%04X ' "$vnc_port")
    if [ "$listening" = "127.0.0.1:$vnc_port " ] && [ "$held" = "$want" ]; then
        pass "wayvnc (pid $wayvnc) listens on 127.0.0.1:$vnc_port only (ss -ltnp; /proc: $held)"
    else
        fail "wayvnc (pid ${wayvnc:-none}) listens on: ${listening:-nothing} (/proc: ${held:-nothing})"
    fi
    # Vitrine's own start-time check read the same sockets and accepted them.
    checked() { grep -q "remote view: wayvnc listens on 127.0.0.1:$vnc_port only" "$work/session.log"; }
    if wait_for 15 checked; then
        pass "vitrine checked wayvnc's sockets: listens on 127.0.0.1:$vnc_port only"
    else
        fail "no start-time check of wayvnc's sockets in the session log"; session_log
    fi
fi

# --- SIGTERM ---------------------------------------------------------------------------
echo "== stop"
# Stop the program, not cage: cage exits 0 when its program has exited (signalled together,
# cage aborts on an assertion).
if [ "$stop" = unit ]; then
    cage_pid=$(pgrep -u "$user" -x cage | head -n 1)
    if [ -n "$cage_pid" ] && as_user "$prefix/libexec/vitrine/kiosk-session" --stop "$cage_pid"; then
        pass "the unit's stop: kiosk-session --stop $cage_pid"
    else
        fail "kiosk-session --stop ${cage_pid:-(no cage process)} failed"
    fi
else
    pid=$(program_pid)
    if [ -n "$pid" ] && kill -TERM "$pid"; then
        pass "SIGTERM to vitrine (pid $pid)"
    else
        fail "no vitrine process of $user to send SIGTERM to"
    fi
fi
stopped=$SECONDS
ended() { ! running; }
if wait_for 30 ended; then
    wait "$session"; status=$?; session=""
    if [ "$status" = 0 ] && ! grep -q "Assertion" "$work/session.log"; then
        pass "the session ended with status 0 ($((SECONDS - stopped)) s after the stop)"
    else
        fail "the session ended with status $status"; session_log
    fi
else
    fail "the session was still running 30 s after the stop"; session_log
fi
no_leftovers() { ! pgrep -u "$user" >/dev/null; }
if wait_for 10 no_leftovers; then
    pass "no process of $user left"
else
    fail "processes of $user left: $(pgrep -u "$user" -l | tr '\n' ' ')"
    pkill -KILL -u "$user"
fi
}

# The shipped kiosk.toml (rotation 0), the output rotated by 180° through
# VITRINE_CAGE_OPTIONS so that grim sees the live page (see DESIGN.md): 1280x720.
run_session "$work/kiosk.toml" "-d -r -r" 1280x720 program
# [kiosk] rotation = 90: the script adds cage's -r, the output becomes portrait; with
# [remote.vnc], the wayvnc Vitrine starts shows it to a VNC client (and ends with the session).
rotated=$work/kiosk-rotated.toml
vnc_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
{ cat "$work/kiosk.toml"; printf '\n[kiosk]\nrotation = 90\n[remote.vnc]\nlisten = "127.0.0.1:%s"\n' "$vnc_port"; } >"$rotated"
chmod 644 "$rotated"
run_session "$rotated" "-d" 720x1280 unit
finish
