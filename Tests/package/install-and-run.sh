#!/usr/bin/env bash
# Installs the built Debian package and checks the INSTALLED program works on its own:
# the package's file list, its metadata files, its shared libraries, `--version`, and a
# real run of /usr/bin/vitrine under Xvfb from outside the source tree (no
# VITRINE_RESOURCES), which must load the demo app from /usr/share/vitrine and write a
# screenshot with real content.
#
# Usage: Tests/package/install-and-run.sh [path/to/vitrine_VERSION_ARCH.deb]
#        (default: the newest out/vitrine_*.deb; `make test-deb` builds it first)
# Needs root (or sudo) for apt-get. The package stays installed afterwards.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo

deb=${1:-}
if [ -z "$deb" ]; then
    deb=$(ls -t "$repo"/out/vitrine_*.deb 2>/dev/null | head -n 1)
fi
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
    echo "FAIL: no package to install (run 'make deb' first, or pass the .deb)" >&2
    exit 1
fi
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")

passed=0; failed=0; skipped=0
pass() { passed=$((passed + 1)); echo "  ok    $*"; }
fail() { failed=$((failed + 1)); echo "  FAIL  $*"; }
skip() { skipped=$((skipped + 1)); echo "  skip  $*"; }
check() { # check DESCRIPTION COMMAND...: passes when the command succeeds
    local what=$1; shift
    local output
    if output=$("$@" 2>&1); then pass "$what"; else fail "$what"; printf '%s\n' "$output" | sed 's/^/        /'; fi
}

work=$(mktemp -d /tmp/vitrine-package-test.XXXXXX)
trap 'rm -rf "$work"' EXIT

# --- tools the checks use ------------------------------------------------------------
need=""
for p in xvfb xauth appstream desktop-file-utils strace; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || need="$need $p"
done
if [ -n "$need" ]; then
    echo "installing test tools:$need"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
fi
PYTHON=$(command -v python3 || echo /usr/bin/python3)

# --- install ---------------------------------------------------------------------------
echo "== install $(basename "$deb")"
# apt-get (not dpkg -i) so that the Depends computed by dh_shlibdeps are resolved;
# --reinstall so that a rebuilt package of the same version replaces the installed one.
if DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --reinstall "$deb" >"$work/apt.log" 2>&1; then
    pass "apt-get install $(basename "$deb")"
else
    fail "apt-get install $(basename "$deb")"; sed 's/^/        /' "$work/apt.log"
    echo "FAIL: the package did not install"; exit 1
fi
version=$(dpkg-query -W -f='${Version}' vitrine)
upstream=${version%-*}
echo "   installed vitrine $version ($(dpkg-query -W -f='${Installed-Size}' vitrine) KiB)"

# --- the files -------------------------------------------------------------------------
echo "== files"
dpkg -L vitrine >"$work/files"
for f in /usr/bin/vitrine \
         /usr/share/vitrine/demo/index.html \
         /usr/share/applications/org.vitrine.Vitrine.desktop \
         /usr/share/metainfo/org.vitrine.Vitrine.metainfo.xml \
         /usr/share/icons/hicolor/scalable/apps/org.vitrine.Vitrine.svg \
         /usr/share/man/man1/vitrine.1.gz \
         /usr/share/man/man5/vitrine.toml.5.gz \
         /lib/systemd/system/vitrine-kiosk.service \
         /usr/libexec/vitrine/kiosk-session \
         /etc/vitrine/kiosk.toml \
         /usr/share/doc/vitrine/copyright; do
    if grep -qx "$f" "$work/files" && [ -e "$f" ]; then pass "dpkg -L lists $f"; else fail "dpkg -L lists $f"; fi
done
# Every file of the source tree's Resources/ is installed under /usr/share/vitrine.
if [ -d "$repo/Resources" ]; then
    missing=$(cd "$repo/Resources" && find . -type f | sed 's|^\./|/usr/share/vitrine/|' | sort | comm -23 - <(sort "$work/files"))
    if [ -z "$missing" ]; then pass "all of Resources/ is installed in /usr/share/vitrine"
    else fail "Resources/ files missing from the package:"; printf '        %s\n' $missing; fi
