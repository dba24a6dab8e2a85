"""The repository's root: the tests read data files from it (data/, rust/*/tests/data,
examples/, benchmarks/openings) and find the built binaries under target/."""

from pathlib import Path

# This file is python/tests/support/repo.py.
ROOT = Path(__file__).resolve().parents[3]
