"""``python -m shatranj_match``: the match runner's command line (see ``cli``)."""

import sys

from shatranj_match.cli import main

sys.exit(main(sys.argv[1:]))
