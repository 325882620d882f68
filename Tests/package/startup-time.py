#!/usr/bin/env python3
"""Start-up time of vitrine builds: wall time of `BIN --exit-after-load` on the demo app.

Each run is a new process started from / (outside the source tree) with
VITRINE_RESOURCES unset, so every build finds its resources the way it would for a
user: the installed /usr/bin/vitrine in /usr/share/vitrine, a development build in the
source tree. The builds are interleaved, run by run, and share one X server.
With --drop-caches (root only) the kernel's page cache is dropped before every run,
so each start reads the program and WebKit's libraries from disk ("cold"). That cache is
the whole machine's: do not use --drop-caches while anything else is being measured.

Usage: xvfb-run -a -s "-screen 0 1280x1024x24" \\
           python3 Tests/package/startup-time.py [--runs 7] [--drop-caches] BIN...
(without a DISPLAY it re-runs itself under xvfb-run). Python 3 stdlib only.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binaries", nargs="+", help="vitrine executables to time")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--drop-caches", action="store_true",
                        help="drop the page cache before every run (needs root)")
    args = parser.parse_args()

    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        if os.environ.get("VITRINE_STARTUP_UNDER_XVFB") or not shutil.which("xvfb-run"):
            sys.exit("error: no DISPLAY (install xvfb or run under xvfb-run)")
        env = dict(os.environ, VITRINE_STARTUP_UNDER_XVFB="1")
        argv = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", sys.executable,
                os.path.abspath(__file__), *sys.argv[1:]]
        os.execvpe(argv[0], argv, env)

    binaries = [os.path.abspath(b) for b in args.binaries]
    env = {k: v for k, v in os.environ.items() if k != "VITRINE_RESOURCES"}
    env["NO_AT_BRIDGE"] = "1"
    times = {b: [] for b in binaries}

    # One untimed run each first: the first WebKit start on a machine pays for
    # font-cache and shader-cache creation that no later start sees.
    for b in binaries:
        subprocess.run([b, "--exit-after-load"], cwd="/", env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)

    for run in range(args.runs):
        order = binaries if run % 2 == 0 else list(reversed(binaries))
        for b in order:
            if args.drop_caches:
                os.sync()
                with open("/proc/sys/vm/drop_caches", "w") as f:
                    f.write("3\n")
            start = time.perf_counter()
            done = subprocess.run([b, "--exit-after-load"], cwd="/", env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)
            elapsed = time.perf_counter() - start
            if done.returncode != 0:
                sys.stderr.write(done.stderr.decode(errors="replace"))
                sys.exit(f"error: {b} exited {done.returncode}")
            times[b].append(elapsed)

    mode = "cold (page cache dropped before each run)" if args.drop_caches else "warm page cache"
    print(f"vitrine --exit-after-load on the demo app, {args.runs} runs each, {mode}")
    for b in binaries:
        t = times[b]
        print(f"  {b}: median {statistics.median(t):.3f} s  "
              f"(min {min(t):.3f}, max {max(t):.3f}; {', '.join(f'{x:.3f}' for x in t)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
