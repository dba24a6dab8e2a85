"""The test process's own children, read from /proc (for tests that no engine or worker
process is left behind)."""

from __future__ import annotations

import os
from pathlib import Path


def children() -> dict[int, str]:
    """This process's child processes and their states (``Z``: a zombie)."""
    found: dict[int, str] = {}
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == me:
            found[int(entry.name)] = fields[0]
    return found
