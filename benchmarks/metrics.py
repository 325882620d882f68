#!/usr/bin/env python3
"""What writing the metrics file costs the kiosk ([metrics] textfile, see README.md).

Runs the kiosk preset on a loopback page twice per run, interleaved: with the metrics
file written every 15 s (the default: no write falls in the window) and every 0.05 s.
After the page has loaded, it counts the writes (each atomic write leaves a new inode)
and the CPU time (user + system, from /proc/PID/stat) of the program over the same
window; the difference over the writes is the cost of one write: sampling the process
tree's memory from /proc, rendering the text and writing it atomically.

    xvfb-run -a python3 benchmarks/metrics.py --vitrine .build/release/vitrine --runs 5
"""
from __future__ import annotations

import argparse
import http.server
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import harness

PAGE = b"<!doctype html><title>metrics</title><p>A kiosk page.</p>"


class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, fmt: str, *args) -> None:
        pass


def cpu_ticks(pid: int) -> tuple[int, int]:
    """(user, system) CPU time in clock ticks (fields 14 and 15 of /proc/PID/stat)."""
    stat = harness.stat_fields(pid)
    return (int(stat[1][11]), int(stat[1][12])) if stat else (0, 0)


def run(vitrine: str, url: str, interval: float, window: float) -> tuple[int, float, float]:
    """(writes, user and system CPU seconds) of the program over `window` seconds after
    its page loaded."""
    with tempfile.TemporaryDirectory(prefix="vitrine-metrics-bench-") as folder:
        prom = Path(folder) / "vitrine.prom"
        config = Path(folder) / "kiosk.toml"
        config.write_text(f'preset = "kiosk"\nstart-url = "{url}/"\n[window]\nfullscreen = false\n'
                          f'[metrics]\ntextfile = "{prom}"\ninterval = {interval}\n')
        proc = subprocess.Popen([vitrine, "--config", str(config), "--new-instance"], start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        harness.LIVE.add(proc)
        try:
            deadline = time.monotonic() + 60
            while "vitrine_loads_finished_total 1\n" not in (prom.read_text() if prom.exists() else ""):
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("the page did not load")
                time.sleep(0.05)
            time.sleep(1)  # let the page's start-up work settle
            writes, inode = 0, os.stat(prom).st_ino
            start, ticks = time.monotonic(), cpu_ticks(proc.pid)
            while time.monotonic() - start < window:
                current = os.stat(prom).st_ino
                writes, inode = writes + (current != inode), current
                time.sleep(0.002)
            user, system = (now - then for now, then in zip(cpu_ticks(proc.pid), ticks))
            return writes, user / os.sysconf("SC_CLK_TCK"), system / os.sysconf("SC_CLK_TCK")
        finally:
            harness.stop(proc, harness.process_tree(proc.pid))
            harness.LIVE.discard(proc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vitrine", default=str(harness.REPO_DIR / ".build/debug/vitrine"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--window", type=float, default=10.0, help="seconds measured per run")
    args = parser.parse_args()
    harness.ensure_display(__file__)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    url = harness.serve(server, "page")
    costs, system_costs = [], []
    try:
        for index in range(args.runs):
            order = [15.0, 0.05] if index % 2 == 0 else [0.05, 15.0]
            results = {interval: run(args.vitrine, url, interval, args.window) for interval in order}
            (idle_writes, idle_user, idle_system), (writes, user, system) = results[15.0], results[0.05]
            extra = max(1, writes - idle_writes)
            cost, system_cost = (user + system - idle_user - idle_system) / extra, (system - idle_system) / extra
            costs.append(cost)
            system_costs.append(system_cost)
            print(f"run {index + 1}/{args.runs}: every 15 s: {idle_writes} writes, {idle_user + idle_system:.2f} s CPU; "
                  f"every 0.05 s: {writes} writes, {user + system:.2f} s CPU; {cost * 1000:.2f} ms CPU per write "
                  f"({system_cost * 1000:.2f} ms of it in the kernel)", flush=True)
    finally:
        server.shutdown()
    median = statistics.median(costs)
    print(f"median: {median * 1000:.2f} ms CPU per write ({statistics.median(system_costs) * 1000:.2f} ms in the kernel); "
          f"at the default 15 s interval {median / 15 * 100:.3f} % of one core")


if __name__ == "__main__":
    sys.exit(main())
