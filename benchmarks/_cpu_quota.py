"""The station's processes in a cgroup of their own: a CPU quota on them (`--cpu-quota CORES`, as
a Raspberry Pi's or an old laptop's share of a core), and their CPU time read from the cgroup's
accounting, which counts every process the station starts (the public side's, the card tables'
worker) and the ones that ended.

Linux only, as root: cgroup v2 (`cpu.max`, `cpu.stat`) or v1 (`cpu.cfs_quota_us` in the `cpu`
hierarchy, `cpuacct.usage` in the `cpuacct` one), whichever the machine mounts. Without either,
`CpuGroup.make` says why and the benchmark measures the processes alive (/proc) instead.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

PERIOD_US = 100_000


def _mounts() -> list[tuple[str, str, str]]:
    """(mount point, type, options) of each cgroup mount."""
    found = []
    with open("/proc/mounts") as f:
        for line in f:
            _, where, kind, opts, *_ = line.split()
            if kind in ("cgroup", "cgroup2"):
                found.append((where, kind, opts))
    return found


@dataclass
class CpuGroup:
    """A cgroup the station's processes are started in (`enter`, from the child before it
    runs the station), with a CPU quota or none."""

    dirs: tuple[Path, ...]  # every directory made (removed by `remove`)
    procs: Path  # where a process is put (v2: the one directory; v1: each hierarchy's)
    more_procs: tuple[Path, ...]
    usage: Path  # v2: cpu.stat (usage_usec); v1: cpuacct.usage (ns)
    v2: bool
    cores: float | None

    @classmethod
    def make(cls, cores: float | None) -> CpuGroup:
        name = f"bingo-hall-bench-{os.getpid()}"
        mounts = _mounts()
        v2 = [m for m in mounts if m[1] == "cgroup2"]
        v1_cpu = [m for m in mounts if m[1] == "cgroup" and "cpu" in m[2].split(",")]
        v1_acct = [m for m in mounts if m[1] == "cgroup" and "cpuacct" in m[2].split(",")]
        quota = "max" if cores is None else str(round(cores * PERIOD_US))
        if v1_cpu and v1_acct:
            cpu = Path(v1_cpu[0][0]) / name
            acct = Path(v1_acct[0][0]) / name
            cpu.mkdir(exist_ok=True)
            if acct != cpu:
                acct.mkdir(exist_ok=True)
            (cpu / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (cpu / "cpu.cfs_quota_us").write_text("-1" if cores is None else quota)
            dirs = (cpu,) if acct == cpu else (cpu, acct)
            more = () if acct == cpu else (acct / "cgroup.procs",)
            return cls(dirs, cpu / "cgroup.procs", more, acct / "cpuacct.usage", False, cores)
        for where, _, _ in v2:
            root = Path(where)
            if "cpu" not in (root / "cgroup.controllers").read_text().split():
                continue
            subtree = root / "cgroup.subtree_control"
            if "cpu" not in subtree.read_text().split():
                subtree.write_text("+cpu")
            group = root / name
            group.mkdir(exist_ok=True)
            (group / "cpu.max").write_text(f"{quota} {PERIOD_US}")
            return cls((group,), group / "cgroup.procs", (), group / "cpu.stat", True, cores)
        raise OSError("no cgroup with a cpu controller (v2) or cpu and cpuacct (v1)")

    def enter(self) -> None:
        """Put the calling process in the group (its children are born in it)."""
        pid = str(os.getpid())
        for procs in (self.procs, *self.more_procs):
            procs.write_text(pid)

    def cpu_s(self) -> float:
        """CPU-seconds used by every process ever in the group."""
        text = self.usage.read_text()
        if self.v2:
            for line in text.splitlines():
                key, value = line.split()
                if key == "usage_usec":
                    return int(value) / 1e6
            raise OSError("cpu.stat has no usage_usec")
        return int(text) / 1e9

    def until_idle(
        self,
        window_s: float = 1.0,
        idle_cpu_s: float = 0.02,
        least_s: float = 3.0,
        most_s: float = 120.0,
    ) -> tuple[float, float]:
        """Wait until the group is idle (less than `idle_cpu_s` in `window_s`, looked at after
        `least_s`: work handed to a thread or a worker may begin a moment later): the
        CPU-seconds used from now to the start of that quiet window, and the seconds it took."""
        t0, c0 = time.monotonic(), self.cpu_s()
        marks = [(t0, c0)]
        while time.monotonic() - t0 < most_s:
            time.sleep(0.1)
            now, used = time.monotonic(), self.cpu_s()
            marks.append((now, used))
            back = [m for m in marks if now - m[0] >= window_s]
            if back and now - t0 >= least_s and used - back[-1][1] < idle_cpu_s:
                return back[-1][1] - c0, back[-1][0] - t0
        return self.cpu_s() - c0, time.monotonic() - t0

    def describe(self) -> str:
        kind = "v2" if self.v2 else "v1"
        limit = "no quota" if self.cores is None else f"quota {self.cores:g} core(s)"
        return f"cgroup {kind} {self.dirs[0]} ({limit})"

    def remove(self) -> None:
        """Remove the group once its processes have ended (a group with a process stays)."""
        for d in self.dirs:
            for _ in range(50):
                try:
                    d.rmdir()
                    break
                except OSError:
                    time.sleep(0.1)
