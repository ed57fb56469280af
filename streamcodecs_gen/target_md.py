"""The ``md`` target: one Markdown reference document per protocol, plus an index.

Every fact in the documents comes from the model (messages, fields, types, enums, framing, versions) or from the
compatibility vectors (the worked examples; ``shared.py`` builds them once), so the documents cannot drift from the
codecs.  Family-specific text
(how a frame is laid out, how a message is recognised, how an example is shown) lives in the family's template
``templates/md/<family>/family.md.j2``; the examples' data is prepared here per family, never per protocol.
Free text from definitions goes through the Markdown filters below: ``cell`` for table cells (every paragraph,
pipes escaped), ``md_block`` for paragraphs, ``md_code`` for inline code.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .families.framing import FramingVariant, as_written
from .filters import _clean
from .model import Enum, EnumRef, Field, ListRef, MapRef, Message, Protocol, Struct, StructRef, TypeRef, WireRef
from .render import Options, OutputFile, Renderer
from .shared import VECTORS, Shared, Vectors
from .types import WIRE_TYPES
from .vectors import manifest as _manifest
from .vectors.binary_spans import frame_spans
from .vectors.values import samples

MD_DIR = "md"
EXAMPLE_VARIANT = "full"
HEX_ROW = 16  # bytes per hex dump row
HEX_LONG = 48  # a span longer than this shows its first HEX_LONG - HEX_ROW bytes and a count of the rest


# --- Markdown escaping ------------------------------------------------------------------------------------------

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def cell(text: Any) -> str:
    """Free text as one table cell: every paragraph kept (joined by <br>), pipes escaped, no line breaks."""
    paragraphs = []
    for para in _clean(str(text)).split("\n\n"):
        lines = [line.strip() for line in para.split("\n") if line.strip()]
        if any(line.startswith(("- ", "* ")) for line in lines):
            paragraphs.append("<br>".join(lines))
        else:
            paragraphs.append(" ".join(lines))
    return "<br><br>".join(p for p in paragraphs if p).replace("|", "\\|")


def md_block(text: Any) -> str:
    """Free text (Markdown in the definitions) as a block: control characters removed, an unclosed code fence
    closed, so a doc can never swallow the rest of the document."""
    lines = [line.rstrip() for line in _clean(str(text)).split("\n")]
    open_fence: str | None = None
    for line in lines:
        match = _FENCE.match(line)
        if not match:
            continue
        marker = match.group(1)
        if open_fence is None:
            open_fence = marker
        elif marker[0] == open_fence[0] and len(marker) >= len(open_fence) and not line.strip()[len(marker) :]:
            open_fence = None
    if open_fence is not None:
        lines.append(open_fence)
    return "\n".join(lines)


def md_code(text: Any) -> str:
    """Inline code that cannot be ended early by backticks in the text."""
    text = _clean(str(text)).replace("\n", " ")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text else ""
    return f"{ticks}{pad}{text}{pad}{ticks}".replace("|", "\\|")


def fence(text: str, language: str = "") -> str:
    """A fenced code block around ``text``, with a fence longer than any backtick run inside."""
    longest = max((len(run) for run in re.findall(r"`{3,}", text)), default=2)
    ticks = "`" * (longest + 1)
    return f"{ticks}{language}\n{text.rstrip(chr(10))}\n{ticks}"


def tidy(text: str) -> str:
    """At most one blank line between blocks (code blocks left as they are), one newline at the end."""
    out: list[str] = []
    fence_marker: str | None = None
    for line in text.split("\n"):
        match = _FENCE.match(line)
        if fence_marker is None and match:
            fence_marker = match.group(1)
        elif (
            fence_marker is not None
            and match
            and match.group(1)[0] == fence_marker[0]
            and len(match.group(1)) >= len(fence_marker)
        ):
            fence_marker = None
        elif fence_marker is None and not line.strip() and out and not out[-1].strip():
            continue
        out.append(line if fence_marker is not None else line.rstrip())
    return "\n".join(out).strip("\n") + "\n"


def anchor(name: str) -> str:
    """The anchor GitHub gives a heading that is exactly ``name`` (an identifier)."""
    return re.sub(r"[^a-z0-9_\- ]", "", name.lower()).replace(" ", "-")


# --- Facts about fields and types ---------------------------------------------------------------------------------


def type_md(ref: TypeRef) -> str:
    """The type as Markdown: wire types in code, enums and structs linked to their sections."""
    match ref:
        case ListRef(item=item):
            return f"list&lt;{type_md(item)}&gt;"
        case MapRef(item=item):
            return f"map&lt;string, {type_md(item)}&gt;"
        case EnumRef() | StructRef():
            return f"[{ref.text}](#{anchor(ref.text)})"
    return f"`{ref.text}`"


def presence_md(owner: Struct, f: Field) -> str:
    parts = []
    if f.has_const:
        parts.append(f"always {md_code(json.dumps(f.const, ensure_ascii=False))}")
    if f.optional:
        parts.append("optional")
    if f.nullable:
        parts.append("nullable")
    if f.presence is not None:
        parts.append(
            f"only if ≥ {f.presence} byte{'s' if f.presence != 1 else ''} remain{'s' if f.presence == 1 else ''}"
        )
    if f.when_nonempty:
        parts.append(f"only when `{f.when_nonempty}` is non-empty")
    if isinstance(f.type, WireRef) and f.type.wire.trailing:
        parts.append("to the end of the frame")
    if f.accept_scalar:
        parts.append("a single value reads as a one-element list")
    if f.negative_empty:
        parts.append("negative length reads as empty")
    if f.min_length:
        parts.append(f"at least {f.min_length} character{'s' if f.min_length != 1 else ''}")
    if f.additional:
        parts.append("holds every undeclared attribute")
    return "; ".join(parts) or "required"


def default_md(f: Field) -> str:
    if f.has_default:
        return md_code(f.default_literal)
    if f.optional:
        return md_code("None")
    return "—"


def since_md(item: Field | Message) -> str:
    return f"{item.since} (removed in {item.removed})" if item.removed else item.since


def referenced(protocol: Protocol) -> list[str]:
    """Wire types this protocol uses, in registry order."""
    used = {r.wire.name for r in protocol.all_types() if isinstance(r, WireRef)}
    used |= {e.wire for e in protocol.enums if e.wire in WIRE_TYPES}
    return [name for name in WIRE_TYPES if name in used]


def enum_unknown_md(e: Enum) -> str:
    if e.is_open:
        return "an unknown value is kept as a plain " + ("string" if e.is_string else "integer")
    if e.unknown:
        return f"an unknown value decodes as `{e.unknown}`"
    return "an unknown value is a DecodeError"


# --- Version history ----------------------------------------------------------------------------------------------


@dataclass
class VersionChanges:
    version: str
    first: bool
    messages_added: list[Message] = field(default_factory=list)
    messages_removed: list[Message] = field(default_factory=list)
    types_added: list[Struct] = field(default_factory=list)
    fields_added: list[tuple[Struct, Field]] = field(default_factory=list)
    fields_removed: list[tuple[Struct, Field]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (
            self.messages_added or self.messages_removed or self.types_added or self.fields_added or self.fields_removed
        )


def history(protocol: Protocol) -> list[VersionChanges]:
    owners: list[Struct] = [*protocol.structs, *protocol.messages]
    changes = []
    for i, version in enumerate(protocol.versions):
        c = VersionChanges(version, i == 0)
        c.messages_added = [m for m in protocol.messages if m.since == version]
        c.messages_removed = [m for m in protocol.messages if m.removed == version]
        c.types_added = [s for s in protocol.structs if s.since == version and i > 0]
        for owner in owners:
            for f in owner.fields:
                if f.since == version and f.added_later:
                    c.fields_added.append((owner, f))
                if f.removed == version:
                    c.fields_removed.append((owner, f))
        changes.append(c)
    return changes


# --- Worked examples ----------------------------------------------------------------------------------------------


@dataclass
class Example:
    message: str
    path: str  # the vector file, relative to the py target's root
    offset: int  # of this vector in the file
    data: bytes
    fields: dict[str, Any]  # the manifest's field values (tagged JSON), by Python name
    lines: list[str] = field(default_factory=list)  # binary: the annotated hex dump
    text: str = ""  # json: the exact text on the wire
    framings: list[FramingExample] = field(default_factory=list)  # the same message in each framing variant


@dataclass
class FramingExample:
    """A message's vector in a framing variant (``framing.variants``): where it is, and its bytes as hex rows."""

    name: str  # what ``serializer=`` takes
    encoding: str
    path: str
    offset: int
    size: int
    rows: list[str]


