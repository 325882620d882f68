#!/usr/bin/env python3
"""MQTT benchmark: one Mosquitto broker (plain, loopback) and one kiosk.

    xvfb-run -a python3 benchmarks/mqtt.py --vitrine .build/release/vitrine

1. Command-to-effect latency: `cmd/navigate` published (mosquitto_pub) until the kiosk's
   navigation decision, then its `load started` line, arrive on `events`, against the same
   tools' own round trip through the broker (a publish the subscriber receives), medians
   of --runs.
2. The kiosk's cost of MQTT at about 100 events/s: a page calls `vitrine.invoke("ping")`
   every 10 ms (one events line each); CPU time and resident memory of the vitrine process
   over --seconds, with `[remote.mqtt]` and without it, as ratios.

Standard library only; needs mosquitto and mosquitto-clients.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import os
import queue
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

PAGE = "<!doctype html><title>p</title><p>page %s"
BUSY = """<!doctype html><title>busy</title><script>
setInterval(() => { window.vitrine && window.vitrine.invoke("ping", {n: 1}).catch(() => {}); }, 10);
</script>"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int) -> None:
    for _ in range(200):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.025)
    raise SystemExit(f"nothing listens on {port}")


class Lines:
    """A mosquitto_sub whose `topic payload` lines arrive, time-stamped, on a queue."""

    def __init__(self, port: int, topics: list[str]):
        args = ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-v", "-q", "1"]
        for t in topics:
            args += ["-t", t]
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put((time.perf_counter(), line.rstrip("\n")))

    def wait(self, predicate, timeout: float = 20) -> float:
        deadline = time.perf_counter() + timeout
        while True:
            at, line = self.lines.get(timeout=max(0.01, deadline - time.perf_counter()))
            if predicate(line):
                return at

    def stop(self) -> None:
        self.process.kill()


def process_cpu_and_rss(pid: int) -> tuple[float, int]:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = next(int(l.split()[1]) for l in Path(f"/proc/{pid}/status").read_text().splitlines() if l.startswith("VmRSS:"))
    return cpu, rss


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--vitrine", default=".build/debug/vitrine")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--broker-nodelay", action="store_true",
                        help="the broker sends without Nagle's algorithm too (mosquitto's set_tcp_nodelay true)")
    options = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="vitrine-mqtt-bench-"))
    print(f"kiosk log: {folder / 'kiosk.log'}", file=sys.stderr)
    os.chmod(folder, 0o755)
    for i in range(options.runs):
        (folder / f"p{i}.html").write_text(PAGE % i)
    (folder / "busy.html").write_text(BUSY)
    http_port, broker_port = free_port(), free_port()
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", http_port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    (folder / "broker.conf").write_text(f"listener {broker_port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                                        + ("set_tcp_nodelay true\n" if options.broker_nodelay else ""))
    broker = subprocess.Popen(["mosquitto", "-c", str(folder / "broker.conf")], stderr=subprocess.DEVNULL)
    wait_listening(broker_port)
    base = "vitrine/bench"
    page = lambda name: f"http://127.0.0.1:{http_port}/{name}"
    mqtt = f'[remote.mqtt]\nbroker = "mqtt://127.0.0.1:{broker_port}"\ndevice-id = "bench"\n'

    def kiosk(start: str, with_mqtt: bool) -> subprocess.Popen:
        config = folder / "kiosk.toml"
        config.write_text(f'preset = "kiosk"\nstart-url = "{start}"\n' + (mqtt if with_mqtt else ""))
        return subprocess.Popen([options.vitrine, "--new-instance", "--no-fullscreen", "--config", str(config)],
                                stdout=subprocess.DEVNULL, stderr=open(folder / "kiosk.log", "a"))

    def publish(topic: str, message: str) -> None:
        subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker_port), "-q", "1", "-t", topic, "-m", message], check=True)

    keep = [False]  # the folder stays when the kiosk's log is worth reading
    try:
        # 1. Latency.
        events = Lines(broker_port, [base + "/events", "bench/echo"])
        program = kiosk(page("p0.html"), True)
        events.wait(lambda l: '"event":"finished"' in l and "p0.html" in l, timeout=60)
        effect, decided, echo = [], [], []
        for i in range(1, options.runs):
            t0 = time.perf_counter()
            publish("bench/echo", str(i))
            echo.append(events.wait(lambda l: l == f"bench/echo {i}") - t0)
            url = page(f"p{i}.html")
            t0 = time.perf_counter()
            publish(base + "/cmd/navigate", url)
            decided.append(events.wait(lambda l: '"phase":"request"' in l and url in l) - t0)
            effect.append(events.wait(lambda l: '"event":"started"' in l and url in l) - t0)
            events.wait(lambda l: '"event":"finished"' in l and url in l)
        program.kill()
        events.stop()
        m_effect, m_echo = statistics.median(effect) * 1000, statistics.median(echo) * 1000
        m_decided = statistics.median(decided) * 1000
        print(f"navigate -> the chain's decision published: median {m_decided:.1f} ms; -> load started: median {m_effect:.1f} ms; "
              f"the tools' own round trip through the broker: median {m_echo:.1f} ms ({options.runs - 1} runs)")

        # 2. Cost at ~100 events/s, with and without MQTT.
        results = {}
        for with_mqtt in (False, True):
            program = kiosk(page("busy.html"), with_mqtt)
            time.sleep(3)  # start-up and first load out of the measurement
            counter = Lines(broker_port, [base + "/events"]) if with_mqtt else None
            cpu0, _ = process_cpu_and_rss(program.pid)
            time.sleep(options.seconds)
            if program.poll() is not None:
                keep[0] = True
                raise SystemExit(f"the kiosk exited with {program.returncode}; see {folder / 'kiosk.log'}")
            cpu1, rss = process_cpu_and_rss(program.pid)
            received = counter.lines.qsize() if counter else 0
            if counter:
                counter.stop()
            program.kill()
            program.wait()
            results[with_mqtt] = ((cpu1 - cpu0) / options.seconds, rss, received / options.seconds)
        (cpu_off, rss_off, _), (cpu_on, rss_on, rate) = results[False], results[True]
        print(f"at {rate:.0f} events/s published: CPU {cpu_on * 100:.1f} % of a core with MQTT, {cpu_off * 100:.1f} % without "
              f"(ratio {cpu_on / max(cpu_off, 1e-6):.2f}); resident memory {rss_on / 1024:.1f} MB with, {rss_off / 1024:.1f} MB without "
              f"(ratio {rss_on / rss_off:.2f})")
    finally:
        broker.kill()
        server.shutdown()
        if not keep[0]:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
