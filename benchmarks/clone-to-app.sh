#!/bin/bash
# Time from `git clone` of Vitrine to an app of one's own showing its page: the README's path
# for app developers, in one go on an empty machine state (no build folder, no scratch folder):
# clone, `make install` (puts `vitrine` on the PATH), `vitrine new Hello`, its `make build`, then
# the program until its page has loaded with its bridge up (`--exit-after-load`).
#   bash benchmarks/clone-to-app.sh [REPOSITORY]      (default: this checkout)
set -euo pipefail
SRC=$(realpath "${1:-.}")
base=$(mktemp -d /tmp/vitrine-clone-to-app-XXXX)
trap 'rm -rf "$base"' EXIT
stamp() { echo "$(date +%s.%N)"; }
since() { echo "$1 - $start" | bc; }
start=$(stamp)
git clone -q "$SRC" "$base/vitrine"
make -C "$base/vitrine" --no-print-directory install PREFIX="$base/prefix" >"$base/install.log" 2>&1 \
  || { tail -30 "$base/install.log"; exit 1; }
installed=$(stamp)
export PATH="$base/prefix/bin:$PATH"
cd "$base" && vitrine new Hello >/dev/null && cd Hello
make build >"$base/app-build.log" 2>&1 || { tail -30 "$base/app-build.log"; exit 1; }
built=$(stamp)
NO_AT_BRIDGE=1 xvfb-run -a -s "-screen 0 1280x1024x24" .build/debug/Hello --exit-after-load
end=$(stamp)
printf 'clone + make install %.1f s, + new + make build %.1f s, own app loaded with its bridge at %.1f s (load average %s)\n' \
  "$(since "$installed")" "$(since "$built")" "$(since "$end")" "$(cut -d' ' -f1 /proc/loadavg)"
