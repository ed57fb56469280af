# Copied from streamcodecs_gen/py_package/__main__.py by ./generator.py; edit that file, not this copy.
"""Command line of the package: ``python -m <package> inspect [FILE]`` decodes captured traffic.

Run ``python -m <package> inspect --help`` for the options.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

COMMANDS = ("inspect",)
PROG = f"python -m {__package__}"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help") or args[0] not in COMMANDS:
        if args and args[0] not in ("-h", "--help"):
            print(f"error: unknown command {args[0]!r}; expected one of {COMMANDS}", file=sys.stderr)
        print(f"usage: {PROG} COMMAND [options]", file=sys.stderr)
        print("  inspect   decode captured traffic and print one message per line", file=sys.stderr)
        return 0 if args and args[0] in ("-h", "--help") else 2
    from ._runtime import inspect

    return inspect.main(args[1:], prog=f"{PROG} inspect")


if __name__ == "__main__":
    sys.exit(main())