def hex_rows(data: bytes, limit: int = 4 * HEX_ROW) -> list[str]:
    """Offset and hex rows of ``data``; past ``limit`` bytes, the first rows and a count of the rest."""
    shown = data if len(data) <= limit else data[: limit - HEX_ROW]
    rows = [f"{i:04x}  " + " ".join(f"{b:02x}" for b in shown[i : i + HEX_ROW]) for i in range(0, len(shown), HEX_ROW)]
    if len(shown) < len(data):
        rows.append(f"{len(shown):04x}  … {len(data) - len(shown)} more bytes")
    return rows


def _display(ref: TypeRef | None, value: Any) -> str:
    if ref is None:
        return str(value)
    if isinstance(ref, EnumRef):
        member = next((v.name for v in ref.enum.values if v.value == value), None)
        return f"{value} ({member})" if member else str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, bytes | bytearray):
        return f"{len(value)} byte{'s' if len(value) != 1 else ''}" + (f": 0x{bytes(value).hex()}" if value else "")
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return ref.wire.example.format(repr(value)) if isinstance(ref, WireRef) else repr(value)


def hex_dump(data: bytes, spans: list[Any], message: Message) -> list[str]:
    """One row per header part, prefix and scalar field (long values wrapped, very long ones shortened)."""
    width = max(4, len(f"{len(data):x}"))
    column = max(width, len("offset"))
    rows = [f"{'offset':<{column}}  {'bytes':<{HEX_ROW * 3 - 1}}  field = value"]
    for span in spans:
        chunk = data[span.start : span.end]
        if span.label == "type code":
            value = f"{span.value} ({message.name})"
        else:
            value = _display(span.ref, span.value)
        label = "  " * span.depth + f"{span.label} = {value}"
        shown = chunk if len(chunk) <= HEX_LONG else chunk[: HEX_LONG - HEX_ROW]
        if not chunk:
            rows.append(f"{span.start:0{width}x}".ljust(column) + f"  {'(no bytes)':<{HEX_ROW * 3 - 1}}  {label}")
            continue
        for i in range(0, len(shown), HEX_ROW):
            row = " ".join(f"{b:02x}" for b in shown[i : i + HEX_ROW])
            at = f"{span.start + i:0{width}x}".ljust(column)
            rows.append(f"{at}  {row:<{HEX_ROW * 3 - 1}}  {label if i == 0 else ''}".rstrip())
        if len(shown) < len(chunk):
            more = f"… {len(chunk) - len(shown)} more bytes"
            at = f"{span.start + len(shown):0{width}x}".ljust(column)
            rows.append(f"{at}  {more}")
    return rows


