"""The match runner: engine matches and gauntlets over UCI and XBoard, with Elo estimates and PGN.

A tool of the repository, not part of the ``shatranj`` package: it drives the engines through
python-chess (``chess.engine``), a neutral referee that is GPL-licensed and therefore never a
dependency of anything shipped (the wheel holds ``python/shatranj`` only). Run it as

    python3 benchmarks/match.py ...                 # the command RESULTS.md records
    PYTHONPATH=tools python3 -m shatranj_match ...  # the same command line

Its tests (python/tests) import it as ``shatranj_match``: pytest's ``pythonpath`` and mypy's
``mypy_path`` (pyproject.toml) name ``tools``.

Modules, one job each:

- ``config``: time controls, engine specifications and presets, openings, the schedule (pure);
- ``play``: engine processes, clocks, rules, adjudication and PGN (python-chess);
- ``stats``: score, Elo with its 95% interval, likelihood of superiority (pure);
- ``cli``: the command line, the table, and recording in benchmarks/RESULTS.md;
- ``make_openings``: balanced opening lines drawn from Stockfish's best moves
  (benchmarks/openings/).
"""
