#!/usr/bin/env bash
# Runs a test command and, when it fails, prints its failures again at the very end, so
# that the last lines of a long log (all a CI report may keep) say which test failed and why.
set -u
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo "=== failures ($*: exit $status) ==="
  # Swift Testing's issue lines, with the lines of detail that follow them.
  grep -A4 -E "recorded an issue|^✘ Test .*failed|error:|Fatal error|Assertion" "$log" | head -60
fi
exit "$status"