def _vectors(
    protocol: Protocol, options: Options, vectors: Vectors, variant: FramingVariant | None = None
) -> tuple[str, bytes, dict[str, Any]]:
    """The current version's vectors (of a framing variant): the blob's path, the blob, and the manifest."""
    base = options.binary_dir / protocol.name / protocol.version / (variant.name if variant else "")
    manifest = json.loads(vectors.content(base / "manifest.json"))
    blob = vectors.content(base / manifest["file"])
    assert isinstance(blob, bytes)
    return (base / manifest["file"]).as_posix(), blob, manifest


def binary_examples(protocol: Protocol, options: Options, vectors: Vectors) -> dict[str, Example]:
    path, blob, manifest = _vectors(protocol, options, vectors)
    entries = manifest["vectors"]
    by_message = {e["message"]: e for e in entries if e["variant"] == EXAMPLE_VARIANT}
    examples = {}
    for sample in samples(protocol, protocol.version):
        entry = by_message.get(sample.message.name)
        if sample.variant != EXAMPLE_VARIANT or entry is None:
            continue
        data, spans = frame_spans(protocol, sample.message, sample.values, protocol.version)
        vector = blob[entry["offset"] : entry["offset"] + entry["length"]]
        if data != vector:
            raise AssertionError(f"{protocol.name}.{sample.message.name}: the annotated frame is not the vector")
        example = Example(sample.message.name, path, entry["offset"], vector, entry["fields"])
        example.lines = hex_dump(vector, spans, sample.message)
        examples[sample.message.name] = example
    return examples


def json_examples(protocol: Protocol, options: Options, vectors: Vectors) -> dict[str, Example]:
    path, blob, manifest = _vectors(protocol, options, vectors)
    entries = manifest["vectors"]
    examples = {}
    for entry in entries:
        if entry["variant"] != EXAMPLE_VARIANT:
            continue
        data = blob[entry["offset"] : entry["offset"] + entry["length"]]
        example = Example(entry["message"], path, entry["offset"], data, entry["fields"])
        example.text = data.decode("utf-8")
        examples[entry["message"]] = example
    for variant in _manifest.variants(protocol):
        path, blob, manifest = _vectors(protocol, options, vectors, variant)
        for entry in manifest["vectors"]:
            if entry["variant"] == EXAMPLE_VARIANT and entry["message"] in examples:
                data = blob[entry["offset"] : entry["offset"] + entry["length"]]
                examples[entry["message"]].framings.append(
                    FramingExample(variant.name, variant.encoding, path, entry["offset"], len(data), hex_rows(data))
                )
    return examples


