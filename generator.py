#!/usr/bin/env python3
"""streamcodecs: generate codecs, Spark functions and compatibility vectors from protocol definitions.

Run ``./generator.py --help`` for the flags; the README explains the definition format.
"""

import sys

from streamcodecs_gen.cli import main

if __name__ == "__main__":
    sys.exit(main())
