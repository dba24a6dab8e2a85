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
    import signal
    import sys
    import shatranj
    # A shell that starts a job in the background (`cmd &` without job control) hands it
    # SIGINT ignored, and children inherit that: restore Python's handler so the test's
    # SIGINT raises KeyboardInterrupt wherever the suite runs.
    signal.signal(signal.SIGINT, signal.default_int_handler)
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
