#!/usr/bin/env python3
"""Engine matches and gauntlets: the match runner's command line (tools/shatranj_match).

The runner is a package of the repository's tools; this script keeps the commands in
benchmarks/README.md and RESULTS.md working. ``python3 benchmarks/match.py --help`` lists the
options.
"""

import os
import sys

# A script run by path has its own folder on sys.path, not tools/: add it, then the package
# imports as it does in the tests.
sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools")
)

from shatranj_match.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
