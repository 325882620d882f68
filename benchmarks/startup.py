#!/usr/bin/env python3
"""Startup-time and memory benchmark: vitrine vs. a minimal C WebKitGTK program.

For each run both programs load the same page, interleaved (the order
alternates every run so neither always gets the warmer caches). Per program
and run it records:

  startup  wall time from just before spawn until the program prints
           {"type":"load","event":"finished",...} on stdout;
  memory   PSS of the whole process tree (the program plus WebKitWebProcess,
           WebKitNetworkProcess, ...) after a short settle time, summed from
           /proc/PID/smaps_rollup. PSS shares common pages fairly between
           processes, so the sum is not inflated by shared libraries.

The C program does the same work as Vitrine's run: a first, unrecorded Vitrine run's
events log says whether its web processes are sandboxed and whether it turned WebKit's
compositing off, and the C program gets --sandbox / --no-compositing accordingly
(--c-defaults keeps WebKit's defaults instead). Both print a line per start-up phase
(Vitrine's `--startup-trace`, the C program's --trace); the report has each phase's median
time since spawn. --noise runs the C program twice per run: its ratio to itself is the
noise band. --gate R fails (exit 1) when a ratio exceeds R and that band.

It prints medians/means and the ratios vitrine / C. Python 3 stdlib only.

Needs an X display; run it under `xvfb-run -a`, or let it re-exec itself
under xvfb-run when neither DISPLAY nor WAYLAND_DISPLAY is set.
See benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import http.server
import json
import os
import queue
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from startup_report import report, gate_failures
from harness import (clean_up, interleave, serve, LoopbackHandler, BIN_DIR, BENCH_DIR, LIVE, REPO_DIR, build_c_program, ensure_display,
                     exit_on_sigterm, process_tree, pss_kib, stat_fields, pump_lines, start_session_bus, stop)

C_SOURCE = BENCH_DIR / "c" / "minimal-webkit.c"
C_BINARY = BIN_DIR / "minimal-webkit"

PAGE_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Vitrine benchmark page</title>
<style>
  :root { --accent: #3b6ea5; }
  body { font: 16px/1.5 sans-serif; margin: 0; color: #222; background: #fafafa; }
  header { background: var(--accent); color: white; padding: 1rem 2rem; }
  main { display: grid; grid-template-columns: repeat(3, 1fr); gap: 1rem; padding: 2rem; }
  article { background: white; border-radius: 8px; padding: 1rem;
            box-shadow: 0 1px 3px rgba(0, 0, 0, .15); }
  article h2 { margin-top: 0; font-size: 1.1rem; color: var(--accent); }
</style>
</head>
<body>
<header><h1>Benchmark page</h1></header>
<main>
%s
</main>
%%s</body>
</html>
""" % "\n".join(
    f"<article><h2>Section {i}</h2><p>Lorem ipsum dolor sit amet, consectetur "
    f"adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna "
    f"aliqua. Item {i} of the benchmark grid.</p></article>"
    for i in range(1, 13)
)

# The default page is a small app page: HTML, CSS and one inline script, because every
# page Vitrine exists for runs JavaScript. `--page-kind static` drops the script: then
# the C program's web process never starts its JavaScript engine at all, while Vitrine's
# SDK (a document-start user script) always does. benchmarks/README.md has the figures.
PAGE_SCRIPT = """<script>
  document.querySelector('header h1').textContent += ' (ready)';
</script>
"""
PAGES = {"app": PAGE_HTML % PAGE_SCRIPT, "static": PAGE_HTML % ""}


# --------------------------------------------------------------------------- setup

class _PageHandler(LoopbackHandler):
    """Serves the generated page for every path (favicon included): no 404 noise."""

    body = PAGES["app"].encode("utf-8")

    def do_GET(self) -> None:  # noqa: N802 (stdlib naming)
        self.reply(200, self.body, "text/html; charset=utf-8")


