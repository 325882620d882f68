#!/usr/bin/env python3
"""Script-message round-trip benchmark: vitrine's `ping` vs. a C WebKitGTK echo.

Both programs load the same page, benchmarks/ipc/ipc.html, from a loopback
http.server; only the handler name in its query string differs (`ping` for
vitrine, `echo` for c/echo-webkit.c, whose reply handler returns the value it
got). After a warm-up the page measures, with 16 B and 100 KB string payloads
(--kind string), objects {s: string of 16 B or 100 KB, n: 1} (--kind object), or
Uint8Arrays of 100 KB and 1 MB (--kind binary):

  round trip  mean ms of N sequential calls, each awaited;
  throughput  messages per second with 64 calls in flight;

checks every reply against what it sent, and POSTs its results to /result.
Runs are interleaved (the order alternates every run). The script prints the
medians per program and the ratios vitrine / C. Python 3 stdlib only.

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
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from harness import (clean_up, interleave, serve, LoopbackHandler, BENCH_DIR, BIN_DIR, LIVE, REPO_DIR, build_c_program, ensure_display,
                     exit_on_sigterm, process_tree, start_session_bus, stat_fields, stop)

C_SOURCE = BENCH_DIR / "c" / "echo-webkit.c"
C_BINARY = BIN_DIR / "echo-webkit"
PAGE_FILE = BENCH_DIR / "ipc" / "ipc.html"
MAX_RESULT_BYTES = 1 << 20

from ipc_report import METRICS, SIZE_LABELS, report

# --------------------------------------------------------------------------- server

class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, page: bytes):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.page = page
        self.results: queue.Queue[dict] = queue.Queue()


class _Handler(LoopbackHandler):
    """GET /ipc.html: the page. POST /result: a run's results, queued. Nothing else."""

    server: _Server

    def do_GET(self) -> None:  # noqa: N802 (stdlib naming)
        if urlsplit(self.path).path == "/ipc.html":
            self.reply(200, self.server.page, "text/html; charset=utf-8")
        else:
            self.reply(404)  # the favicon, mostly

    def do_POST(self) -> None:  # noqa: N802
        if urlsplit(self.path).path != "/result":
            self.reply(404)
            return
        length = int(self.headers.get("Content-Length") or 0)
        if not 0 < length <= MAX_RESULT_BYTES:
            self.reply(413)
            return
        try:
            data = json.loads(self.rfile.read(length))
            if not isinstance(data, dict):
                raise ValueError("not an object")
        except ValueError as err:
            self.reply(400)
            self.server.results.put({"run": None, "error": f"malformed result POST: {err}"})
            return
        self.reply(204)
        self.server.results.put(data)

def start_server() -> tuple[_Server, str]:
    """Serve the page on loopback only, on a free port chosen by the kernel."""
    server = _Server(PAGE_FILE.read_bytes())
    return server, serve(server, "ipc-server") + "/ipc.html"


# --------------------------------------------------------------------------- runs

@dataclass
class Program:
    name: str
    argv: list[str]        # the page URL goes after argv[0]
    handler: str
    api: str = "postMessage"
    params: dict[str, str] = field(default_factory=dict)  # its own page parameters
    reordered: int = 0     # object replies whose members came back in another order
    values: dict[str, list[float]] = field(default_factory=lambda: {m[0]: [] for m in METRICS})
    bad_replies: int = 0   # mismatched or rejected replies, over all runs (warm-up included)
    cpu: dict[str, list[float]] = field(default_factory=dict)  # --cpu: role -> CPU ms per run
    failures: list[str] = field(default_factory=list)

    @property
    def ok_runs(self) -> int:
        return len(self.values["rt_small"])


class RunFailed(Exception):
    pass


def _stderr_tail(f, lines: int = 3) -> str:
    if f is None:
        return ""
    f.seek(0)
    tail = [l.strip() for l in f.read().decode("utf-8", "replace").splitlines() if l.strip()][-lines:]
    return ("; stderr: " + " | ".join(tail)) if tail else ""


def _count(value) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


def _bad(results: dict) -> tuple[int, list[str]]:
    """Mismatched plus rejected replies in a result, and the first messages about them."""
    total, notes = 0, []
    phases = [("warm-up", "", results.get("warmup") or {})]
    for phase in ("sequential", "throughput"):
        phases += [(phase, size, st) for size, st in (results.get(phase) or {}).items()]
    for phase, size, st in phases:
        if isinstance(st, dict):
            n = _count(st.get("mismatches")) + _count(st.get("errors"))
            total += n
            if n:
                notes.append(f"{phase} {size}".strip() +
                             f": {n} bad ({st.get('firstError') or st.get('firstMismatch')})")
    return total, notes


def _reordered(results: dict) -> int:
    """Object replies with their members in another order, over the phases of a result."""
    phases = [results.get("warmup") or {}]
    for phase in ("sequential", "throughput"):
        phases += list((results.get(phase) or {}).values())
    return sum(_count(st.get("reordered")) for st in phases if isinstance(st, dict))


