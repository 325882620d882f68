#!/usr/bin/env bash
# Runs the window tests (real WebKitGTK views) under Xvfb.
#
# Why a run may be repeated once: in the test process Swift Testing's entry point parks the
# main thread in dispatch_main(), after which libdispatch drains the main queue — and so
# runs all @MainActor code — on whichever worker thread is free. WebKit insists on the one
# thread it started on; when the main queue hops to another worker mid-run, WebKit aborts
# in its main-thread check. The `vitrine` program is not affected (gtk_main runs on the real
# main thread; ProgramTests, RemoteControlTests and the loop check cover that path). A run
# that *crashed* with no failed expectation is therefore run again (at most three runs in all); a failed expectation
# is never retried.
set -u
for attempt in 1 2 3; do
  log=$(mktemp)
  NO_AT_BRIDGE=1 xvfb-run -a -s "-screen 0 1280x1024x24" ${SWIFT:-swift} test --skip-build --filter VitrineGTKTests 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  if [ "$status" -eq 0 ]; then rm -f "$log"; exit 0; fi
  if [ "$attempt" -lt 3 ] && grep -q "exited with unexpected signal code" "$log" && ! grep -q "recorded an issue" "$log"; then
    echo "window tests: the test process crashed (WebKit's main-thread check, see this script); running them again"
    rm -f "$log"
    continue
  fi
  rm -f "$log"
  exit "$status"
done
