#!/usr/bin/env python3
"""Transition benchmark: a kiosk turns a two-page playlist (one page solid red, the other
solid blue) while the screen is captured 30 times a second; every frame that is neither
all red nor all blue shows something between the two items (a blank page, half a paint).
Run with `[schedule] preload` on and off.

    xvfb-run -a -s "-screen 0 1280x1024x24" python3 benchmarks/transitions.py \
        --vitrine .build/debug/vitrine --transitions 20

Frames are read from the X server with Xlib's XGetImage (libX11 through ctypes) over the
window's area, sampled on a grid. Not a test (`make bench-transitions`). Standard library only.
"""
from __future__ import annotations

import argparse
import ctypes
import http.server
import json
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
import recovery  # noqa: E402

WIDTH, HEIGHT = 800, 600
COLOURS = {"red": (255, 0, 0), "blue": (0, 0, 255)}
PAGE = '<!doctype html><title>%(name)s</title><body style="margin:0;background:%(css)s"></body>'


class Handler(harness.LoopbackHandler):
    delay = 0.0

    def do_GET(self):
        name = self.path.split("?")[0].strip("/").removesuffix(".html")
        if name not in COLOURS:
            return self.send_error(404)
        time.sleep(Handler.delay)  # the network between a player and its CMS
        css = "rgb(%d,%d,%d)" % COLOURS[name]
        self.reply(200, (PAGE % {"name": name, "css": css}).encode(), "text/html")


class XImage(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                ("format", ctypes.c_int), ("data", ctypes.c_void_p), ("byte_order", ctypes.c_int),
                ("bitmap_unit", ctypes.c_int), ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int),
                ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int), ("bits_per_pixel", ctypes.c_int),
                ("red_mask", ctypes.c_ulong), ("green_mask", ctypes.c_ulong), ("blue_mask", ctypes.c_ulong),
                ("obdata", ctypes.c_void_p), ("funcs", ctypes.c_void_p * 6)]


class Screen:
    """The X server's root window, read a rectangle at a time (ZPixmap, 32 bits per pixel)."""

    def __init__(self):
        self.x11 = ctypes.cdll.LoadLibrary("libX11.so.6")
        self.x11.XOpenDisplay.restype = ctypes.c_void_p
        self.x11.XDefaultRootWindow.restype = ctypes.c_ulong
        self.x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        self.x11.XGetImage.restype = ctypes.POINTER(XImage)
        self.x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                                       ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        self.display = self.x11.XOpenDisplay(None)
        if not self.display:
            sys.exit("error: cannot open the X display")
        self.root = self.x11.XDefaultRootWindow(self.display)

    def frame(self, step: int = 25) -> list[tuple[int, int, int]]:
        """The colours on a grid of the window's area (a margin off its edges)."""
        image = self.x11.XGetImage(self.display, self.root, 0, 0, WIDTH, HEIGHT, 0xFFFFFFFF, 2)
        if not image:
            return []
        info = image.contents
        data = ctypes.string_at(info.data, info.bytes_per_line * info.height)
        samples = []
        for y in range(10, HEIGHT - 10, step):
            row = y * info.bytes_per_line
            for x in range(10, WIDTH - 10, step):
                b, g, r = data[row + 4 * x], data[row + 4 * x + 1], data[row + 4 * x + 2]
                samples.append((r, g, b))
        ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(XImage))(info.funcs[1])(image)  # XDestroyImage
        return samples


def classify(samples: list[tuple[int, int, int]]) -> str:
    for name, colour in COLOURS.items():
        if samples and all(max(abs(a - b) for a, b in zip(pixel, colour)) <= 8 for pixel in samples):
            return name
    return "neither"


def run(vitrine: str, base: str, preload: bool, transitions: int, duration: float) -> dict:
    folder = tempfile.mkdtemp(prefix="vitrine-transitions-")
    config = Path(folder, "transitions.toml")
    config.write_text(
        f'preset = "kiosk"\nstart-url = "{base}/red.html"\n'
        f'[window]\nfullscreen = false\nwidth = {WIDTH}\nheight = {HEIGHT}\n'
        f'[schedule]\npreload = {"true" if preload else "false"}\n'
        f'[[schedule.playlist]]\nurl = "{base}/red.html"\nduration = {duration}\n'
        f'[[schedule.playlist]]\nurl = "{base}/blue.html"\nduration = {duration}\n')
    screen = Screen()
    frames: list[tuple[float, str]] = []
    stop = threading.Event()

    def capture():
        interval, next_at = 1 / 30, time.perf_counter()
        while not stop.is_set():
            frames.append((time.perf_counter(), classify(screen.frame())))
            next_at += interval
            time.sleep(max(0.0, next_at - time.perf_counter()))

    proc, lines = recovery.spawn(vitrine, str(config), as_config=True)
    try:
        recovery.wait_for(lines, '"schedule-page-shown"|red.html', timeout=60)
        # From the first item's own frame on: what came before is the window's start.
        while classify(screen.frame()) != "red":
            time.sleep(0.01)
        thread = threading.Thread(target=capture, daemon=True)
        thread.start()
        for _ in range(transitions):
            recovery.wait_for(lines, '"schedule-page-shown"', timeout=60)
        time.sleep(0.5)  # the last swap's frames
        stop.set()
        thread.join()
    finally:
        harness.stop(proc, {})
        harness.LIVE.discard(proc)
        config.unlink(missing_ok=True)
        Path(folder).rmdir()
    counts = {name: sum(1 for _, kind in frames if kind == name) for name in ("red", "blue", "neither")}
    seconds = frames[-1][0] - frames[0][0] if len(frames) > 1 else 0
    return {"preload": preload, "transitions": transitions, "frames": len(frames),
            "fps": len(frames) / seconds if seconds else 0, **counts}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vitrine", default=".build-static/release/vitrine")
    parser.add_argument("--transitions", type=int, default=20)
    parser.add_argument("--duration", type=float, default=1.5, help="seconds each item stays")
    parser.add_argument("--delay-ms", type=int, default=100, help="the server's delay before each page")
    parser.add_argument("--only", choices=["on", "off"], help="run with preload on or off only")
    args = parser.parse_args()
    harness.ensure_display(__file__)
    signal.signal(signal.SIGTERM, harness.exit_on_sigterm)
    bus = harness.start_session_bus(False)
    Handler.delay = args.delay_ms / 1000
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    base = harness.serve(server, "page-server")
    results = []
    try:
        for preload in ([True, False] if args.only is None else [args.only == "on"]):
            results.append(run(args.vitrine, base, preload, args.transitions, args.duration))
    finally:
        server.shutdown()
        if bus is not None:
            bus.terminate()
    for result in results:
        print(json.dumps(result))
        print(f"preload {'on ' if result['preload'] else 'off'}: {result['neither']} frame(s) of neither item in "
              f"{result['transitions']} transitions ({result['frames']} frames at {result['fps']:.0f} fps), "
              f"{result['neither'] / result['transitions']:.2f} per transition")
    return 0


if __name__ == "__main__":
    sys.exit(main())
