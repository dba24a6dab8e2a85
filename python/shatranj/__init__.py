"""shatranj: a chess library and engine in Rust, with Python bindings.

The native code lives in :mod:`shatranj._core`; this package re-exports its public names.
"""

from ._core import __version__

__all__ = ["__version__"]
