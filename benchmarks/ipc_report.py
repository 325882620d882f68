"""The IPC benchmark's report (benchmarks/ipc.py): the table of medians and the ratios
of Vitrine to the C echo, against the targets."""
from __future__ import annotations

import statistics

# Targets from the brief (issue 16); reported, not enforced by the exit status.
ROUND_TRIP_TARGET = 1.0  # vitrine / C, at most
THROUGHPUT_TARGET = 1.0  # vitrine / C, at least

# The payload sizes of each --kind, as the page has them (small, large).
SIZE_LABELS = {"string": ("16 B", "100 KB"), "object": ("16 B", "100 KB"), "binary": ("100 KB", "1 MB")}

METRICS = [  # (key, column header, format, lower is better)
    ("rt_small", "rt 16 B ms", ".3f", True),
    ("rt_large", "rt 100 KB ms", ".3f", True),
    ("tp_small", "msgs/s 16 B", ".0f", False),
    ("tp_large", "msgs/s 100 KB", ".0f", False),
]


def _split_size(header: str) -> list[str]:
    """A column header's words, with a size ("16 B", "100 KB") as one word."""
    for size in ("16 B", "100 KB"):
        if size in header:
            before, after = header.split(size)
            return before.split() + [size] + after.split()
    return header.split()


def _median(values: list[float], spec: str) -> str:
    return format(statistics.median(values), spec) if values else "-"


def _paired(values: list[float], reference: list[float]) -> str:
    """Run by run (the runs are interleaved, so run i of each program ran side by side): the
    median and range of the ratios; empty unless both programs have every run."""
    if len(values) != len(reference) or len(values) < 2:
        return ""
    ratios = sorted(v / r for v, r in zip(values, reference))
    return f"   run by run: {statistics.median(ratios):.2f} [{ratios[0]:.2f}-{ratios[-1]:.2f}]"


def report(progs: list[Program], runs: int, kind: str) -> None:
    small, large = SIZE_LABELS[kind]
    print()
    sized = {"16 B": small, "100 KB": large}
    header = f"{'program':<10} {'ok':>5} " + " ".join(
        f"{' '.join(sized.get(w, w) for w in _split_size(h)):>13}" for _, h, _, _ in METRICS) + \
        f" {'bad replies':>11}" + (f" {'reordered':>10}" if kind == "object" else "")
    print(header)
    print("-" * len(header))
    for p in progs:
        print(f"{p.name:<10} {p.ok_runs:>2}/{runs:<2} " +
              " ".join(f"{_median(p.values[k], spec):>13}" for k, _, spec, _ in METRICS) +
              f" {p.bad_replies:>11}" + (f" {p.reordered:>10}" if kind == "object" else ""))
    print("(medians over runs; rt = mean round trip of sequential calls, msgs/s with "
          "calls in flight)")
    c = progs[-1]
    for vit in progs[:-1]:  # vitrine, then the --compare build and --noise's C again, if any
        print()
        if not (vit.ok_runs and c.ok_runs):
            print(f"ratios ({vit.name}): n/a (a program has no successful run)")
            continue
        for key, label, target, lower in (
            ("rt_small", f"round-trip ratio {kind} {small}", ROUND_TRIP_TARGET, True),
            ("rt_large", f"round-trip ratio {kind} {large}", ROUND_TRIP_TARGET, True),
            ("tp_small", f"throughput ratio {kind} {small}", THROUGHPUT_TARGET, False),
            ("tp_large", f"throughput ratio {kind} {large}", THROUGHPUT_TARGET, False),
        ):
            ratio = statistics.median(vit.values[key]) / statistics.median(c.values[key])
            met = ratio <= target if lower else ratio >= target
            print(f"{label} ({vit.name} / C): {ratio:.2f}   "
                  f"(target {'<=' if lower else '>='} {target:.2f}: {'ok' if met else 'MISSED'})"
                  + _paired(vit.values[key], c.values[key]))
    if any(p.cpu for p in progs):
        print()
        roles = sorted({r for p in progs for r in p.cpu}, key=lambda r: (r not in ("ui", "web"), r))
        print(f"{'CPU ms':<10} " + " ".join(f"{r[:12]:>12}" for r in roles) + f" {'total':>12}")
        for p in progs:
            total = [sum(v) for v in zip(*p.cpu.values())] if p.cpu else []
            print(f"{p.name:<10} " + " ".join(f"{_median(p.cpu.get(r, []), '.0f'):>12}" for r in roles)
                  + f" {_median(total, '.0f'):>12}")
        print("(medians over runs of the CPU time each process used, from start to the posted result)")
    for p in progs:
        for msg in p.failures:
            print(f"failed run ({p.name}): {msg}" if not msg.startswith("mismatched")
                  else f"{p.name}: {msg}")
