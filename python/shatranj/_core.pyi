"""Type stubs for the native module ``shatranj._core`` (built from rust/python)."""

__all__ = ["__version__"]

__version__: str
