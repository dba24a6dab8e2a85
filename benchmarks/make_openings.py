#!/usr/bin/env python3
"""Generate balanced opening lines for the match runner (tools/shatranj_match/make_openings.py).

This script keeps the commands in benchmarks/README.md working; ``--help`` lists the options.
"""

import os
import sys

# A script run by path has its own folder on sys.path, not tools/: add it.
sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools")
)

from shatranj_match.make_openings import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
