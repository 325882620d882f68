#!/usr/bin/env python3
"""A bundled app (made by `vitrine bundle`) against the C WebKitGTK floor, interleaved.

  startup  the app: wall time from spawn until `APP --exit-after-load` has exited (its page
           loaded and its SDK registered with Swift, then the process torn down); the C
           program: spawn until it prints load-finished for the same page (file://, the
           app's web/index.html). The app's figure includes its bridge and its exit, so the
           ratio is an upper bound.
  memory   PSS of the whole process tree (program + WebKit's processes) SETTLE seconds
           after spawn, both programs left running on their page.

    python3 benchmarks/bundle.py --app /usr/lib/hello/Hello --page /usr/lib/hello/web/index.html

Needs an X display (re-execs itself under xvfb-run when there is none).
"""
from __future__ import annotations

import argparse
import json
import queue
import signal
import statistics
import subprocess
import threading
import time

from harness import (BENCH_DIR, BIN_DIR, LIVE, build_c_program, ensure_display, exit_on_sigterm,
                     process_tree, pss_kib, pump_lines, stop)

def c_startup(binary: str, url: str, timeout: float) -> float:
    proc = subprocess.Popen([binary, url], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    LIVE.add(proc)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=pump_lines, args=(proc.stdout, lines), daemon=True).start()
    t0 = time.perf_counter()
    try:
        while True:
            line = lines.get(timeout=timeout)
            if line is None:
                raise RuntimeError("the C program ended before load-finished")
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if message.get("type") == "load" and message.get("event") == "finished":
                return (time.perf_counter() - t0) * 1000
    finally:
        stop(proc, {})
        LIVE.discard(proc)


def app_startup(app: str, timeout: float) -> float:
    t0 = time.perf_counter()
    status = subprocess.run([app, "--exit-after-load"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            timeout=timeout).returncode
    if status != 0:
        raise RuntimeError(f"{app} --exit-after-load exited with {status}")
    return (time.perf_counter() - t0) * 1000


def memory(argv: list[str], settle: float) -> float:
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    LIVE.add(proc)
    tree: dict[int, int] = {}
    try:
        time.sleep(settle)
        if proc.poll() is not None:
            raise RuntimeError(f"{argv[0]} exited with {proc.returncode}")
        tree = process_tree(proc.pid)
        return sum(pss_kib(pid) for pid in tree) / 1024
    finally:
        stop(proc, tree)
        LIVE.discard(proc)


def main() -> int:
    signal.signal(signal.SIGTERM, exit_on_sigterm)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--app", required=True, help="the bundled program (usr/lib/PACKAGE/NAME, or the tarball's)")
    ap.add_argument("--page", required=True, help="the app's web/index.html, which the C program loads")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--settle", type=float, default=4.0, help="seconds from spawn to the memory sample (default 4)")
    ap.add_argument("--timeout", type=float, default=60.0)
    args = ap.parse_args()
    ensure_display(__file__)
    c_binary = str(build_c_program(BENCH_DIR / "c" / "minimal-webkit.c", BIN_DIR / "minimal-webkit"))
    url = "file://" + args.page
    figures: dict[str, dict[str, list[float]]] = {"app": {"ms": [], "mib": []}, "C": {"ms": [], "mib": []}}
    for run in range(args.runs + 1):  # the first run warms the caches and is not counted
        order = [("app", lambda: app_startup(args.app, args.timeout), [args.app]),
                 ("C", lambda: c_startup(c_binary, url, args.timeout), [c_binary, url])]
        for name, start, argv in order if run % 2 else reversed(order):
            ms, mib = start(), memory(argv, args.settle)
            if run:
                figures[name]["ms"].append(ms)
                figures[name]["mib"].append(mib)
                print(f"run {run} {name:>3}: {ms:7.1f} ms  {mib:6.1f} MiB", flush=True)
    median = {name: {k: statistics.median(v) for k, v in f.items()} for name, f in figures.items()}
    for name, m in median.items():
        print(f"{name:>3}: median {m['ms']:.1f} ms, {m['mib']:.1f} MiB")
    print(f"startup ratio (app / C): {median['app']['ms'] / median['C']['ms']:.2f}")
    print(f"memory ratio (app / C): {median['app']['mib'] / median['C']['mib']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
