#!/usr/bin/env bash
# Runs the window tests (real WebKitGTK views) under Xvfb.
#
# In the test process the main actor runs on the main thread, where GTK and WebKit must run
# (Tests/MainQueueOnMainThread/dispatch_main.c explains how and why). A run that hangs is
# stopped after WINDOW_TEST_TIMEOUT seconds (default 900) and fails.
# The system libraries' flags come from the flattened .pc files (packaging/pkg-config.mk).
set -u
cd "$(dirname "$0")/.."
make --no-print-directory -s pkg-config-dir SWIFT="${SWIFT:-swift}" || exit 1
NO_AT_BRIDGE=1 exec timeout --kill-after=30 "${WINDOW_TEST_TIMEOUT:-900}" \
  xvfb-run -a -s "-screen 0 1280x1024x24" ${SWIFT:-swift} test --pkg-config-path "$PWD/.build/pkg-config" \
  --skip-build --filter VitrineGTKTests