TICK_MS = 1000.0 / os.sysconf("SC_CLK_TCK")


def cpu_ms_by_role(root: int) -> dict[str, float]:
    """CPU time (user + system, ms) used so far by root ("ui") and each kind of WebKit helper
    in its tree ("web", "network", anything else under its own name)."""
    roles: dict[str, float] = {}
    for pid in process_tree(root):
        stat = stat_fields(pid)
        if stat is None:
            continue
        comm, fields = stat
        ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
        # comm is cut to 15 bytes: "WebKitWebProces", "WebKitNetworkPr".
        role = ("ui" if pid == root else "web" if comm.startswith("WebKitWebProc")
                else "network" if comm.startswith("WebKitNetwork") else comm)
        roles[role] = roles.get(role, 0.0) + ticks * TICK_MS
    return roles


def run_once(prog: Program, server: _Server, page_url: str, page_params: dict,
             timeout_s: float, record: bool, verbose: bool, cpu: bool = False) -> str:
    """Start prog on the page, wait for its results, stop it.
    Returns a short status string for the progress log."""
    token = uuid.uuid4().hex
    url = page_url + "?" + urlencode({"handler": prog.handler, "api": prog.api,
                                      **page_params, **prog.params, "run": token})
    argv = prog.argv[:1] + [url] + prog.argv[1:]
    errlog = None if verbose else tempfile.TemporaryFile()
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=None if verbose else subprocess.DEVNULL,
        stderr=errlog,
        start_new_session=True,  # own process group: killpg reaches WebKit's children
    )
    LIVE.add(proc)
    tree: dict[int, int] = {}
    try:
        deadline = time.monotonic() + timeout_s
        next_scan = time.monotonic() + 2.0  # by then WebKit has started its helpers
        results = None
        while results is None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise RunFailed(f"no result within {timeout_s:.0f} s{_stderr_tail(errlog)}")
            try:
                got = server.results.get(timeout=min(remaining, 0.25))
            except queue.Empty:
                if proc.poll() is not None:
                    raise RunFailed(f"exited (status {proc.returncode}) before posting a result"
                                    f"{_stderr_tail(errlog)}")
                if time.monotonic() >= next_scan:  # rarely: /proc scans cost CPU time
                    tree.update(process_tree(proc.pid))  # remember helpers for stop()
                    next_scan += 10.0
                continue
            if got.get("run") == token:
                results = got
                cpu_row = cpu_ms_by_role(proc.pid) if cpu else {}
            elif got.get("run") is None:
                raise RunFailed(got.get("error", "malformed result"))
            # else: a straggler from an earlier run; ignore it

        # Mismatched or rejected replies are bugs wherever they happen, warm-up included.
        bad, notes = _bad(results)
        prog.bad_replies += bad
        prog.reordered += _reordered(results)
        if results.get("error"):
            raise RunFailed(f"page error: {results['error']}")
        try:
            seq, tp = results["sequential"], results["throughput"]
            row = {"rt_small": float(seq["small"]["meanMs"]), "rt_large": float(seq["large"]["meanMs"]),
                   "tp_small": float(tp["small"]["msgsPerSec"]),
                   "tp_large": float(tp["large"]["msgsPerSec"])}
            rejected = sum(_count(st["errors"]) for ph in (seq, tp) for st in ph.values())
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise RunFailed(f"incomplete result ({type(err).__name__}: {err})")
        if rejected:  # their timings would be those of an error path
            raise RunFailed("; ".join(notes))
    except RunFailed as err:
        if record:
            prog.failures.append(str(err))
        return f"FAILED: {err}"
    finally:
        stop(proc, tree)
        LIVE.discard(proc)
        if errlog is not None:
            errlog.close()

    if record:
        for key, value in row.items():
            prog.values[key].append(value)
        for role, value in cpu_row.items():
            prog.cpu.setdefault(role, []).append(value)
        for note in notes:
            prog.failures.append(f"mismatched replies: {note}")
    status = (f"rt {row['rt_small']:7.3f} / {row['rt_large']:7.3f} ms   "
              f"{row['tp_small']:7.0f} / {row['tp_large']:6.0f} msgs/s")
    return status + (f"   {bad} MISMATCHED" if bad else "")