def start_page_server(kind: str = "app") -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve the page of `kind` (see PAGES) on loopback only, on a free port chosen by the kernel."""
    handler = type("PageHandler", (_PageHandler,), {"body": PAGES[kind].encode("utf-8")})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    return server, serve(server, "page-server") + "/"


# --------------------------------------------------------------------------- runs

@dataclass
class Program:
    name: str
    argv_prefix: list[str]  # the page URL and any extra args are appended
    extra_args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)  # added to the inherited environment
    startup_ms: list[float] = field(default_factory=list)
    pss_mib: list[float] = field(default_factory=list)
    nprocs: list[int] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    # Start-up phase -> ms from spawn, one value per recorded run that reached it.
    phases: dict[str, list[float]] = field(default_factory=dict)
    # PSS MiB by process role (the program itself is "ui", others by their command name).
    pss_by_role: dict[str, list[float]] = field(default_factory=dict)
    # The event lines of the last run (the probe run's tell Vitrine's choices).
    events: list[dict] = field(default_factory=list)


def _event(line: str) -> dict | None:
    try:
        msg = json.loads(line)
    except ValueError:
        return None
    return msg if isinstance(msg, dict) else None


def _is_load_finished(msg: dict | None) -> bool:
    return msg is not None and msg.get("type") == "load" and msg.get("event") == "finished"


def same_work_args(events: list[dict], vitrine_args: list[str]) -> list[str]:
    """The C program's arguments for the choices Vitrine's events say it made: its web
    processes sandboxed (a `sandbox-probed` start-up line; without a trace, unless
    --no-sandbox was given) and compositing off (the `renderer` line's policy `never`)."""
    traced = any(e.get("type") == "startup" for e in events)
    sandboxed = (any(e.get("type") == "startup" and e.get("phase") == "sandbox-probed" for e in events)
                 if traced else "--no-sandbox" not in vitrine_args)
    policy = next((e.get("policy") for e in events if e.get("type") == "renderer"), None)
    return (["--sandbox"] if sandboxed else []) + (["--no-compositing"] if policy == "never" else [])


def run_once(prog: Program, url: str, timeout_s: float, settle_s: float,
             record: bool, verbose: bool) -> str:
    """Start prog on url, time it to load-finished, measure PSS, stop it.
    Returns a short status string for the progress log."""
    argv = prog.argv_prefix + [url] + prog.extra_args
    events: list[dict] = []
    t0_monotonic_ms = time.monotonic() * 1000.0  # the clock of the programs' trace lines
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=None if verbose else subprocess.DEVNULL,
        text=True,
        errors="replace",  # a stray non-UTF-8 byte must not kill the reader
        start_new_session=True,  # own process group: killpg reaches WebKit's children
        env={**os.environ, **prog.env} if prog.env else None,
    )
    LIVE.add(proc)
    lines: queue.Queue[str | None] = queue.Queue()
    pump = threading.Thread(target=pump_lines, args=(proc.stdout, lines), daemon=True)
    pump.start()

    tree: dict[int, int] = {}
    try:
        deadline = t0 + timeout_s
        elapsed = None
        while elapsed is None:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise RuntimeError(f"no load-finished within {timeout_s:.0f} s")
            try:
                line = lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                try:
                    proc.wait(timeout=1.0)
                except subprocess.TimeoutExpired:
                    pass
                raise RuntimeError(f"closed stdout (exit status {proc.poll()}) "
                                   "before load-finished")
            msg = _event(line)
            if msg is not None:
                events.append(msg)
            if _is_load_finished(msg):
                elapsed = (time.perf_counter() - t0) * 1000.0

        time.sleep(settle_s)  # let the web process finish painting and settle
        while not lines.empty():  # the lines written while settling (the trace's last)
            msg = _event(lines.get_nowait() or "")
            if msg is not None:
                events.append(msg)
        if proc.poll() is not None:
            raise RuntimeError(f"exited (status {proc.returncode}) while settling")
        tree = process_tree(proc.pid)
        by_role: dict[str, float] = {}
        for pid in tree:
            role = "ui" if pid == proc.pid else (stat_fields(pid) or ("?", []))[0]
            by_role[role] = by_role.get(role, 0.0) + pss_kib(pid) / 1024.0
        pss = sum(by_role.values())
    except RuntimeError as err:
        if record:
            prog.failures.append(str(err))
        return f"FAILED: {err}"
    finally:
        stop(proc, tree)
        LIVE.discard(proc)
        # The pipe reaches EOF once the whole tree is gone; closing it while the
        # reader is still blocked in read() would wait on the reader's lock.
        pump.join(timeout=2.0)
        if not pump.is_alive():
            proc.stdout.close()

    prog.events = events
    if record:
        prog.startup_ms.append(elapsed)
        prog.pss_mib.append(pss)
        prog.nprocs.append(len(tree))
        for role, mib in by_role.items():
            prog.pss_by_role.setdefault(role, []).append(mib)
        for msg in events:
            if msg.get("type") == "startup" and isinstance(msg.get("monotonic"), (int, float)):
                prog.phases.setdefault(str(msg.get("phase")), []).append(msg["monotonic"] - t0_monotonic_ms)
    return f"{elapsed:7.1f} ms  {pss:6.1f} MiB  {len(tree)} procs"


