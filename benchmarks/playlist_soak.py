#!/usr/bin/env python3
"""Playlist soak: a kiosk turns a three-page playlist thousands of times with short
durations (`[schedule] preload` on: each turn makes a view and a web process, and releases
the old ones), and its memory is read every few hundred turns: PSS of the whole process
tree, RSS of the UI process, PSS of the web processes, and how many web processes there are.

    xvfb-run -a -s "-screen 0 1280x1024x24" python3 benchmarks/playlist_soak.py \
        --vitrine .build/debug/vitrine --transitions 2000

Minutes, not a test (`make bench-playlist-soak`). Standard library only.
"""
from __future__ import annotations

import argparse
import http.server
import signal
import sys
import tempfile
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vitrine", default=".build-static/release/vitrine")
    parser.add_argument("--transitions", type=int, default=2000)
    parser.add_argument("--duration", type=float, default=0.2, help="seconds each item stays")
    parser.add_argument("--every", type=int, default=250, help="transitions between readings")
    parser.add_argument("--no-preload", action="store_true")
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
    readings = []
    try:
        proc, lines = recovery.spawn(args.vitrine, str(config), as_config=True)
        started = time.perf_counter()
        shown = 0
        for shown in range(1, args.transitions + 1):
            recovery.wait_for(lines, '"schedule-page-shown"', timeout=60)
            if shown == 20 or shown % args.every == 0:
                time.sleep(0.05)
                reading = {"transitions": shown, "seconds": round(time.perf_counter() - started), **measure(proc.pid)}
                readings.append(reading)
                print("{transitions:5d} turns {seconds:5d} s: tree PSS {tree_pss_mib:6.1f} MiB, UI RSS {ui_rss_mib:6.1f} MiB "
                      "(PSS {ui_pss_mib:6.1f}), web PSS {web_pss_mib:6.1f} MiB in {web_processes} process(es)".format(**reading),
                      flush=True)
        harness.stop(proc, {})
        harness.LIVE.discard(proc)
    finally:
        server.shutdown()
        if bus is not None:
            bus.terminate()
        config.unlink(missing_ok=True)
        Path(folder).rmdir()
    first, last = readings[0], readings[-1]
    print(f"{last['transitions']} transitions (preload {'off' if args.no_preload else 'on'}) in {last['seconds']} s")
    for key, label in (("tree_pss_mib", "tree PSS"), ("ui_rss_mib", "UI RSS"), ("web_pss_mib", "web PSS")):
        print(f"{label}: {first[key]:.1f} MiB after {first['transitions']} turns, {last[key]:.1f} MiB at the end: "
              f"ratio {last[key] / first[key]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
