"""What every benchmark script needs: time a call many times, summarise the samples."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def timings(run: Callable[[], object], repeat: int) -> list[float]:
    """Seconds per call of ``run``, one entry per call (wall time, ``perf_counter``)."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        out.append(time.perf_counter() - start)
    return out


def summary(samples: list[float], unit: float, suffix: str, digits: int = 1) -> str:
    """``median … p95 … max … (n=…)`` of ``samples`` in ``unit`` (e.g. 1e-3 with "ms")."""
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"median {statistics.median(ordered) / unit:8.{digits}f} {suffix}"
        f"  p95 {p95 / unit:8.{digits}f} {suffix}  max {ordered[-1] / unit:8.{digits}f} {suffix}"
        f"  (n={len(ordered)})"
    )
