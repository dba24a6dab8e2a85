"""Helpers the test areas share (conftest.py holds the shared fixtures).

- ``repo``: the repository's root, for data files and the built binaries;
- ``engines``: finding engine binaries (Debian's in /usr/games, the release ``shatranj``);
- ``fake_engine.py``, ``fake_uci.py``: scripted engines started as processes by the engine
  client's and the match runner's tests (paths in ``engines``);
- ``interrupt``: a Ctrl-C sent to a child process running a long call;
- ``processes``: the test process's children (nothing left behind);
- ``corpora``: PGN corpora made from a seed; ``boards``: boards from seeded random games;
- ``gpu``: the GPU adapter the GPU tests need;
- ``optional``: optional modules, skipped when missing unless scripts/test requires them.
"""
