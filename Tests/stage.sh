#!/usr/bin/env bash
# One timed stage of `make test`: `stage.sh NAME COMMAND…` runs COMMAND and appends
# "NAME SECONDS" to .build/test-stages.txt; `--reset` empties it, `--report` prints the
# stages and their total. A stage that fails prints the times so far, then fails the run.
set -u
file=.build/test-stages.txt
report() {
  echo "make test stages (wall-clock seconds):"
  awk '{ printf "  %-14s %5d\n", $1, $2 }' "$file"
  [ -f "$file.start" ] && printf "  %-14s %5d  (wall clock: stages after build overlap, so it is less than their sum)\n" total $(( $(date +%s) - $(cat "$file.start") ))
}
case "${1:-}" in
  --reset) mkdir -p .build && : > "$file" && date +%s > "$file.start"; exit 0 ;;
  --report) report; exit 0 ;;
esac
name=$1; shift
start=$(date +%s)
"$@"
status=$?
echo "$name $(( $(date +%s) - start ))" >> "$file"
if [ "$status" -ne 0 ]; then report; echo "stage $name failed (exit status $status)"; fi
exit "$status"
