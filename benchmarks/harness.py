"""Shared plumbing for the benchmarks in this directory (Python 3 stdlib only).

Used by startup.py and ipc.py: re-exec under xvfb-run when there is no
display, build a C baseline, one private D-Bus session bus for the whole
benchmark, walk a program's process tree through /proc, and stop that tree.
See benchmarks/README.md.
"""
from __future__ import annotations

import http.server
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
BIN_DIR = BENCH_DIR / "bin"

# Set when we re-exec under xvfb-run, so a broken xvfb cannot make us loop.
REEXEC_GUARD = "VITRINE_BENCH_UNDER_XVFB"
XVFB_ARGS = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24"]

# Bounds for shutting a program down: SIGTERM, then SIGKILL.
TERM_GRACE_S = 5.0
KILL_GRACE_S = 5.0

# Programs still running, so that an interrupted benchmark can stop them.
LIVE: set[subprocess.Popen] = set()


# --------------------------------------------------------------------------- setup

def ensure_display(script: str | Path) -> None:
    """Re-exec `script` under xvfb-run if there is no display to open a window on."""
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return
    if os.environ.get(REEXEC_GUARD):
        sys.exit("error: still no DISPLAY after re-exec under xvfb-run")
    if not shutil.which("xvfb-run"):
        sys.exit("error: no DISPLAY and xvfb-run not found; run under a display or install xvfb")
    print("no DISPLAY: re-running under xvfb-run", file=sys.stderr, flush=True)
    env = dict(os.environ, **{REEXEC_GUARD: "1"})
    argv = XVFB_ARGS + [sys.executable, str(Path(script).resolve())] + sys.argv[1:]
    os.execvpe(argv[0], argv, env)


def build_c_program(source: Path, binary: Path) -> Path:
    """Compile a C baseline if the binary is missing or older than its source."""
    if binary.exists() and binary.stat().st_mtime >= source.stat().st_mtime:
        return binary
    binary.parent.mkdir(parents=True, exist_ok=True)
    flags = subprocess.run(
        ["pkg-config", "--cflags", "--libs", "webkit2gtk-4.1"],
        check=True, capture_output=True, text=True, timeout=30,
    ).stdout.split()
    cmd = ["cc", "-O2", "-Wall", "-o", str(binary), str(source), *flags]
    print("building", binary.relative_to(REPO_DIR), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, timeout=120)
    return binary


def start_session_bus(verbose: bool) -> subprocess.Popen | None:
    """Give the benchmark one private D-Bus session bus if there is none.

    Without a session bus GLib autolaunches one (dbus-launch, dbus-daemon,
    the AT-SPI bus) inside *every* program run: tens of ms of noise, and
    processes that escape the measured tree. A desktop always has a bus, so
    one shared bus for all runs is both fairer and closer to real use.
    """
    if os.environ.get("DBUS_SESSION_BUS_ADDRESS") or not shutil.which("dbus-daemon"):
        return None
    bus = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
        stderr=None if verbose else subprocess.DEVNULL,  # it logs every activation
        start_new_session=True,
    )
    ready, _, _ = select.select([bus.stdout], [], [], 10.0)
    address = bus.stdout.readline().strip() if ready else ""
    if not address:
        stop(bus, {})
        sys.exit("error: private dbus-daemon did not report its address")
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = address  # inherited by every run
    return bus


class LoopbackHandler(http.server.BaseHTTPRequestHandler):
    """Base of the benchmarks' request handlers: replies are never cached (every run
    fetches its page anew) and requests are not logged (clean benchmark output)."""

    def reply(self, status: int, body: bytes = b"", ctype: str = "text/plain") -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(body)

    def log_message(self, fmt: str, *args) -> None:
        pass


def serve(server: http.server.HTTPServer, name: str) -> str:
    """Runs `server` (bound to 127.0.0.1, port 0) on a daemon thread; returns its base
    URL, `http://127.0.0.1:PORT`."""
    threading.Thread(target=server.serve_forever, name=name, daemon=True).start()
    host, port = server.server_address[:2]
    return f"http://{host}:{port}"


def exit_on_sigterm(signum, frame):
    """SIGTERM handler: unwinds through the finally blocks that stop children."""
    raise SystemExit(128 + signum)


# --------------------------------------------------------------------------- /proc

def stat_fields(pid: int) -> tuple[str, list[str]] | None:
    """A process's comm (field 2 of /proc/PID/stat) and the fields after it (fields[0] is
    field 3, state), or None if it is gone."""
    try:
        data = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # comm may contain spaces or ')', so split after the last ')'.
    return data[data.find("(") + 1:data.rfind(")")], data[data.rfind(")") + 2:].split()


def read_stat(pid: int) -> tuple[int, int, int] | None:
    """(ppid, session id, start time) of a process, or None if it is gone."""
    stat = stat_fields(pid)
    if stat is None:
        return None
    fields = stat[1]  # ppid=4, session=6, starttime=22
    return int(fields[1]), int(fields[3]), int(fields[19])


def process_tree(root: int) -> dict[int, int]:
    """{pid: starttime} for root and all its descendants.

    Follows ppid links; also takes any process in root's session (root is a
    session leader, see spawn) so that a helper which double-forked and got
    reparented to init is still counted.
    """
    stats = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            st = read_stat(int(entry.name))
            if st is not None:
                stats[int(entry.name)] = st
    if root not in stats:
        return {}
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    tree, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid not in tree:
            tree.add(pid)
            todo.extend(children.get(pid, ()))
    tree.update(pid for pid, (_, sid, _) in stats.items() if sid == root)
    return {pid: stats[pid][2] for pid in tree}


def pss_kib(pid: int) -> int:
    """Pss of one process in KiB (0 if it vanished or is a kernel thread)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


# --------------------------------------------------------------------------- processes

def pump_lines(stream, lines) -> None:
    """Move a pipe's lines into a queue; also keeps the pipe drained so a chatty
    program never blocks on a full pipe. None marks EOF."""
    for line in stream:
        lines.put(line)
    lines.put(None)


def stop(proc: subprocess.Popen, known: dict[int, int]) -> None:
    """SIGTERM the process group, then SIGKILL it; finally SIGKILL any process
    seen in the tree that is still alive (e.g. one that left the group), matching
    pid *and* start time so that a recycled pid is never hit."""
    if proc.poll() is None:
        known = {**known, **process_tree(proc.pid)}
    for sig, grace in ((signal.SIGTERM, TERM_GRACE_S), (signal.SIGKILL, KILL_GRACE_S)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=grace)
            break
        except subprocess.TimeoutExpired:
            continue
    for pid, start in known.items():
        st = read_stat(pid)
        if pid != proc.pid and st is not None and st[2] == start:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


# --------------------------------------------------------------------------- runs

def interleave(progs, runs: int, warmup: int, run_one) -> None:
    """Warm-up runs, then recorded runs; each run starts every program once, alternating
    which goes first so order effects cancel out. run_one(prog, record) -> status line."""
    for i in range(warmup + runs):
        record = i >= warmup
        label = f"run {i - warmup + 1}/{runs}" if record else f"warm-up {i + 1}"
        order = progs if i % 2 == 0 else progs[::-1]
        for prog in order:
            status = run_one(prog, record)
            print(f"{label:<12} {prog.name:<8} {status}", flush=True)


def clean_up(server, bus) -> None:
    """Stops what a benchmark started: programs still running (only when interrupted
    mid-run), the page server, the private session bus."""
    for proc in list(LIVE):
        stop(proc, {})
    if server is not None:
        server.shutdown()
        server.server_close()
    if bus is not None:
        stop(bus, {})
