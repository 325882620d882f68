#!/usr/bin/env python3
"""Playlist soak: a kiosk turns a three-page playlist thousands of times with short
durations (`[schedule] preload` on: each turn makes a view and a web process, and releases
the old ones), and its memory is read every few hundred turns: PSS of the whole process
tree, RSS of the UI process, PSS of the web processes, and how many web processes there are.
Then `c/view-swap.c` does the same turns in plain C WebKitGTK (a new view over the old one
each turn, the old one destroyed once the new one has loaded), read the same way, and the
UI process's growth per turn of both is printed with its ratio (`--no-c` skips the C run).

    xvfb-run -a -s "-screen 0 1280x1024x24" python3 benchmarks/playlist_soak.py \
        --vitrine .build-static/release/vitrine --transitions 2000

Minutes, not a test (`make bench-playlist-soak`). Standard library only.
"""
from __future__ import annotations

import argparse
import http.server
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
import recovery  # noqa: E402

PAGE = """<!doctype html><html><head><title>%(name)s</title>
<style>body{font:24px sans-serif;margin:40px;background:%(colour)s}</style></head>
<body><h1>%(name)s</h1><p>Some text, a little style, a little script.</p>
<ul>%(items)s</ul><script>document.title += " " + new Date().toISOString();</script></body></html>"""
COLOURS = {"one": "#c33", "two": "#3c3", "three": "#33c"}


class Handler(harness.LoopbackHandler):
    def do_GET(self):
        name = self.path.split("?")[0].strip("/").removesuffix(".html")
        if name not in COLOURS:
            return self.send_error(404)
        items = "".join(f"<li>item {i}</li>" for i in range(50))
        self.reply(200, (PAGE % {"name": name, "colour": COLOURS[name], "items": items}).encode(), "text/html")


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure(root: int) -> dict:
    web = recovery.web_processes(root)
    return {
        "tree_pss_mib": recovery.tree_pss_mib(root),
        "ui_rss_mib": rss_kib(root) / 1024,
        "ui_pss_mib": harness.pss_kib(root) / 1024,
        "web_pss_mib": sum(harness.pss_kib(pid) for pid in web) / 1024,
        "web_processes": len(web),
    }


C_SOURCE = harness.BENCH_DIR / "c" / "view-swap.c"
C_BINARY = harness.BIN_DIR / "view-swap"


def soak(proc, lines, transitions: int, every: int) -> list[dict]:
    """Readings of `proc`'s tree at the 20th turn and every `every` turns, until `transitions`."""
    readings = []
    started = time.perf_counter()
    for shown in range(1, transitions + 1):
        recovery.wait_for(lines, '"schedule-page-shown"', timeout=60)
        if shown == 20 or shown % every == 0:
            time.sleep(0.05)
            reading = {"transitions": shown, "seconds": round(time.perf_counter() - started), **measure(proc.pid)}
            readings.append(reading)
            print("{transitions:5d} turns {seconds:5d} s: tree PSS {tree_pss_mib:6.1f} MiB, UI RSS {ui_rss_mib:6.1f} MiB "
                  "(PSS {ui_pss_mib:6.1f}), web PSS {web_pss_mib:6.1f} MiB in {web_processes} process(es)".format(**reading),
                  flush=True)
    harness.stop(proc, {})
    harness.LIVE.discard(proc)
    return readings


def report(name: str, readings: list[dict]) -> float:
    """Prints end / first of each figure; the UI process's RSS growth per turn, in KiB."""
    first, last = readings[0], readings[-1]
    print(f"{name}: {last['transitions']} transitions in {last['seconds']} s")
    for key, label in (("tree_pss_mib", "tree PSS"), ("ui_rss_mib", "UI RSS"), ("web_pss_mib", "web PSS")):
        print(f"  {label}: {first[key]:.1f} MiB after {first['transitions']} turns, {last[key]:.1f} MiB at the end: "
              f"ratio {last[key] / first[key]:.2f}" if first[key] else f"  {label}: {first[key]:.1f} → {last[key]:.1f} MiB")
    growth = (last["ui_rss_mib"] - first["ui_rss_mib"]) * 1024 / max(1, last["transitions"] - first["transitions"])
    print(f"  UI RSS growth: {growth:.1f} KiB per turn")
    return growth


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vitrine", default=".build-static/release/vitrine")
    parser.add_argument("--transitions", type=int, default=2000)
    parser.add_argument("--duration", type=float, default=0.2, help="seconds each item stays")
    parser.add_argument("--every", type=int, default=250, help="transitions between readings")
    parser.add_argument("--no-preload", action="store_true")
    parser.add_argument("--no-c", action="store_true", help="skip the C program's run")
    args = parser.parse_args()
    harness.ensure_display(__file__)
    signal.signal(signal.SIGTERM, harness.exit_on_sigterm)
    bus = harness.start_session_bus(False)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    base = harness.serve(server, "page-server")
    folder = tempfile.mkdtemp(prefix="vitrine-playlist-soak-")
    config = Path(folder, "soak.toml")
    playlist = "".join(f'[[schedule.playlist]]\nurl = "{base}/{name}.html"\nduration = {args.duration}\n' for name in COLOURS)
    config.write_text(f'preset = "kiosk"\nstart-url = "{base}/one.html"\n[window]\nfullscreen = false\n'
                      f'[schedule]\npreload = {"false" if args.no_preload else "true"}\n' + playlist)
    try:
        print(f"vitrine (preload {'off' if args.no_preload else 'on'}):", flush=True)
        vitrine = soak(*recovery.spawn(args.vitrine, str(config), as_config=True), args.transitions, args.every)
        c = None
        if not args.no_c:
            binary = harness.build_c_program(C_SOURCE, C_BINARY)
            print("C (a new view each turn):", flush=True)
            proc = subprocess.Popen([str(binary), str(int(args.duration * 1000))] + [f"{base}/{name}.html" for name in COLOURS],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
            harness.LIVE.add(proc)
            lines: queue.Queue = queue.Queue()
            threading.Thread(target=harness.pump_lines, args=(proc.stdout, lines), daemon=True).start()
            c = soak(proc, lines, args.transitions, args.every)
    finally:
        server.shutdown()
        if bus is not None:
            bus.terminate()
        config.unlink(missing_ok=True)
        Path(folder).rmdir()
    growth = report("vitrine", vitrine)
    if c is not None:
        c_growth = report("C", c)
        if c_growth > 0:
            print(f"UI RSS growth per turn, vitrine / C: {growth / c_growth:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
