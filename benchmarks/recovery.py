#!/usr/bin/env python3
"""Kiosk recovery benchmark: how fast a page comes back after its web process dies, as a
ratio to a cold start of the same page, and how the process tree's memory grows over 500
navigations between allowed pages.

    xvfb-run -a python3 benchmarks/recovery.py --vitrine .build-static/release/vitrine

Vitrine runs the `kiosk` preset (windowed) on pages served from 127.0.0.1, with
`--events -`; every time is read from its events log as it arrives. Standard library only.
"""
from __future__ import annotations

import argparse
import http.server
import os
import queue
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402

NAVIGATIONS = 500
PAGE = """<!doctype html><html><head><title>recovery</title>
<style>body{font:16px sans-serif;margin:40px}</style></head>
<body><h1>Kiosk page</h1><p>Some text and a little style.</p>
<script>
const i = Number(new URLSearchParams(location.search).get('i') || 0);
const next = () => location.replace((location.pathname.endsWith('a.html') ? 'b.html' : 'a.html') + '?i=' + (i + 1));
if (i > 0 && i < %(limit)d) {
  if (i === 1) {   // wait until the harness has measured memory after the first navigation
    const poll = () => fetch('/go').then(r => r.text()).then(t => t === 'go' ? next() : setTimeout(poll, 100));
    setTimeout(poll, 100);
  } else { setTimeout(next, 0); }
}
</script></body></html>"""


class Handler(harness.LoopbackHandler):
    go = False

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/go":
            self.reply(200, b"go" if Handler.go else b"wait")
        elif path in ("/a.html", "/b.html", "/start.html"):
            self.reply(200, (PAGE % {"limit": NAVIGATIONS}).encode(), "text/html")
        else:
            self.send_error(404)


def spawn(vitrine: str, url: str, as_config: bool = False):
    """The kiosk on `url` (or, `as_config`, from the configuration file `url`), its events log's lines."""
    where = ["--config", url] if as_config else ["--preset", "kiosk", "--no-fullscreen", url]
    proc = subprocess.Popen([vitrine, "--new-instance", "--events", "-", *where],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    harness.LIVE.add(proc)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=harness.pump_lines, args=(proc.stdout, lines), daemon=True).start()
    return proc, lines


def wait_for(lines: queue.Queue, needle: str, timeout: float = 30, matches=None) -> float:
    """Time (perf_counter) at which a line containing all of needle's parts arrived (or, given
    `matches`, a line it accepts; `needle` then only names the wait in the timeout)."""
    deadline = time.perf_counter() + timeout
    parts = needle.split("|")
    accepts = matches or (lambda line: all(p in line for p in parts))
    while True:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            raise TimeoutError(needle)
        line = lines.get(timeout=remaining)
        if line is None:
            raise RuntimeError("the program exited")
        if accepts(line):
            return time.perf_counter()


def web_processes(root: int) -> list[int]:
    out = []
    for pid in harness.process_tree(root):
        try:
            if Path(f"/proc/{pid}/comm").read_text().startswith("WebKitWebProces"):
                out.append(pid)
        except OSError:
            pass
    return out


def tree_pss_mib(root: int) -> float:
    return sum(harness.pss_kib(pid) for pid in harness.process_tree(root)) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vitrine", default=".build-static/release/vitrine")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    harness.ensure_display(__file__)
    signal.signal(signal.SIGTERM, harness.exit_on_sigterm)
    bus = harness.start_session_bus(False)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    base = harness.serve(server, "page-server")
    finished = '"event":"finished"|"type":"load"'
    cold, recovery = [], []
    try:
        for run in range(1, args.runs + 1):
            start = time.perf_counter()
            proc, lines = spawn(args.vitrine, f"{base}/start.html")
            loaded = wait_for(lines, finished)
            cold.append(loaded - start)
            time.sleep(0.5)
            victims = web_processes(proc.pid)
            killed = time.perf_counter()
            for pid in victims:
                os.kill(pid, signal.SIGKILL)
            back = wait_for(lines, finished)
            recovery.append(back - killed)
            print(f"run {run}/{args.runs}  cold start {cold[-1]*1000:7.1f} ms   recovery after kill {recovery[-1]*1000:7.1f} ms",
                  flush=True)
            harness.stop(proc, {})
            harness.LIVE.discard(proc)

        # Memory over 500 navigations between two allowed pages.
        Handler.go = False
        proc, lines = spawn(args.vitrine, f"{base}/a.html?i=1")
        wait_for(lines, finished)
        time.sleep(1.0)
        first = tree_pss_mib(proc.pid)
        Handler.go = True
        wait_for(lines, f'"event":"finished"|i={NAVIGATIONS}"', timeout=300)
        time.sleep(1.0)
        last = tree_pss_mib(proc.pid)
        harness.stop(proc, {})
        harness.LIVE.discard(proc)
    finally:
        server.shutdown()
        if bus is not None:
            bus.terminate()

    ratio = statistics.median(recovery) / statistics.median(cold)
    print()
    print(f"cold start to first load (median):        {statistics.median(cold)*1000:7.1f} ms")
    print(f"web process killed to page back (median): {statistics.median(recovery)*1000:7.1f} ms")
    print(f"recovery ratio (recovery / cold start): {ratio:.2f}")
    print(f"memory after the first navigation: {first:7.1f} MiB; after {NAVIGATIONS}: {last:7.1f} MiB")
    print(f"memory ratio ({NAVIGATIONS} navigations / first): {last / first:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
