"""CPU seconds used so far, read from ``/proc`` (Linux): by one process, or by the machine.

The benches compare readings taken before and after the work they measure.
"""

from __future__ import annotations

import os
from pathlib import Path

TICKS_PER_SECOND = float(os.sysconf("SC_CLK_TCK"))


def process_cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of ``pid`` (``/proc/<pid>/stat``); 0.0 once it has ended."""
    try:
        fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS_PER_SECOND  # utime + stime


def machine_cpu_seconds() -> float:
    """CPU seconds every process on the machine has used so far (other people's work too:
    ``steal`` is time the host gave to other machines while this one wanted to run)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND
