#!/usr/bin/env bash
# Runs the window tests (real WebKitGTK views) under Xvfb.
#
# In the test process the main actor runs on the main thread, where GTK and WebKit must run
# (Tests/MainQueueOnMainThread/dispatch_main.c explains how and why). A run that hangs is
# stopped after WINDOW_TEST_TIMEOUT seconds (default 900) and fails.
set -u
NO_AT_BRIDGE=1 exec timeout --kill-after=30 "${WINDOW_TEST_TIMEOUT:-900}" \
  xvfb-run -a -s "-screen 0 1280x1024x24" ${SWIFT:-swift} test --skip-build --filter VitrineGTKTests
