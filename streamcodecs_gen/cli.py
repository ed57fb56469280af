"""Command line: Hazelcast's flags (-r -l -p -o -n -b -t --no-binary --no-id-check) plus --check, --protocol,
-q and -v.  Exit status: 0 done, 1 ``--check`` found differences, 2 invalid definitions or arguments."""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import replace
from pathlib import Path, PurePosixPath

from .compat import compare
from .frozen import frozen_changes
from .jar import JavacFailed, MissingJdk
from .model import Protocol
from .naming import identifier_problem
from .pipeline import load_protocols
from .problems import DefinitionError, Problem, ordered
from .render import Options, OutputFile
from .shared import Committed, FrozenVectorsChanged, build_shared
from .targets import TARGETS
from .write import UnsafePathError, check_tree, read_manifest, write_tree

REPO = Path(__file__).resolve().parent.parent
NAMESPACE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="generator.py", description="Generate codecs from protocol definitions.")
    p.add_argument("-r", "--root-dir", help="output root (default: output/<language>)")
    p.add_argument("-l", "--lang", default="py", help="target language, or 'all' for every target (default: py)")
    p.add_argument(
        "-p",
        "--protocol-definitions-path",
        default=str(REPO / "protocol-definitions"),
        help="definitions directory (default: protocol-definitions/)",
    )
    p.add_argument(
        "-o",
        "--output-dir",
        default=".",
        help="directory under the root that receives the package directory (default: the root)",
    )
    p.add_argument("-n", "--namespace", default="streamcodecs", help="package name (default: streamcodecs)")
    p.add_argument(
        "-b",
        "--binary-output-dir",
        default="vectors",
        help="compatibility vectors, relative to the root (default: vectors)",
    )
    p.add_argument(
        "-t",
        "--test-output-dir",
        default="tests",
        help="generated compatibility tests, relative to the root (default: tests)",
    )
    p.add_argument("--no-binary", action="store_true", help="skip compatibility vectors and their tests")
    p.add_argument(
        "--no-id-check",
        action="store_true",
        help="do not require message codes in ascending order (all other checks still run)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="regenerate in memory; exit 1 listing every file that differs from disk; write nothing",
    )
    p.add_argument(
        "--compat",
        metavar="BASELINE_DIR",
        help="report breaking changes against the definitions in BASELINE_DIR (exit 1 if any); generate nothing",
    )
    p.add_argument(
        "--protocol",
        action="append",
        metavar="NAME",
        help="write or check only this protocol's files and the shared ones (repeatable); every "
        "definition is still validated",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    p.add_argument("-v", "--verbose", action="store_true", help="list every file")
    return p


def _relative(value: str, flag: str) -> PurePosixPath:
    path = PurePosixPath(value)
    if path.is_absolute() or ".." in path.parts:
        raise UnsafePathError(f"{flag} must be a relative path inside the root without '..': {value}")
    return path


ALL = "all"
"""``-l all``: every target, each into its default root (what ``./dev generate`` runs)."""


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        options = _options(args)
    except (_UsageError, UnsafePathError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    definitions = Path(args.protocol_definitions_path)
    shown_from = _display_root(definitions)  # problems' files are relative to it
    try:
        protocols = load_protocols_cli(definitions, args)
    except DefinitionError as exc:
        return _refuse(exc, "in the definitions; nothing was written.", shown_from)
    if args.compat:
        return compat_main(Path(args.compat), protocols, args)
    targets = [TARGETS[name] for name in (sorted(TARGETS) if args.lang == ALL else [args.lang])]
    roots = {t.name: Path(args.root_dir) if args.root_dir else REPO / "output" / t.name for t in targets}
    committed = {root: Committed(root) for root in roots.values()}  # each output root as it is on disk, read once
    problems = [problem for t in targets for problem in t.problems(protocols)]
    if problems:
        return _refuse(DefinitionError(problems), "; nothing was written.", shown_from)
    home = next((committed[roots[t.name]] for t in targets if t.keeps_shared), None)
    needs = {output for t in targets for output in t.needs(protocols, options)}
    try:  # the shared outputs, each built once, before any target
        shared = build_shared(protocols, options, needs, home)
    except FrozenVectorsChanged as exc:  # a definition change that breaks a released version: name the change
        assert home is not None
        changes = frozen_changes(exc, definitions, home.root)
        return _refuse(DefinitionError(changes), "; nothing was written.", shown_from)
    except (MissingJdk, JavacFailed) as exc:
        print(exc, file=sys.stderr)
        return 2
    plans: list[tuple[Path, dict[PurePosixPath, str | bytes], frozenset[str]]] = []
    for target in targets:  # all planned before anything is written
        root = roots[target.name]
        plan = _plan(target.render(protocols, options, shared), committed[root], options, args)
        if isinstance(plan, int):
            return plan
        plans.append((root, *plan))
    status = 0
    for root, tree, keep in plans:
        status = max(status, _write(root, tree, keep, protocols, args))
        if status == 2:
            break
    return status


class _UsageError(ValueError):
    """Arguments that do not make sense together; printed as ``error: ...`` with exit status 2."""


def _options(args: argparse.Namespace) -> Options:
    """The render options the arguments ask for; raises _UsageError or UnsafePathError for bad arguments."""
    if args.lang not in TARGETS and args.lang != ALL:
        raise _UsageError(f"unknown language {args.lang!r}; supported: {', '.join([*sorted(TARGETS), ALL])}")
    if args.lang == ALL and args.root_dir:
        raise _UsageError(f"-l {ALL} writes each target to its own default root; -r needs one language")
    if not NAMESPACE.fullmatch(args.namespace) or any(identifier_problem(part) for part in args.namespace.split(".")):
        raise _UsageError(f"namespace {args.namespace!r} is not a dotted Python identifier")
    return Options(
        namespace=args.namespace,
        package_dir=_relative(args.output_dir, "-o"),
        binary_dir=_relative(args.binary_output_dir, "-b"),
        test_dir=_relative(args.test_output_dir, "-t"),
        binary=not args.no_binary,
    )


def _plan(
    files: list[OutputFile], committed: Committed, options: Options, args: argparse.Namespace
) -> tuple[dict[PurePosixPath, str | bytes], frozenset[str]] | int:
    """One target's files: those to write under its root and the ones to keep; or an exit status."""
    paths = [f.path for f in files]
    if len(set(paths)) != len(paths):  # two definitions or templates that would write the same file
        twice = sorted({str(p) for p in paths if paths.count(p) > 1})
        print(f"error: several outputs would be written to {', '.join(twice)}", file=sys.stderr)
        return 2
    tree = {f.path: f.content for f in files if f.owner is None or not args.protocol or f.owner in args.protocol}
    keep = frozenset(str(f.path) for f in files if f.path not in tree)  # other protocols' files stay as they are
    previous = read_manifest(committed.root)
    if not options.binary:  # --no-binary leaves existing vectors and their tests alone; it never deletes them
        vector_dirs = (f"{options.binary_dir.as_posix()}/", f"{options.test_dir.as_posix()}/")
        keep |= {p for p in previous if p.startswith(vector_dirs) or p == "conftest.py"}
    vectors_dir = f"{options.binary_dir.as_posix()}/"
    doomed = [
        p
        for p in previous
        if p.startswith(vectors_dir)
        and PurePosixPath(p) not in tree
        and p not in keep
        and committed.released(PurePosixPath(p))
    ]
    if doomed:
        print(
            f"error: this would delete released (committed) vectors: {', '.join(sorted(doomed)[:4])}"
            + (" ..." if len(doomed) > 4 else ""),
            file=sys.stderr,
        )
        print("a released version stays declared; delete its vectors by hand only on purpose", file=sys.stderr)
        return 2
    return tree, keep


def _write(
    root: Path,
    tree: dict[PurePosixPath, str | bytes],
    keep: frozenset[str],
    protocols: list[Protocol],
    args: argparse.Namespace,
) -> int:
    """Write one target's files (or, with --check, compare them with the disk); the exit status."""
    messages = sum(len(p.messages) for p in protocols)
    try:
        if args.check:
            differences = check_tree(root, tree, keep)
            for what, file in differences:
                print(f"{what + ':':<9}{shown_path(file)}")  # (as a problem names its file)
            if differences:
                print(f"{len(differences)} file(s) differ from the definitions; {_regenerate(args)}", file=sys.stderr)
                return 1
            if not args.quiet:
                print(f"{len(protocols)} protocols, {messages} messages, {len(tree)} files: output is current.")
            return 0
        report = write_tree(root, tree, keep)
    except (UnsafePathError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.verbose:
        for path in report.written:
            print(f"wrote     {path}")
        for path in report.unchanged:
            print(f"unchanged {path}")
        for path in report.removed:
            print(f"removed   {path}")
    if not args.quiet:
        print(
            f"{len(protocols)} protocols, {messages} messages: {len(report.written)} files written, "
            f"{len(report.unchanged)} unchanged, {len(report.removed)} removed, in {shown_path(root)}"
        )
    return 0


def _regenerate(args: argparse.Namespace) -> str:
    """How to write what ``--check`` found stale: ``./dev generate`` writes the project's own output only."""
    defaults = parser().parse_args([])
    own = ("protocol_definitions_path", "root_dir", "output_dir", "namespace", "binary_output_dir", "test_output_dir")
    if all(getattr(args, key) == getattr(defaults, key) for key in own) and not args.no_binary:
        return "run ./dev generate"
    return "run the same command without --check"


def shown(problem: Problem, *display_roots: Path) -> Problem:
    """``problem`` with its file as the user can open it: relative to the working directory when it is below it,
    else absolute. A problem's file is relative to the parent of its definitions' directory: the first of
    ``display_roots`` that has it (the current definitions', then a baseline's)."""
    found = [root / problem.file for root in display_roots if (root / problem.file).exists()]
    if not problem.file or not found:
        return problem
    return replace(problem, file=shown_path(found[0]))


def shown_path(path: Path) -> str:
    """A file as the user can open it: relative to the working directory when it is below it, else absolute (as
    :func:`shown` names a problem's file, and ``--check`` a file it found stale)."""
    path = Path(os.path.abspath(path))
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _refuse(exc: DefinitionError, where: str, *display_roots: Path) -> int:
    """Print every problem (its file as :func:`shown` gives it), then how many and what happened; the exit status
    for invalid definitions."""
    for problem in exc.problems:
        print(shown(problem, *display_roots), file=sys.stderr)
    print(f"{len(exc.problems)} problem(s) {where}".replace(" ;", ";"), file=sys.stderr)
    return 2


def compat_main(baseline_dir: Path, protocols: list[Protocol], args: argparse.Namespace) -> int:
    try:
        baseline = load_protocols_cli(baseline_dir, args)
    except DefinitionError as exc:
        return _refuse(exc, f"in the baseline {baseline_dir}.", _display_root(baseline_dir))
    problems = ordered(compare(baseline, protocols))  # in the order a generation that they break lists them
    for problem in problems:
        print(shown(problem, _display_root(Path(args.protocol_definitions_path)), _display_root(baseline_dir)))
    if problems:
        print(f"{len(problems)} breaking change(s) against {baseline_dir}", file=sys.stderr)
        return 1
    if not args.quiet:
        print(f"no breaking changes against {baseline_dir}")
    return 0


def _display_root(definitions: Path) -> Path:
    """What a definition's ``source`` is relative to: the definitions directory's parent (so that generated files
    name ``protocol-definitions/kcl.yaml`` wherever the generator runs from)."""
    return definitions.resolve().parent


def load_protocols_cli(definitions: Path, args: argparse.Namespace) -> list[Protocol]:
    return load_protocols(definitions, _display_root(definitions), id_check=not args.no_id_check, only=args.protocol)
