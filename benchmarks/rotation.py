#!/usr/bin/env python3
"""Rotation time between playlist pages: Vitrine runs a [[schedule.playlist]] of two
loopback pages (short durations) and writes its events log to a pipe; each
`schedule-page` line and the next `load finished` line are timestamped as they arrive.
Prints the median and the spread of the intervals (the first page, which starts WebKit's
processes, is left out).

Usage: xvfb-run -a python3 benchmarks/rotation.py [--vitrine .build/debug/vitrine] [--rotations 20]
"""
import argparse, functools, http.server, json, os, statistics, subprocess, sys, tempfile, threading, time

parser = argparse.ArgumentParser()
parser.add_argument("--vitrine", default=".build/debug/vitrine")
parser.add_argument("--rotations", type=int, default=20)
parser.add_argument("--duration", type=float, default=0.3, help="seconds each page stays")
args = parser.parse_args()

site = tempfile.mkdtemp(prefix="vitrine-rotation-")
for name, colour in (("a.html", "#2a6"), ("b.html", "#a26")):
    with open(os.path.join(site, name), "w") as page:
        page.write(f"<!doctype html><title>{name}</title><body style='background:{colour}'><h1>{name}</h1>"
                   + "<p>" + "text " * 2000 + "</p>")
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
handler = functools.partial(Quiet, directory=site)
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_address[1]}"
config = os.path.join(site, "signage.toml")
with open(config, "w") as file:
    file.write(f'preset = "kiosk"\nstart-url = "{base}/a.html"\n[window]\nfullscreen = false\n'
               f'[[schedule.playlist]]\nurl = "{base}/a.html"\nduration = {args.duration}\n'
               f'[[schedule.playlist]]\nurl = "{base}/b.html"\nduration = {args.duration}\n')

program = subprocess.Popen([args.vitrine, "--config", config, "--events", "-", "--new-instance"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
intervals, decided, pages = [], None, 0
try:
    for line in program.stdout:
        now = time.monotonic()
        event = json.loads(line)
        if event.get("action") == "schedule-page":
            decided = now
            pages += 1
        elif event.get("type") == "load" and event.get("event") == "finished" and decided is not None:
            if pages > 1:
                intervals.append(now - decided)
            decided = None
            if len(intervals) >= args.rotations:
                break
finally:
    program.terminate()
    program.wait(timeout=10)
    server.shutdown()

if not intervals:
    sys.exit("no rotation measured")
ms = sorted(round(i * 1000, 1) for i in intervals)
print(f"rotations: {len(ms)}; schedule-page → load finished: median {statistics.median(ms)} ms, "
      f"min {ms[0]} ms, max {ms[-1]} ms")
