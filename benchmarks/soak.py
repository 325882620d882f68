#!/usr/bin/env python3
"""Soak benchmark: a kiosk navigates and reloads a real page thousands of times, with its
web process killed every few hundred navigations, and the process tree's memory (PSS) and
open file descriptors are compared at the start and at the end, as ratios.

    xvfb-run -a python3 benchmarks/soak.py --vitrine .build-static/release/vitrine

Minutes, not a test (`make bench-soak`). The kiosk runs from a configuration file (windowed,
a crash-loop limit high enough for the kills) on pages served from 127.0.0.1; every fact is
read from its events log (`--events -`). Standard library only.
"""
from __future__ import annotations

import argparse
import http.server
import os
import re
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
import recovery  # noqa: E402

# Each page navigates to the other at once; every tenth is reloaded first (a session flag
# tells the reload apart); the harness lets the first page go once it has measured, and the
# last page says it ran (/done).
PAGE = """<!doctype html><html><head><title>soak</title>
<style>body{font:16px sans-serif;margin:40px}</style></head>
<body><h1>Kiosk page %(i)d</h1><p>Some text, a little style, a little script.</p>
<script>
const i = %(i)d, limit = %(limit)d;
const next = () => location.replace((location.pathname.endsWith('a.html') ? 'b.html' : 'a.html') + '?i=' + (i + 1));
const go = () => {
  if (i >= limit) { fetch('/done'); return; }
  if (i %% 10 === 5 && sessionStorage.getItem('reloaded') !== String(i)) {
    sessionStorage.setItem('reloaded', String(i));
    location.reload();
  } else { setTimeout(next, 0); }
};
if (i === 1) {
  const poll = () => fetch('/go').then(r => r.text()).then(t => t === 'go' ? go() : setTimeout(poll, 100));
  setTimeout(poll, 100);
} else { go(); }
</script></body></html>"""


class Handler(harness.LoopbackHandler):
    go = False
    limit = 10000
    done = threading.Event()

    def do_GET(self):
        path, _, query = self.path.partition("?")
        if path == "/go":
            self.reply(200, b"go" if Handler.go else b"wait")
        elif path == "/done":
            Handler.done.set()
            self.reply(200, b"ok")
        elif path in ("/a.html", "/b.html"):
            index = int(query.split("i=")[-1]) if "i=" in query else 1
            self.reply(200, (PAGE % {"i": index, "limit": Handler.limit}).encode(), "text/html")
        else:
            self.send_error(404)


def open_fds(root: int) -> int:
    total = 0
    for pid in harness.process_tree(root):
        try:
            total += len(os.listdir(f"/proc/{pid}/fd"))
        except OSError:
            pass
    return total


def wait_for_page(lines, index: int, timeout: float = 300) -> None:
    """Until a page numbered `index` or later has finished loading. Not that page's own line:
    at this pace the events log drops most load lines (its `dropped` line counts them)."""
    def finished_at_or_past(line: str) -> bool:
        match = re.search(r'"event":"finished".*[?&]i=(\d+)', line)
        return match is not None and int(match.group(1)) >= index
    recovery.wait_for(lines, f"page {index} or later finished", timeout, matches=finished_at_or_past)


def measure(root: int) -> tuple[float, int]:
    time.sleep(1.0)  # let the page settle: memory is read, not timed
    return recovery.tree_pss_mib(root), open_fds(root)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vitrine", default=".build-static/release/vitrine")
    parser.add_argument("--navigations", type=int, default=10000)
    parser.add_argument("--kill-every", type=int, default=500, help="navigations between web-process kills")
    args = parser.parse_args()
    harness.ensure_display(__file__)
    signal.signal(signal.SIGTERM, harness.exit_on_sigterm)
    bus = harness.start_session_bus(False)
    Handler.limit = args.navigations
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    base = harness.serve(server, "page-server")
    folder = tempfile.mkdtemp(prefix="vitrine-soak-")
    config = Path(folder, "soak.toml")
    config.write_text(f'preset = "kiosk"\nstart-url = "{base}/a.html?i=1"\n[window]\nfullscreen = false\n'
                      f'[kiosk]\ncrash-loop-limit = 100000\n')
    kills = 0
    try:
        proc, lines = recovery.spawn(args.vitrine, str(config), as_config=True)
        recovery.wait_for(lines, '"event":"finished"|i=1"')
        first_pss, first_fds = measure(proc.pid)
        started = time.perf_counter()
        Handler.go = True
        for step in range(args.kill_every, args.navigations, args.kill_every):
            wait_for_page(lines, step)
            for pid in recovery.web_processes(proc.pid):
                os.kill(pid, signal.SIGKILL)
            kills += 1
        if not Handler.done.wait(300):
            raise TimeoutError(f"the last page ({args.navigations}) did not run within 300 s")
        elapsed = time.perf_counter() - started
        last_pss, last_fds = measure(proc.pid)
        harness.stop(proc, {})
        harness.LIVE.discard(proc)
    finally:
        server.shutdown()
        if bus is not None:
            bus.terminate()
        config.unlink(missing_ok=True)
        os.rmdir(folder)

    print(f"{args.navigations} navigations ({args.navigations // 10} of them after a reload), "
          f"{kills} web-process kills, in {elapsed:.0f} s")
    print(f"memory (PSS of the process tree): {first_pss:7.1f} MiB at the start, {last_pss:7.1f} MiB at the end")
    print(f"open file descriptors (process tree): {first_fds} at the start, {last_fds} at the end")
    print(f"memory ratio (end / start): {last_pss / first_pss:.2f}")
    print(f"file-descriptor ratio (end / start): {last_fds / first_fds:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
