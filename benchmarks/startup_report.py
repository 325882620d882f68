"""The start-up benchmark's report (benchmarks/startup.py): medians, the ratios of Vitrine
to the C program, the noise band (the C program against itself), each start-up phase's
median, and the gate."""
from __future__ import annotations

import statistics

# The phases in the order a start reaches them (StartupPhase in Sources/Vitrine).
PHASES = ["process-start", "options-parsed", "configured", "gtk-initialized", "sandbox-probed",
          "web-context", "first-view", "load-requested", "registered", "window-shown",
          "load-started", "load-committed", "load-finished"]


def _fmt(values: list[float], fn, spec: str) -> str:
    return format(fn(values), spec) if values else "-"


def _stdev(values: list[float]) -> float:
    return statistics.stdev(values) if len(values) > 1 else 0.0


def ratio(prog, reference, metric: str) -> float | None:
    """The median of `metric` ('startup_ms' or 'pss_mib') of prog over reference's."""
    values, base = getattr(prog, metric), getattr(reference, metric)
    return statistics.median(values) / statistics.median(base) if values and base else None


def _paired(prog, reference, metric: str) -> str:
    """Run by run (run i of each program ran side by side): the median and range of ratios."""
    values, base = getattr(prog, metric), getattr(reference, metric)
    if len(values) != len(base) or len(values) < 2:
        return ""
    ratios = sorted(v / r for v, r in zip(values, base))
    return f"   run by run: {statistics.median(ratios):.2f} [{ratios[0]:.2f}-{ratios[-1]:.2f}]"


def noise_band(progs, metric: str) -> float | None:
    """How far the C program strays from itself in the same runs: the ratio of 'C again' to C
    or its inverse, whichever is above 1 (None without --noise)."""
    again = next((p for p in progs if p.name == "C again"), None)
    value = ratio(again, progs[1], metric) if again else None
    return max(value, 1 / value) if value else None


def gate_failures(progs, limit: float) -> list[str]:
    """The ratios of Vitrine to C beyond `limit` and beyond the noise band measured."""
    vit, c = progs[0], progs[1]
    failures = []
    for metric, label in (("startup_ms", "start-up"), ("pss_mib", "memory")):
        value, band = ratio(vit, c, metric), noise_band(progs, metric)
        bound = max(limit, band or 0)
        if value is None or value > bound:
            failures.append(f"{label} ratio {value if value is None else format(value, '.2f')} "
                            f"> {bound:.2f} (limit {limit:.2f}, noise band {band or 0:.2f})")
    return failures


def phase_table(progs) -> None:
    """Each phase's median time since spawn, per program, and Vitrine's minus C's."""
    if not any(p.phases for p in progs):
        return
    vit, c = progs[0], progs[1]
    print()
    header = f"{'phase (ms since spawn, median)':<32}" + "".join(f"{p.name:>10}" for p in progs) + f"{'vitrine-C':>11}"
    print(header)
    print("-" * len(header))
    for phase in PHASES:
        if not any(phase in p.phases for p in progs):
            continue
        medians = [statistics.median(p.phases[phase]) if p.phases.get(phase) else None for p in progs]
        cells = "".join(f"{m:>10.1f}" if m is not None else f"{'-':>10}" for m in medians)
        diff = f"{medians[0] - medians[1]:>+11.1f}" if medians[0] is not None and medians[1] is not None else f"{'':>11}"
        print(f"{phase:<32}{cells}{diff}")
    print("(a phase a program does not go through is '-'; Vitrine's sandbox probe and bus registration "
          "have no C counterpart)")


def memory_table(progs) -> None:
    """Each process role's median PSS, per program (the UI process is 'ui')."""
    roles = sorted({r for p in progs for r in p.pss_by_role}, key=lambda r: (r != "ui", not r.startswith("WebKit"), r))
    if not roles:
        return
    print()
    header = f"{'PSS MiB by process (median)':<32}" + "".join(f"{p.name:>10}" for p in progs)
    print(header)
    print("-" * len(header))
    for role in roles:
        print(f"{role:<32}" + "".join(f"{_fmt(p.pss_by_role.get(role, []), statistics.median, '.1f'):>10}" for p in progs))


def report(progs, runs: int) -> None:
    print()
    header = f"{'program':<10} {'ok':>5} {'median ms':>10} {'mean ms':>9} {'stdev ms':>9} " \
             f"{'median PSS MiB':>15} {'procs':>5}"
    print(header)
    print("-" * len(header))
    for p in progs:
        procs = _fmt(p.nprocs, statistics.median, ".0f")
        print(f"{p.name:<10} {len(p.startup_ms):>2}/{runs:<2} "
              f"{_fmt(p.startup_ms, statistics.median, '.1f'):>10} "
              f"{_fmt(p.startup_ms, statistics.mean, '.1f'):>9} "
              f"{_fmt(p.startup_ms, _stdev, '.1f'):>9} "
              f"{_fmt(p.pss_mib, statistics.median, '.1f'):>15} {procs:>5}")
    phase_table(progs)
    memory_table(progs)
    c = progs[1]
    print()
    for prog in [progs[0]] + progs[2:]:
        startup, memory = ratio(prog, c, "startup_ms"), ratio(prog, c, "pss_mib")
        if startup is None or memory is None:
            print(f"ratios ({prog.name} / C): n/a (a program has no successful run)")
            continue
        print(f"startup ratio ({prog.name} / C): {startup:.2f}{_paired(prog, c, 'startup_ms')}")
        print(f"memory ratio ({prog.name} / C): {memory:.2f}{_paired(prog, c, 'pss_mib')}")
    for p in progs:
        for msg in p.failures:
            print(f"failed run ({p.name}): {msg}")
