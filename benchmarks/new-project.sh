#!/bin/bash
# Time from `vitrine new` to a running window whose page has loaded with its bridge up: a cold
# build (empty scratch folder) then a warm one (the same scratch folder, a fresh project).
#   bash benchmarks/new-project.sh [.build/debug/vitrine]
set -euo pipefail
V=$(realpath "${1:-.build/debug/vitrine}")
base=$(mktemp -d /tmp/vitrine-new-project-XXXX)
trap 'rm -rf "$base"' EXIT
for kind in cold warm; do
  rm -rf "$base/work"; mkdir -p "$base/work"; cd "$base/work"
  start=$(date +%s.%N)
  "$V" new Hello >/dev/null
  cd Hello
  swift build --scratch-path "$base/.build-scratch" \
    --pkg-config-path "$("$V" pkg-config-path --scratch-path "$base/.build-scratch")" >/dev/null 2>&1
  built=$(date +%s.%N)
  NO_AT_BRIDGE=1 xvfb-run -a -s "-screen 0 1280x1024x24" "$base/.build-scratch/debug/Hello" --exit-after-load
  end=$(date +%s.%N)
  printf '%s: new + swift build %.1f s, window loaded with its bridge at %.1f s (load average %s)\n' \
    "$kind" "$(echo "$built - $start" | bc)" "$(echo "$end - $start" | bc)" "$(cut -d' ' -f1 /proc/loadavg)"
done
