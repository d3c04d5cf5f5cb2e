"""How fast each Linux signal of the cores in use sees a process that starts keeping one core busy.

The default thread count (:mod:`kernel._threads`) reads the runnable tasks of ``/proc/loadavg``; this
prints it beside the idle time of ``/proc/stat`` over 50 and 200 ms and ``os.getloadavg``'s one-minute
average, before a busy process starts, 0.3 s and 3.3 s after, and 0.3 s after it stops::

    python -m bench.core_signals
"""

from __future__ import annotations

import os
import subprocess
import sys
import time


def runnable_others() -> int:
    """The runnable tasks of the machine but this one (``/proc/loadavg``, its fourth field)."""
    with open("/proc/loadavg", encoding="ascii") as handle:
        return int(handle.read().split()[3].split("/")[0]) - 1


def busy_from_stat(interval: float) -> float:
    """Cores busy over ``interval`` seconds by ``/proc/stat``'s idle and iowait time."""
    def idle_total():
        with open("/proc/stat", encoding="ascii") as handle:
            values = [int(v) for v in handle.readline().split()[1:]]
        return values[3] + values[4], sum(values)

    idle0, total0 = idle_total()
    time.sleep(interval)
    idle1, total1 = idle_total()
    return (1 - (idle1 - idle0) / max(1, total1 - total0)) * (os.cpu_count() or 1)


def sample(label: str) -> str:
    counts = [runnable_others() for _ in range(50)]
    return (f"{label}: /proc/loadavg runnable others min/mean/max {min(counts)}/{sum(counts) / len(counts):.2f}/"
            f"{max(counts)}; /proc/stat busy cores over 50 ms {busy_from_stat(0.05):.2f}, over 200 ms "
            f"{busy_from_stat(0.2):.2f}; os.getloadavg 1-minute {os.getloadavg()[0]:.2f}")


def main() -> None:
    print(f"{len(os.sched_getaffinity(0))} cores for this process")
    print(sample("before"))
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)
        print(sample("0.3 s after a process started keeping a core busy"))
        time.sleep(3)
        print(sample("3.3 s after"))
    finally:
        busy.kill()
        busy.wait()
    time.sleep(0.3)
    print(sample("0.3 s after it stopped"))


if __name__ == "__main__":
    main()