fi
check "/etc/vitrine/kiosk.toml is a conffile" \
    sh -c "dpkg-query -W -f='\${Conffiles}' vitrine | grep -q ' /etc/vitrine/kiosk.toml '"
if [ ! -e /etc/systemd/system/graphical.target.wants/vitrine-kiosk.service ]; then
    pass "vitrine-kiosk.service is not enabled by the package"
else
    fail "vitrine-kiosk.service was enabled by the package"
fi
check "kiosk-session is a valid sh script" sh -n /usr/libexec/vitrine/kiosk-session

# --- metadata --------------------------------------------------------------------------
echo "== metadata"
check "appstreamcli validate --no-net org.vitrine.Vitrine.metainfo.xml" \
    appstreamcli validate --no-net /usr/share/metainfo/org.vitrine.Vitrine.metainfo.xml
check "desktop-file-validate org.vitrine.Vitrine.desktop" \
    desktop-file-validate /usr/share/applications/org.vitrine.Vitrine.desktop
if command -v man >/dev/null; then
    for page in man1/vitrine.1 man5/vitrine.toml.5; do
        check "man ${page#*/} renders without warnings" \
            sh -c 'out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "/usr/share/man/$1.gz" 2>&1 >/dev/null); [ -z "$out" ] || { echo "$out"; false; }' sh "$page"
    done
else
    skip "man vitrine (man-db not installed)"
fi
if command -v systemd-analyze >/dev/null; then
    check "systemd-analyze verify vitrine-kiosk.service" \
        systemd-analyze verify --man=no /lib/systemd/system/vitrine-kiosk.service
else
    skip "systemd-analyze verify (systemd not installed)"
fi

# --- the program -----------------------------------------------------------------------
echo "== program"
ldd /usr/bin/vitrine >"$work/ldd" 2>&1
if grep -q "not found" "$work/ldd"; then fail "ldd: every shared library found"; grep "not found" "$work/ldd" | sed 's/^/        /'
else pass "ldd: every shared library found"; fi
if grep -qE "/opt/swift|libswift|libFoundation|libdispatch" "$work/ldd"; then
    fail "no Swift toolchain library at run time"; grep -E "/opt/swift|libswift|libFoundation|libdispatch" "$work/ldd" | sed 's/^/        /'
else pass "no Swift toolchain library at run time (static Swift standard library)"; fi
got=$(/usr/bin/vitrine --version 2>&1)
if [ "$got" = "$upstream" ]; then pass "/usr/bin/vitrine --version prints $upstream"
else fail "/usr/bin/vitrine --version printed '$got', expected '$upstream'"; fi
# The kiosk conffile and the sample configurations must be accepted by the program.
if /usr/bin/vitrine --help 2>&1 | grep -q "check-config"; then
    for config in /etc/vitrine/kiosk.toml /usr/share/vitrine/configs/*.toml; do
        [ -f "$config" ] || continue
        check "vitrine check-config $config" sh -c "cd / && /usr/bin/vitrine check-config '$config'"
    done
else
    skip "vitrine check-config (this build has no check-config subcommand)"
fi

# The installed program, from / (outside the source tree), without VITRINE_RESOURCES:
# it must find the demo app in /usr/share/vitrine.
shot=$work/installed-demo.png
events=$work/events.jsonl
(
    cd / && env -u VITRINE_RESOURCES -u DISPLAY -u WAYLAND_DISPLAY NO_AT_BRIDGE=1 \
        xvfb-run -a -s "-screen 0 1280x1024x24" \
        /usr/bin/vitrine --exit-after-load --load-timeout 60 --screenshot "$shot" --events "$events"
) >"$work/run.log" 2>&1
status=$?
if [ "$status" = 0 ]; then pass "installed vitrine --exit-after-load --screenshot exits 0 (from /)"
else fail "installed vitrine --exit-after-load --screenshot exited $status"; sed 's/^/        /' "$work/run.log"; fi
# The bridge's JavaScript (ScriptBridge/SDKFile): read from /usr/share/vitrine/sdk, else logged.
if grep -q "JavaScript bridge file" "$work/run.log"; then
    fail "the installed program did not load its JavaScript SDK"; grep "JavaScript bridge file" "$work/run.log" | sed 's/^/        /'
else pass "the installed program loaded its JavaScript SDK (/usr/share/vitrine/sdk)"; fi
if grep -q '"event":"finished"' "$events" 2>/dev/null && grep '"event":"finished"' "$events" | grep -q 'app://demo/'; then
    pass "the demo app (app://demo/) finished loading"
else
    fail "no load-finished event for app://demo/ in --events"; sed 's/^/        /' "$events" 2>/dev/null
fi

# The PNG: present, not tiny, decodable, many colours (a blank or black window has one).
if [ -f "$shot" ]; then
    "$PYTHON" - "$shot" >"$work/png.txt" 2>&1 <<'PY'
import struct, sys, zlib
path = sys.argv[1]
data = open(path, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, ihdr = 8, b"", None
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    chunk = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        ihdr = struct.unpack(">IIBBBBB", chunk)
    elif kind == b"IDAT":
        idat += chunk
    pos += 12 + length
width, height, depth, colour, _, _, interlace = ihdr
assert depth == 8 and colour in (2, 6) and interlace == 0, f"unexpected PNG format {ihdr}"
bpp = 3 if colour == 2 else 4
stride = width * bpp
raw = zlib.decompress(idat)
previous = bytearray(stride)
colours = set()
for y in range(height):
    kind = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = previous[x]
        c = previous[x - bpp] if x >= bpp else 0
        if kind == 1: line[x] = (line[x] + a) & 255
        elif kind == 2: line[x] = (line[x] + b) & 255
        elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp * 2):  # every other pixel is plenty
        colours.add(bytes(line[x:x + 3]))
    previous = line
print(f"{width}x{height} {len(data)} bytes {len(colours)} colours")
PY
    size=$(stat -c %s "$shot")
    if [ "$size" -gt 10000 ]; then pass "screenshot is $size bytes (> 10000)"; else fail "screenshot is only $size bytes"; fi
    info=$(cat "$work/png.txt")
    colours=$(sed -n 's/.* \([0-9]*\) colours$/\1/p' "$work/png.txt")
    if [ -n "$colours" ] && [ "$colours" -ge 32 ]; then pass "screenshot has real content: $info"
    else fail "screenshot looks blank: $info"; fi
    cp "$shot" /tmp/vitrine-installed-demo.png 2>/dev/null && echo "   screenshot kept at /tmp/vitrine-installed-demo.png"
else
    fail "no screenshot written at $shot"
fi

# Which resources did it really use? The source-tree fallback must not be what made the
# run pass: trace the files the program opens and look for /usr/share/vitrine.
trace=$work/trace
if strace -o /dev/null true 2>/dev/null; then
    (
        cd / && env -u VITRINE_RESOURCES -u DISPLAY -u WAYLAND_DISPLAY NO_AT_BRIDGE=1 \
            xvfb-run -a -s "-screen 0 1280x1024x24" \
            strace -y -o "$trace" -e trace=openat,open /usr/bin/vitrine --exit-after-load --load-timeout 60
    ) >"$work/run2.log" 2>&1
    # app:// files are opened relative to their folder's descriptor (openat, no path
    # races): -y shows that descriptor's path.
    if grep -Eq '"/usr/share/vitrine/demo/index.html"|</usr/share/vitrine/demo>, "index.html"' "$trace"; then
        pass "the installed program served /usr/share/vitrine/demo/index.html"
    else
        fail "the installed program did not open /usr/share/vitrine/demo/index.html"
        grep -E 'Resources|vitrine' "$trace" | head -n 10 | sed 's/^/        /'
    fi
    if grep -E '"[^"]*/Resources/demo/' "$trace" | grep -v '^.*"/usr/share/' >/dev/null; then
        fail "the installed program read the source tree's Resources/"
    else
        pass "the installed program read nothing from a source tree's Resources/"
    fi
else
    skip "resource trace (strace cannot trace here)"
fi

echo
echo "$passed passed, $failed failed, $skipped skipped"
if [ "$failed" -eq 0 ]; then
    echo "PASS: the installed vitrine package works (left installed: apt-get remove vitrine to remove it)"
    exit 0
fi
echo "FAIL: $failed package check(s) failed"
exit 1
