#!/usr/bin/env python3
"""Writes packaging/startup-order.txt: the functions `vitrine` runs from process start to
its first page load, for lld's --symbol-ordering-file (see packaging/release-build.mk).

How: a release build linked the ordinary way (valgrind cannot read the debug information
of an lld-linked one), stripped of its debug sections, runs under valgrind's callgrind on
the startup benchmark's page until `load finished` plus a settle time; every function of
the program that callgrind saw run is listed, once. Re-run after large changes; a stale
list costs a little memory, never correctness.

    python3 packaging/startup-order.py            # builds .build-order, then profiles
    python3 packaging/startup-order.py --vitrine PATH

Needs valgrind, binutils (strip) and what benchmarks/startup.py needs. Python 3 stdlib.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
import harness  # noqa: E402
import startup  # noqa: E402

OUTPUT = REPO / "packaging" / "startup-order.txt"
HEADER = """\
# Functions vitrine runs from start to its first page load, in the order callgrind listed
# them; laid out together by lld (packaging/release-build.mk). Made by
# packaging/startup-order.py — do not edit by hand.
"""


def build(swift: str) -> Path:
    scratch = REPO / ".build-order"
    # The system libraries' flags from the flattened .pc files (packaging/pkg-config.mk).
    subprocess.run(["make", "--no-print-directory", "-s", "pkg-config-dir", f"SWIFT={swift}"], cwd=REPO, check=True)
    subprocess.run([swift, "build", "-c", "release", "--static-swift-stdlib", "--product", "vitrine",
                    "--pkg-config-path", str(REPO / ".build" / "pkg-config"),
                    "--scratch-path", str(scratch)], cwd=REPO, check=True)
    return scratch / "release" / "vitrine"


def profile(binary: Path, settle_s: float, timeout_s: float) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="vitrine-order-") as tmp:
        program = Path(tmp) / "vitrine"
        subprocess.run(["strip", "--strip-debug", "-o", str(program), str(binary)], check=True)
        out = Path(tmp) / "callgrind.out"
        server, url = startup.start_page_server()
        bus = harness.start_session_bus(verbose=False)
        try:
            proc = subprocess.Popen(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--demangle=no",
                 "--compress-strings=no", "--dump-instr=no", "--dump-line=no",
                 str(program), url, "--events", "-", "--new-instance"],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True, errors="replace", start_new_session=True)
            deadline = time.monotonic() + timeout_s
            for line in proc.stdout:
                if startup._is_load_finished(startup._event(line)):
                    break
                if time.monotonic() > deadline:
                    sys.exit("error: no load-finished under valgrind in time")
            else:
                sys.exit("error: vitrine exited under valgrind before its page loaded")
            time.sleep(settle_s)
            os.killpg(proc.pid, signal.SIGTERM)  # callgrind writes its file on exit
            proc.wait(timeout=120)
            harness.stop(proc, {})
        finally:
            harness.clean_up(server, bus)
        return functions_of(out, program.name)


def functions_of(callgrind_out: Path, object_name: str) -> list[str]:
    """Names of the functions callgrind recorded in `object_name`, first seen first."""
    names, seen, current = [], set(), None
    with open(callgrind_out, errors="replace") as f:
        for line in f:
            if line.startswith("ob="):
                current = line[3:].strip()
            elif line.startswith("fn=") and current and Path(current).name == object_name:
                name = re.sub(r"'\d+$", "", line[3:].strip())  # callgrind's recursion marks
                if name and not name.startswith("0x") and name not in seen:
                    seen.add(name)
                    names.append(name)
    return names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vitrine", type=Path, help="a release build (default: build one in .build-order)")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds after load finished (2)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for the load (300)")
    args = parser.parse_args()
    harness.ensure_display(__file__)
    if not shutil.which("valgrind"):
        sys.exit("error: valgrind not found (apt-get install valgrind)")
    binary = args.vitrine or build(os.environ.get("SWIFT", "swift"))
    names = profile(binary, args.settle, args.timeout)
    if len(names) < 100:
        sys.exit(f"error: only {len(names)} functions recorded; is {binary} a vitrine build?")
    OUTPUT.write_text(HEADER + "\n".join(names) + "\n")
    print(f"{OUTPUT.relative_to(REPO)}: {len(names)} functions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