def main() -> int:
    signal.signal(signal.SIGTERM, exit_on_sigterm)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vitrine", default=str(REPO_DIR / ".build" / "release" / "vitrine"),
                    help="vitrine executable (default: .build/release/vitrine in the repo)")
    ap.add_argument("--runs", type=int, default=10, help="measured runs per program (default 10)")
    ap.add_argument("--warmup", type=int, default=1,
                    help="unrecorded runs per program first, to warm disk caches (default 1)")
    ap.add_argument("--page", help="URL to load (default: a generated page on a loopback server)")
    ap.add_argument("--page-kind", choices=sorted(PAGES), default="app",
                    help="the generated page: 'app' has an inline script, 'static' none (default app)")
    ap.add_argument("--timeout", type=float, default=30.0,
                    help="seconds to wait for load-finished before failing a run (default 30)")
    ap.add_argument("--settle", type=float, default=1.0,
                    help="seconds to wait after load-finished before measuring PSS (default 1)")
    ap.add_argument("--c-user-script", metavar="JS",
                    help="give the C program this document-start user script (e.g. 'void 0')")
    ap.add_argument("--c-env", metavar="NAME=VALUE", action="append", default=[],
                    help="one more environment variable for the C program, repeatable "
                         "(e.g. WEBKIT_DISABLE_DMABUF_RENDERER=1, what Vitrine sets with compositing off)")
    ap.add_argument("--vitrine-arg", metavar="ARG", action="append", default=[],
                    help="one more argument for vitrine, repeatable (e.g. --vitrine-arg=--no-sandbox)")
    ap.add_argument("--c-defaults", action="store_true",
                    help="the C program keeps WebKit's defaults (no sandbox, compositing on) instead of "
                         "Vitrine's choices: the comparison of earlier figures")
    ap.add_argument("--noise", action="store_true",
                    help="also run the C program a second time in each run ('C again'): its ratios to C "
                         "are this machine's noise in the same minutes")
    ap.add_argument("--gate", type=float, metavar="RATIO",
                    help="exit 1 when a ratio (start-up, memory) exceeds RATIO and the noise band")
    ap.add_argument("--no-trace", action="store_true",
                    help="do not ask for the start-up trace (a Vitrine without --startup-trace)")
    ap.add_argument("--verbose", action="store_true", help="pass the programs' stderr through")
    args = ap.parse_args()
    if args.c_user_script:
        os.environ["MINIMAL_WEBKIT_USER_SCRIPT"] = args.c_user_script  # inherited by the C program
    if any("=" not in item or item.startswith("=") for item in args.c_env):
        ap.error("--c-env takes NAME=VALUE")
    c_env = dict(item.split("=", 1) for item in args.c_env)  # a name given twice: the last value
    if args.runs < 1 or args.warmup < 0:
        ap.error("--runs must be >= 1 and --warmup >= 0")

    c_binary = build_c_program(C_SOURCE, C_BINARY)
    vitrine = Path(args.vitrine)
    if not (vitrine.is_file() and os.access(vitrine, os.X_OK)):
        sys.exit(f"error: {vitrine} is not an executable (run `swift build -c release` first)")
    ensure_display(__file__)  # may re-exec this script under xvfb-run

    trace = [] if args.no_trace else ["--startup-trace"]
    progs = [
        Program("vitrine", [str(vitrine.resolve())], extra_args=["--events", "-"] + trace + args.vitrine_arg),
        Program("C", [str(c_binary)], extra_args=["--trace"], env=c_env),
    ]
    if args.noise:
        progs.append(Program("C again", [str(c_binary)], extra_args=["--trace"], env=c_env))
    bus = server = None
    try:
        bus = start_session_bus(args.verbose)
        url = args.page
        if url is None:
            server, url = start_page_server(args.page_kind)
        if not args.c_defaults:
            # Vitrine's choices for this machine, from an unrecorded run's events.
            status = run_once(progs[0], url, args.timeout, args.settle, False, args.verbose)
            print(f"{'choices':<12} {'vitrine':<8} {status}", flush=True)
            for prog in progs[1:]:
                prog.extra_args += same_work_args(progs[0].events, args.vitrine_arg)
        print(f"page:    {url}{'' if args.page else f' ({args.page_kind} page)'}\n"
              f"vitrine: {vitrine}{' ' + ' '.join(args.vitrine_arg) if args.vitrine_arg else ''}\n"
              f"C:       {c_binary.relative_to(REPO_DIR)} {' '.join(progs[1].extra_args)}"
              f"{' (WebKit defaults)' if args.c_defaults else ' (the same work)'}"
              f"{f' (user script: {args.c_user_script})' if args.c_user_script else ''}"
              f"{''.join(f' {name}={value}' for name, value in c_env.items())}\n"
              f"D-Bus:   {'private session bus' if bus else 'inherited session bus'}", flush=True)

        interleave(progs, args.runs, args.warmup,
                   lambda prog, record: run_once(prog, url, args.timeout, args.settle, record, args.verbose))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        clean_up(server, bus)

    report(progs, args.runs)
    if not all(p.startup_ms for p in progs):
        return 1
    if args.gate is not None:
        failures = gate_failures(progs, args.gate)
        for failure in failures:
            print(f"gate: {failure}")
        print(f"gate (at most {args.gate:.2f}, or the noise band if wider): {'FAILED' if failures else 'ok'}")
        return 1 if failures else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
