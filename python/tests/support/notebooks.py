"""Running the example notebooks as the tests do: a fresh python3 kernel through nbclient."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def execute(path: Path, workdir: Path, timeout: int) -> Any:
    """Runs the notebook at `path` top to bottom in `workdir` and returns it with its outputs;
    a cell that runs past `timeout` seconds or raises fails the run."""
    import nbclient
    import nbformat

    notebook = nbformat.read(str(path), as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=timeout,
        # A loaded machine may deliver a cell's printed output after its reply: wait for it,
        # and fail loudly rather than drop it (nbclient's default waits 4 s, then moves on).
        iopub_timeout=60,
        raise_on_iopub_timeout=True,
        kernel_name="python3",
        resources={"metadata": {"path": str(workdir)}},
    )
    client.execute()
    return notebook


def outputs(notebook: Any) -> list[Any]:
    """Every code cell's outputs, in order."""
    return [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]
