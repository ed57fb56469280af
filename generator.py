#!/usr/bin/env python3
"""streamcodecs: generate codecs, Spark functions and compatibility vectors from protocol definitions.

Run ``./generator.py --help`` for the flags; the README explains the definition format.
"""

import sys

from streamcodecs_gen.environment import EXIT_ENVIRONMENT, missing_dependency


def run() -> int:
    try:
        from streamcodecs_gen.cli import main

        return main()
    except ModuleNotFoundError as exc:  # a dependency missing from this Python: one line, no traceback
        message = missing_dependency(exc.name)
        if message is None:
            raise
        print(message, file=sys.stderr)
        return EXIT_ENVIRONMENT


if __name__ == "__main__":
    sys.exit(run())