def main() -> int:
    signal.signal(signal.SIGTERM, exit_on_sigterm)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--vitrine", default=str(REPO_DIR / ".build" / "release" / "vitrine"),
                    help="vitrine executable (default: .build/release/vitrine in the repo)")
    ap.add_argument("--vitrine-handler", default="ping",
                    help="handler name the page calls in vitrine (default ping; use echo when "
                         "--vitrine points at the C program, for a self-check)")
    ap.add_argument("--api", choices=["postMessage", "invoke"], default="postMessage",
                    help="how the page calls vitrine: window.webkit.messageHandlers.NAME.postMessage "
                         "(default) or vitrine.invoke. The C program always gets postMessage")
    ap.add_argument("--kind", choices=sorted(SIZE_LABELS), default="string",
                    help="payloads: string (16 B, 100 KB; default), object ({s, n} with a 16 B or "
                         "100 KB string) or binary (Uint8Array of 100 KB, 1 MB; the C program's page "
                         "sends base64 text with the engine's codec, Vitrine's SDK carries the array)")
    ap.add_argument("--events", default="/dev/null", metavar="PATH",
                    help="vitrine's --events argument (default /dev/null; '' to leave it out)")
    ap.add_argument("--runs", type=int, default=5, help="measured runs per program (default 5)")
    ap.add_argument("--warmup", type=int, default=0,
                    help="unrecorded runs per program first (default 0; the page warms up itself)")
    ap.add_argument("--seq", type=int, default=2000,
                    help="sequential round trips per payload size (default 2000)")
    ap.add_argument("--small", type=int, default=20000,
                    help="messages in the 16 B throughput burst (default 20000)")
    ap.add_argument("--large", type=int, default=1000,
                    help="messages in the 100 KB throughput burst (default 1000)")
    ap.add_argument("--inflight", type=int, default=64,
                    help="calls in flight during a burst (default 64)")
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds to wait for a run's results before failing it (default 60)")
    ap.add_argument("--compare", metavar="PATH",
                    help="another vitrine build (an earlier commit's, say) run in the same interleaved "
                         "runs; its ratios to C are printed after vitrine's")
    ap.add_argument("--noise", action="store_true",
                    help="also run the C program a second time in each run ('C again'): its ratios "
                         "to C are the noise of this machine, the band Vitrine's ratios are read in")
    ap.add_argument("--cpu", action="store_true",
                    help="also report the CPU time each program's processes used (UI, web, network)")
    ap.add_argument("--verbose", action="store_true",
                    help="pass the programs' stdout and stderr through")
    args = ap.parse_args()
    if args.runs < 1 or args.warmup < 0 or min(args.seq, args.small, args.large, args.inflight) < 1:
        ap.error("--runs, --seq, --small, --large and --inflight must be >= 1, --warmup >= 0")

    c_binary = build_c_program(C_SOURCE, C_BINARY)
    vitrine = Path(args.vitrine)
    if not (vitrine.is_file() and os.access(vitrine, os.X_OK)):
        sys.exit(f"error: {vitrine} is not an executable (run `swift build -c release` first)")
    ensure_display(__file__)  # may re-exec this script under xvfb-run
    small, large = SIZE_LABELS[args.kind]

    events = ["--events", args.events] if args.events else []
    # The self-check (the C program on both sides) encodes bytes in the page on both.
    own = {"encode": "page"} if args.vitrine_handler == "echo" else {}
    progs = [Program("vitrine", [str(vitrine.resolve())] + events, args.vitrine_handler, api=args.api, params=own)]
    if args.compare:
        # Another build of Vitrine in the same interleaved runs: on a noisy machine two
        # builds are only comparable against the same C runs.
        other = Path(args.compare)
        if not (other.is_file() and os.access(other, os.X_OK)):
            sys.exit(f"error: --compare {other} is not an executable")
        progs.append(Program("compare", [str(other.resolve())] + events, args.vitrine_handler, api=args.api))
    if args.noise:
        progs.append(Program("C again", [str(c_binary)], "echo", params={"encode": "page"}))
    progs.append(Program("C", [str(c_binary)], "echo", params={"encode": "page"}))
    page_params = {"kind": args.kind, "seq": args.seq, "small": args.small, "large": args.large,
                   "inflight": args.inflight}
    if args.kind == "binary":  # ten times larger payloads: a tenth as many large ones
        page_params.update(seqLarge=max(1, args.seq // 10), small=args.large, large=max(1, args.large // 10))
    bus = server = None
    try:
        bus = start_session_bus(args.verbose)
        server, page_url = start_server()
        print(f"page:    {page_url}\n"
              f"vitrine: {vitrine} (handler {args.vitrine_handler}, {args.api})\n"
              + (f"compare: {args.compare}\n" if args.compare else "") +
              f"C:       {c_binary.relative_to(REPO_DIR)} (handler echo, postMessage)\n"
              f"D-Bus:   {'private session bus' if bus else 'inherited session bus'}\n"
              f"kind:    {args.kind}\n"
              f"load:    {page_params['seq']} / {page_params.get('seqLarge', args.seq)} sequential calls; "
              f"bursts of {page_params['small']} x {small} and {page_params['large']} x {large}, "
              f"{args.inflight} in flight", flush=True)
        print(f"{'':<22}{f'round trip {small} / {large}':<23}   throughput {small} / {large}")

        interleave(progs, args.runs, args.warmup,
                   lambda prog, record: run_once(prog, server, page_url, page_params, args.timeout,
                                                     record, args.verbose, args.cpu))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        clean_up(server, bus)

    report(progs, args.runs, args.kind)
    if any(p.bad_replies for p in progs):
        print("error: some replies did not equal what was sent", file=sys.stderr)
        return 1
    return 0 if all(p.ok_runs for p in progs) else 1


if __name__ == "__main__":
    sys.exit(main())
