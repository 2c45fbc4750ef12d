"""`python -m agentops`: hand over to the command-line layer."""

import sys

from agentops.cli import main

if __name__ == "__main__":
    sys.exit(main())