def _record_text(record: dict[str, Any]) -> list[str]:
    def shown(raw: str | None) -> str:
        if raw is None:
            return "null"
        data = bytes.fromhex(raw)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return "0x" + data.hex()

    lines = [f"{record['mode']} mode", f"  key: {shown(record['key'])}", "  headers:"]
    lines += [f"    {name}: {shown(value)}" for name, value in record["headers"]]
    lines.append(f"  value: {shown(record['value'])}")
    return lines


def kafka_examples(protocol: Protocol, options: Options, vectors: Vectors) -> dict[str, Example]:
    path, blob, manifest = _vectors(protocol, options, vectors)
    entries = manifest["vectors"]
    examples = {}
    for entry in entries:
        if entry["variant"] != EXAMPLE_VARIANT:
            continue
        data = blob[entry["offset"] : entry["offset"] + entry["length"]]
        example = Example(entry["message"], path, entry["offset"], data, entry["fields"])
        lines = ["event format (encode(), and a structured record's value)", "  " + data.decode("utf-8"), ""]
        for record in manifest.get("records", []):
            if record["message"] == entry["message"] and record["variant"] == EXAMPLE_VARIANT:
                lines += [*_record_text(record), ""]
        example.text = "\n".join(lines).rstrip()
        examples[entry["message"]] = example
    return examples


@dataclass(frozen=True)
class MarkdownFamily:
    """How this target documents the protocols of one wire family (a test checks that the template exists)."""

    template: str
    """The family's framing, discriminator and example macros."""
    examples: Callable[[Protocol, Options, Vectors], dict[str, Example]]
    """The worked examples of the reference documents by message name, prepared from the vectors."""


FAMILIES: dict[str, MarkdownFamily] = {
    "binary": MarkdownFamily(f"{MD_DIR}/binary/family.md.j2", binary_examples),
    "json": MarkdownFamily(f"{MD_DIR}/json/family.md.j2", json_examples),
    "kafka": MarkdownFamily(f"{MD_DIR}/kafka/family.md.j2", kafka_examples),
}
"""This target's part of each wire family (``families/``), by the family's name; a family without one is documented
by ``md/generic/family.md.j2``, without examples."""


def examples(protocol: Protocol, options: Options, vectors: Vectors) -> dict[str, Example] | None:
    """The worked examples of a protocol by message name (this target's table of the families prepares them), or
    None when its family has no vectors or examples yet: the documents then say so."""
    markdown = FAMILIES.get(protocol.family)
    if markdown is None or not _manifest.supports(protocol):
        return None
    return markdown.examples(protocol, options, vectors)


# --- The target ---------------------------------------------------------------------------------------------------


def needs(protocols: list[Protocol], options: Options) -> frozenset[str]:
    """The worked examples come from the vectors."""
    return frozenset({VECTORS})


def markdown_target(protocols: list[Protocol], options: Options, shared: Shared) -> list[OutputFile]:
    assert shared.vectors is not None
    renderer = Renderer(options)
    renderer.env.filters.update(cell=cell, md_block=md_block, md_code=md_code, fence=fence, anchor=anchor)
    helpers = {
        "type_md": type_md,
        "presence_md": presence_md,
        "default_md": default_md,
        "since_md": since_md,
        "enum_unknown_md": enum_unknown_md,
        "wire_types": WIRE_TYPES,
        "json": lambda v: json.dumps(v, ensure_ascii=False),
        "json_block": lambda v: json.dumps(v, ensure_ascii=False, indent=2),
        "framing_written": as_written,
    }
    where = options.package_dir
    files = []
    for protocol in protocols:
        markdown = FAMILIES.get(protocol.family)
        family_template = markdown.template if markdown else f"{MD_DIR}/generic/family.md.j2"
        content = renderer.render(
            f"{MD_DIR}/protocol.md.j2",
            protocol.source,
            protocol=protocol,
            family_template=family_template,
            history=history(protocol),
            examples=examples(protocol, options, shared.vectors),
            used_types=referenced(protocol),
            **helpers,
        )
        files.append(OutputFile(protocol.name, where / f"{protocol.name}.md", tidy(content)))
    index = renderer.render(f"{MD_DIR}/index.md.j2", f"templates/{MD_DIR}/index.md.j2", protocols=protocols)
    files.append(OutputFile(None, where / "index.md", tidy(index)))
    return files
