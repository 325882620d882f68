#!/usr/bin/env python3
"""Alert-to-screen benchmark: how long from an MQTT `cmd/alert` to the alert page on screen.

    xvfb-run -a -s "-screen 0 1280x1024x24" python3 benchmarks/alert.py \
        --vitrine .build-static/release/vitrine --runs 20

A kiosk on a playlist whose page is solid red is sent `cmd/alert` for a solid blue page
through a Mosquitto broker on loopback (one `mosquitto_pub -l` kept open: the command is
one line written to it); the time is measured until the screen is all blue (the X server's
pixels, read as `transitions.py` reads them), then `cmd/alert-clear` gives the screen back
and the next run waits for red again (and half a second more, to start settled). The C floor, `c/navigate-webkit.c`, is one
WebKitGTK view told to load the same blue page by a line on its stdin, timed the same way.
Prints the medians and Vitrine / C. Standard library only; needs mosquitto and
mosquitto-clients. Not a test (`make bench-alert`).
"""
from __future__ import annotations

import argparse
import http.server
import json
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
import mqtt  # noqa: E402
import recovery  # noqa: E402
import transitions  # noqa: E402

C_SOURCE = harness.BENCH_DIR / "c" / "navigate-webkit.c"
C_BINARY = harness.BIN_DIR / "navigate-webkit"
# Each run starts from a settled screen: the page given back has finished loading (and
# Vitrine has logged it) before the next command, on both sides.
SETTLE = 0.5


def wait_colour(screen: transitions.Screen, colour: str, timeout: float = 20) -> float:
    """The time (perf_counter) of the first frame that is all `colour`."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if transitions.classify(screen.frame(step=40)) == colour:
            return time.perf_counter()
    raise TimeoutError(f"the screen never turned {colour}")


def broker_round_trips(broker_port: int, runs: int) -> list[float]:
    """A line written to `mosquitto_pub -l` until `mosquitto_sub` prints it: the broker's part."""
    echo = mqtt.Lines(broker_port, ["bench/echo"])
    publisher = subprocess.Popen(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker_port), "-q", "1",
                                  "-t", "bench/echo", "-l"], stdin=subprocess.PIPE, text=True)
    times = []
    try:
        time.sleep(0.5)  # both clients connected and subscribed
        for run in range(runs):
            started = time.perf_counter()
            publisher.stdin.write(f"{run}\n")
            publisher.stdin.flush()
            times.append(echo.wait(lambda line, run=run: line == f"bench/echo {run}") - started)
    finally:
        publisher.stdin.close()
        publisher.wait(timeout=10)
        echo.stop()
    return times


def vitrine_runs(vitrine: str, base: str, broker_port: int, runs: int, screen: transitions.Screen) -> list[float]:
    folder = Path(tempfile.mkdtemp(prefix="vitrine-alert-"))
    config = folder / "alert.toml"
    config.write_text(
        f'preset = "kiosk"\nstart-url = "{base}/red.html"\n'
        f'[window]\nfullscreen = false\nwidth = {transitions.WIDTH}\nheight = {transitions.HEIGHT}\n'
        f'[remote.mqtt]\nbroker = "mqtt://127.0.0.1:{broker_port}"\ndevice-id = "bench"\n'
        f'[[schedule.playlist]]\nurl = "{base}/red.html"\nduration = 3600\n')
    topic = "vitrine/bench"
    state = mqtt.Lines(broker_port, [f"{topic}/state"])
    proc, _ = recovery.spawn(vitrine, str(config), as_config=True)
    publisher = subprocess.Popen(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker_port), "-q", "1",
                                  "-t", f"{topic}/cmd/alert", "-l"], stdin=subprocess.PIPE, text=True)
    times = []
    try:
        state.wait(lambda line: '"online":true' in line, timeout=60)
        wait_colour(screen, "red", timeout=60)
        for run in range(runs):
            started = time.perf_counter()
            publisher.stdin.write(json.dumps({"url": f"{base}/blue.html?alert={run}", "seconds": 600}) + "\n")
            publisher.stdin.flush()
            times.append(wait_colour(screen, "blue") - started)
            subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker_port), "-q", "1",
                            "-t", f"{topic}/cmd/alert-clear", "-n"], check=True)
            wait_colour(screen, "red")
            time.sleep(SETTLE)
    finally:
        publisher.stdin.close()
        publisher.wait(timeout=10)
        state.stop()
        harness.stop(proc, {})
        harness.LIVE.discard(proc)
        config.unlink(missing_ok=True)
        folder.rmdir()
    return times


def c_runs(base: str, runs: int, screen: transitions.Screen) -> list[float]:
    binary = harness.build_c_program(C_SOURCE, C_BINARY)
    proc = subprocess.Popen([str(binary), f"{base}/red.html"], stdin=subprocess.PIPE, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    harness.LIVE.add(proc)
    times = []
    try:
        wait_colour(screen, "red", timeout=60)
        for run in range(runs):
            started = time.perf_counter()
            proc.stdin.write(f"{base}/blue.html?alert={run}\n")
            proc.stdin.flush()
            times.append(wait_colour(screen, "blue") - started)
            proc.stdin.write(f"{base}/red.html?back={run}\n")
            proc.stdin.flush()
            wait_colour(screen, "red")
            time.sleep(SETTLE)
    finally:
        harness.stop(proc, {})
        harness.LIVE.discard(proc)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vitrine", default=".build-static/release/vitrine")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    harness.ensure_display(__file__)
    signal.signal(signal.SIGTERM, harness.exit_on_sigterm)
    bus = harness.start_session_bus(False)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), transitions.Handler)
    base = harness.serve(server, "page-server")
    broker_port = mqtt.free_port()
    folder = Path(tempfile.mkdtemp(prefix="vitrine-alert-broker-"))
    (folder / "broker.conf").write_text(f"listener {broker_port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    broker = subprocess.Popen(["mosquitto", "-c", str(folder / "broker.conf")], stderr=subprocess.DEVNULL)
    screen = transitions.Screen()
    try:
        mqtt.wait_listening(broker_port)
        echo = broker_round_trips(broker_port, args.runs)
        vitrine = vitrine_runs(args.vitrine, base, broker_port, args.runs, screen)
        floor = c_runs(base, args.runs, screen)
    finally:
        broker.kill()
        (folder / "broker.conf").unlink()
        folder.rmdir()
        server.shutdown()
        if bus is not None:
            bus.terminate()
    v, c = statistics.median(vitrine) * 1000, statistics.median(floor) * 1000
    ms = lambda values: [round(value * 1000, 1) for value in values]
    print(json.dumps({"runs": args.runs, "vitrine_ms": ms(vitrine), "c_ms": ms(floor), "broker_ms": ms(echo)}))
    print(f"cmd/alert -> alert page on screen: median {v:.0f} ms (min {min(vitrine) * 1000:.0f}, max {max(vitrine) * 1000:.0f}), "
          f"of which the broker's own hop (a publish to a subscriber) takes {statistics.median(echo) * 1000:.1f} ms; "
          f"C WebKitGTK told to load the same page: median {c:.0f} ms; Vitrine / C {v / c:.2f} ({args.runs} runs each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
