#!/usr/bin/env bash
# Two lanes of `make test` at once, so that both cores work: `alongside.sh NAME:TARGET --
# NAME:TARGET…` runs the first stage (`make TARGET`, timed by Tests/stage.sh) in the
# background at low CPU priority, its output into .build/test-logs/NAME.log, while the
# stages after `--` run one after another in the foreground, their output on the terminal.
# The background lane is the compile-heavy one (app builds); the foreground one mostly waits
# on WebKit and Xvfb, and `nice` keeps the compiler from slowing what it waits for.
# When both lanes have ended, the background stage's log is printed, and the last lines say
# which stages failed (each with its failures, from Tests/with-failure-summary.sh).
set -u
cd "$(dirname "$0")/.."
make_command=${MAKE:-make}
background=$1; shift
[ "${1:-}" = "--" ] || { echo "usage: alongside.sh NAME:TARGET -- NAME:TARGET…" >&2; exit 64; }
shift
mkdir -p .build/test-logs
background_name=${background%%:*}
background_log=.build/test-logs/$background_name.log
echo "stage $background_name runs alongside, its output in $background_log (printed when it ends)"
nice -n 10 bash Tests/stage.sh "$background_name" $make_command --no-print-directory "${background#*:}" \
  > "$background_log" 2>&1 < /dev/null &
background_pid=$!

failed=()
foreground_log=""
for stage in "$@"; do
  name=${stage%%:*}
  foreground_log=.build/test-logs/$name.log
  bash Tests/stage.sh "$name" $make_command --no-print-directory "${stage#*:}" 2>&1 | tee "$foreground_log"
  if [ "${PIPESTATUS[0]}" -ne 0 ]; then failed+=("$name"); break; fi
done

wait "$background_pid"
background_status=$?
echo "=== stage $background_name (ran alongside; $background_log) ==="
cat "$background_log"
[ "$background_status" -eq 0 ] || failed+=("$background_name")

if [ "${#failed[@]}" -ne 0 ]; then
  for name in "${failed[@]}"; do
    echo "=== stage $name failed; its failures ($( [ "$name" = "$background_name" ] && echo "$background_log" || echo ".build/test-logs/$name.log")) ==="
    sed -n '/^=== failures/,$p' ".build/test-logs/$name.log" | head -80
  done
  exit 1
fi
