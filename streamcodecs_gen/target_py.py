"""The ``py`` target: an installable package with one subpackage per protocol, plus Spark modules.

Which templates render a protocol is said by its wire family's object (``families/``, ``templates``).
Hand-written modules are copied, not rendered: the shared runtime (``py_package/_runtime/*.py``), the Spark
building blocks (``py_package/spark/__init__.py``, when a protocol has a Spark module) and each declared companion
(``py_package/<protocol>/<name>.py``; see ``py_package/README.md``). Nothing here names a protocol.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from . import layout as binary_layout
from .analysis import spark_json
from .analysis.json import fast_path, field_mode, omit_defaults, removed_fields, unset_default_fields
from .analysis.kafka import kafka_event
from .families import family
from .filters import pystr
from .model import Field, Message, Protocol, TypeRef
from .problems import DefinitionError, Problem
from .render import PY_PACKAGE_DIR, Options, OutputFile, Renderer, copy_source, format_python
from .types import WIRE_TYPES
from .vectors import manifest as _manifest


def _binary_context(protocol: Protocol) -> dict[str, Any]:
    framing = protocol.framing
    lay = binary_layout.binary_layout(protocol)
    order = ">"

    def helper(ref: TypeRef) -> str:
        assert ref.wire
        return ref.wire.helper_for(framing.bytes_length)

    def writer(ref: TypeRef) -> str:
        assert ref.wire
        return ref.wire.writer_for(framing.bytes_length)

    def item_key(ref: TypeRef) -> str:
        return re.sub(r"[^0-9a-zA-Z]+", "_", ref.text).strip("_").lower()

    def list_items(p: Protocol) -> list[tuple[str, TypeRef]]:
        items = {item_key(r.item): r.item for r in p.all_types() if r.kind == "list" and r.item}
        return sorted(items.items())

    def py_of(wire_name: str, owner: Any) -> str:
        return next(f.py for f in owner.fields if f.name == wire_name)

    def fixed_code_of(wire_name: str) -> str:
        code = WIRE_TYPES[wire_name].struct
        assert code
        return code

    # Register every Struct the templates will ask for before rendering, so the constant table is complete.
    for name in (
        framing.code_type,
        framing.length_type,
        *[s.size_prefix.type for s in protocol.structs if s.size_prefix],
    ):
        lay.constant(order + fixed_code_of(name))
    for ref in protocol.all_types():
        code = binary_layout.fixed_code(ref)
        if code:
            lay.constant(order + code)
    return {
        "layout": lay,
        "order": order,
        "framing": framing,
        "helper": helper,
        "writer": writer,
        "binary_imports": sorted({line for r in protocol.all_types() if r.wire for line in r.wire.binary_imports}),
        "item_reader": lambda ref: f"_read_item_{item_key(ref)}",
        "list_items": list_items,
        "min_size": binary_layout.min_size,
        "min_size_of_wire": lambda name: WIRE_TYPES[name].size,
        "fixed_code": binary_layout.fixed_code,
        "fixed_code_of": fixed_code_of,
        "py_of": py_of,
    }


def _json_annotation(ref: TypeRef) -> str:
    if ref.kind == "wire":
        assert ref.wire
        return ref.wire.json_annotation
    if ref.kind == "list":
        assert ref.item
        return f"list[{_json_annotation(ref.item)}]"
    if ref.kind == "map":
        assert ref.item
        return f"dict[str, {_json_annotation(ref.item)}]"
    return ref.text


def _json_context(protocol: Protocol) -> dict[str, Any]:
    """Decisions the JSON template needs, made here so the template only shows shape."""

    def absent_fields(owner: Any) -> list[str]:
        """Python names of the fields that hold ``msgspec.UNSET`` when a message lacks them (to_dict omits them)."""
        return [f.py for f in owner.fields if field_mode(owner, f) == "unset"]

    def wire_keys(m: Message) -> list[str]:
        """The JSON keys the current version of a message carries: its tag key, then its fields not removed."""
        tag = [protocol.framing.tag_key] if m.tag is not None else []
        return tag + [f.name for f in m.fields if not f.removed]

    def tag_directions(p: Protocol) -> str:
        """A literal: each message tag -> the directions that have a message with it, in direction order."""
        owners: dict[str, tuple[str, ...]] = {}
        for d in p.directions:
            for m in p.messages_for(d.name):
                if m.tag is not None and d.name not in owners.get(m.tag, ()):
                    owners[m.tag] = (*owners.get(m.tag, ()), d.name)
        return repr(owners)

    def json_type(f: Field) -> str:
        base = _json_annotation(f.type)
        return f"{base} | None" if f.nullable or (f.optional and f.default is None) else base

    def default_arg(f: Field) -> str:
        if f.type.kind == "list" and f.default == []:
            return "default_factory=list"
        if f.type.kind == "map" and f.default == {}:
            return "default_factory=dict"
        return f"default={f.default_literal}"

    def shape_test(m: Message) -> str:
        assert m.shape
        if m.shape.json == "array":
            return "lambda v: isinstance(v, list)"
        tests = ["isinstance(v, dict)"]
        tests += [f"{pystr(k)} in v" for k in m.shape.keys]
        tests += [f"v.get({pystr(k)}) == {pystr(v)}" for k, v in m.shape.match.items()]
        return "lambda v: " + " and ".join(tests)

    def shape_text(m: Message) -> str:
        assert m.shape
        if m.shape.json == "array":
            return "a JSON array"
        parts = [f"an object with {', '.join(m.shape.keys)}"] if m.shape.keys else ["an object"]
        parts += [f"{k} = {v!r}" for k, v in m.shape.match.items()]
        return ", ".join(parts)

    def packed_batch(direction: str) -> dict[str, Any]:
        """What a run of MessagePack values of ``direction`` may be decoded as in one pass, exactly as one by one.

        ``tagged``: the tagged messages (a union msgspec tells apart by the tag). ``base``: the shape that takes
        any object with its keys (the last one without ``match``), or None; ``needles``: strings that occur in the
        bytes of any object that the general path would not read as ``base`` (the tag key, a key of an earlier
        shape that ``base`` lacks, a string its ``match`` requires). A run holding none of them is all ``base``.
        """
        messages = protocol.messages_for(direction)
        objects = [m for m in messages if m.shape and m.shape.json == "object"]
        plain = [m for m in objects if not m.shape.match]
        base: Message | None = plain[-1] if plain else None
        needles = {protocol.framing.tag_key}
        if base is not None:
            names = {f.name for f in base.fields}
            required = {f.name for f in base.fields if field_mode(base, f) == "required"}
            if (
                protocol.framing.tag_key in names
                or any(f.accept_scalar for f in base.fields)
                or not set(base.shape.keys) <= required  # an object without a shape key is not this shape
            ):
                base = None
            for m in objects[: objects.index(base)] if base is not None else []:
                extra = [k for k in [*m.shape.keys, *m.shape.match] if k not in names]
                strings = [v for v in m.shape.match.values() if isinstance(v, str)]
                # Any one of them is required of that shape; the longest is the cheapest to look for (the C
                # search skips further on a miss), e.g. Storm's `context` rather than `conf`.
                if extra:
                    needles.add(max(extra, key=len))
                elif strings:
                    needles.add(max(strings, key=len))
                else:
                    base = None  # nothing in the bytes tells this shape from the base
                    break
        return {
            "tagged": [m.name for m in messages if m.tag],
            "base": base.name if base else None,
            "needles": [repr(n.encode("utf-8")) for n in sorted(needles)] if base else [],  # as bytes literals
        }

    # The typed path decodes each direction as a msgspec union of tagged Structs. A union of one Struct is that
    # Struct, whose tag msgspec does not require: a direction of one message takes the general path, which does.
    typed = (
        not any(m.shape for m in protocol.messages)
        and not any(f.accept_scalar for m in protocol.messages for f in m.fields)
        and all(len(protocol.messages_for(d.name)) > 1 for d in protocol.directions)
    )
    return {
        "framing": protocol.framing,
        "omit_defaults": omit_defaults,
        "absent_fields": absent_fields,
        "tag_directions": tag_directions,
        "wire_keys": wire_keys,
        "fast_path": lambda direction: fast_path(protocol, direction),
        "removed_fields": removed_fields(protocol),
        "unset_default_fields": unset_default_fields,
        "unset_default_types": lambda owner: {f.py: json_type(f) for f in unset_default_fields(owner)},
        "field_mode": field_mode,
        "json_type": json_type,
        "default_arg": default_arg,
        "shape_test": shape_test,
        "shape_text": shape_text,
        "typed_path": typed,
        "variants": [v for v in protocol.framing.variants if v.encoding == "msgpack"],
        "packed_batch": packed_batch,
    }


def _kafka_context(protocol: Protocol) -> dict[str, Any]:
    return {"kafka": kafka_event(protocol)}


FAMILY_CONTEXT = {"binary": _binary_context, "json": _json_context, "kafka": _kafka_context}


def _spark_json_context(protocol: Protocol) -> dict[str, Any]:
    """What the Spark JSON template reads on top of the JSON context: the plan, and the Spark types of values."""
    return {
        "plan": spark_json.spark_json_plan(protocol),
        "ddl": spark_json.ddl,
        "read_ddl": spark_json.read_ddl,
        "is_variant": spark_json.is_variant,
        "RANGES": spark_json.RANGES,
        "rule": spark_json.encode_rule,
        "has_struct": spark_json.has_struct,
        "wire_plain": spark_json.wire_plain,
        "passes_omits": spark_json.passes_omits,
        "drops_nulls": spark_json.drops_nulls,
    }


SPARK_CONTEXT = {"json": _spark_json_context}


def python_target(protocols: list[Protocol], options: Options) -> list[OutputFile]:
    renderer = Renderer(options)
    renderer.env.filters["py_of"] = lambda wire_name, owner: next(f.py for f in owner.fields if f.name == wire_name)
    package = options.package_path
    files: list[OutputFile] = []

    def add(template: str, path: PurePosixPath, source: str | None = None, **context: Any) -> None:
        owner = context["protocol"].name if "protocol" in context else None
        files.append(OutputFile(owner, path, renderer.render(template, source or f"templates/{template}", **context)))

    add("py/package/pyproject.toml.j2", PurePosixPath("pyproject.toml"), protocols=protocols)
    add("py/package/__init__.py.j2", package / "__init__.py", protocols=protocols)
    add("py/package/__main__.py.j2", package / "__main__.py")
    files.append(OutputFile(None, package / "py.typed", ""))
    for module in sorted((PY_PACKAGE_DIR / "_runtime").glob("*.py")):
        files.append(OutputFile(None, package / "_runtime" / module.name, copy_source(module)))
    companions = [
        Problem(
            p.source,
            1,
            f"companion {c!r} has no module (streamcodecs_gen/py_package/{p.name}/{c}.py)",
            "write the companion module or remove it from `companions`",
        )
        for p in protocols
        for c in p.companions
        if not (PY_PACKAGE_DIR / p.name / f"{c}.py").is_file()
    ]
    if companions:
        raise DefinitionError(companions)
    for protocol in protocols:
        templates = family(protocol.family).templates
        context = {"protocol": protocol, **FAMILY_CONTEXT.get(protocol.family, lambda p: {})(protocol)}
        where = package / protocol.name
        add(templates.python, where / "messages.py", protocol.source, **context)
        add("py/package/protocol_init.py.j2", where / "__init__.py", protocol.source, protocol=protocol)
        for companion in protocol.companions:
            module = PY_PACKAGE_DIR / protocol.name / f"{companion}.py"
            files.append(OutputFile(protocol.name, where / module.name, copy_source(module)))
        if templates.spark:
            spark_context = SPARK_CONTEXT.get(protocol.family, lambda p: {})(protocol)
            add(templates.spark, package / "spark" / f"{protocol.name}.py", protocol.source, **context, **spark_context)
    if any(family(p.family).templates.spark for p in protocols):
        module = PY_PACKAGE_DIR / "spark" / "__init__.py"
        files.append(OutputFile(None, package / "spark" / module.name, copy_source(module)))
    if options.binary:
        files += compat_files(protocols, options, renderer)
    return format_python(files, options.namespace.split(".")[0])


def released_vectors(options: Options) -> Callable[[PurePosixPath], bool]:
    """Whether a version's vectors are released, i.e. frozen.

    Inside a git work tree a version is released once its manifest is committed (tracked); elsewhere, once it exists
    on disk.  Vectors written but not yet committed can still change while a version is being prepared.
    """
    root = options.root
    if root is None:
        return lambda path: False
    try:
        listed = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--full-name", "."], capture_output=True, check=True, timeout=60
        ).stdout
        prefix = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--show-prefix"],
            capture_output=True,
            check=True,
            text=True,
            timeout=60,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return lambda path: (root / path).is_file()
    tracked = {name.decode() for name in listed.split(b"\0") if name}
    return lambda path: f"{prefix}{path.as_posix()}" in tracked


def compat_files(protocols: list[Protocol], options: Options, renderer: Renderer) -> list[OutputFile]:
    """Vectors for every protocol version (frozen once on disk) and the generated tests that check them."""
    files: list[OutputFile] = []
    problems: list[Problem] = []
    covered = [p for p in protocols if _manifest.supports(p)]
    released = released_vectors(options)
    for protocol in covered:
        framings = [(None, PurePosixPath())] + [(v, PurePosixPath(v.name)) for v in _manifest.variants(protocol)]
        for version, (variant, subdir) in ((version, f) for version in protocol.versions for f in framings):
            base = options.binary_dir / protocol.name / version / subdir  # a variant's vectors: <version>/<name>/
            fresh = _manifest.version_files(protocol, version, base, variant)
            for path, content in fresh.items():
                on_disk = (options.root / path) if options.root else None
                if on_disk is not None and released(path.parent / "manifest.json"):
                    frozen = on_disk.read_bytes() if on_disk.is_file() else b""
                    data = content if isinstance(content, bytes) else content.encode("utf-8")
                    if frozen != data:
                        problems.append(
                            Problem(
                                protocol.source,
                                1,
                                f"the frozen vectors of {protocol.name} {version} ({path}) no longer match the definition",  # noqa: E501
                                "a released version's layout changed: add a new version instead (or, deliberately, "
                                "delete that vectors directory and say why in the commit)",
                            )
                        )
                    content = frozen
                files.append(OutputFile(protocol.name, path, content))
    if problems:
        raise DefinitionError(problems)
    if covered:
        tests_to_vectors = os.path.relpath(options.binary_dir, options.test_dir)
        files.append(
            OutputFile(
                None,
                PurePosixPath("conftest.py"),
                renderer.render("py/tests/conftest.py.j2", "templates/py/tests/conftest.py.j2"),
            )
        )
        files.append(
            OutputFile(
                None,
                options.test_dir / "vector_support.py",
                renderer.render(
                    "py/tests/vector_support.py.j2",
                    "templates/py/tests/vector_support.py.j2",
                    vectors_path=PurePosixPath(tests_to_vectors).as_posix(),
                ),
            )
        )
        for protocol in covered:
            files.append(
                OutputFile(
                    protocol.name,
                    options.test_dir / f"test_compat_{protocol.name}.py",
                    renderer.render(
                        "py/tests/test_compat.py.j2",
                        protocol.source,
                        protocol=protocol,
                        reader_suffix=repr(family(protocol.family).reader_suffix),
                        variants=[v.name for v in _manifest.variants(protocol)],
                    ),
                )
            )
    return files
