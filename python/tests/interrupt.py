"""Ctrl-C against long native calls: run a call in a child interpreter, send SIGINT while it
works, and check that it raised KeyboardInterrupt promptly (and that nothing crashed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

CHILD = textwrap.dedent(
    """
    import sys
    import shatranj
    print("ready", flush=True)
    try:
        {call}
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(0)
    print("finished", flush=True)
    sys.exit(1)
    """
)


def assert_ctrl_c_interrupts(call: str, *, within: float = 2.0) -> None:
    """``call`` (one Python statement, with ``shatranj`` imported) must run for longer than
    half a second and end with ``KeyboardInterrupt`` less than ``within`` seconds after SIGINT."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(call=call)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.5)  # well inside the call
    sent = time.monotonic()
    os.kill(child.pid, signal.SIGINT)
    try:
        out, err = child.communicate(timeout=10)
    finally:
        child.kill()
    elapsed = time.monotonic() - sent
    assert child.returncode == 0, (out, err)
    assert "interrupted" in out, (out, err)
    assert elapsed < within, f"KeyboardInterrupt took {elapsed:.2f} s"
