"""The Python path of the Spark functions: batches of rows as Arrow arrays, decoded and encoded by the codec.

Every protocol's Spark module describes its messages as :class:`Kind` records (the codec's class, how each field
becomes an Arrow value, how a row's value becomes the codec's message); the functions here do the rest, the same
for every wire family: one Arrow array in, the codec called once per row, one Arrow array out. Spark runs them as
``arrow_udf`` (a batch of rows per call) when the session has no JVM path (see ``_jvm``).

A free-form JSON value crosses as its JSON text (:func:`json_text`, :func:`json_value`), which ``_variant`` turns
into a VARIANT and back on the JVM. The other concerns of the Python path have modules of their own: ``_variant``
(VARIANT columns as text), ``_shape`` (structs read by field name), ``_shipped`` (how the function objects pickle),
``_gc`` (the collector paused for a batch) and ``_functions`` (``ProtocolFunctions``, what the families' function
objects share).
"""

from __future__ import annotations

import datetime
import functools
import math
import operator
import struct
import uuid
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec
import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql import Column
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import to_arrow_type
from pyspark.sql.types import DataType

from .._runtime import messages as _m
from .._runtime.errors import DecodeError, EncodeError
from .._runtime.jsontext import roomy
from . import ENCODED, _variant

__all__ = [
    "FREE",
    "NULL",
    "UNSET",
    "Absent",
    "Entries",
    "Free",
    "Items",
    "Kind",
    "OutOfRange",
    "Shape",
    "Struct",
    "arrow_udf",
    "codec_text",
    "columns",
    "decode_batch",
    "encode_batch",
    "fields_of",
    "free_value",
    "instants",
    "json_text",
    "json_value",
    "pairs",
    "pairs_array",
    "problem",
    "reason",
    "time_unfit",
    "to_array",
    "uuid_of",
    "values_of",
]

ENCODED_ARROW: pa.StructType = to_arrow_type(ENCODED)
UNSET = msgspec.UNSET
"""What the JSON codec holds in a removed field that the peer did not send (a null column on the Spark side)."""
NULL: Any = None
"""A null where the codec's type has none, handed to the JSON codec as it is (it refuses it in its own words, as the
Java codec does): typed Any, as it is not the field's type."""


class Struct(NamedTuple):
    """Codec objects (or None) -> an Arrow struct: each attribute's values gathered, then converted in bulk."""

    fields: tuple[tuple[str, Shape], ...]  # (attribute, how its values become Arrow values) per field


class Items(NamedTuple):
    """Lists (or None) whose items need converting: all items of all lists converted at once."""

    item: Shape


class Entries(NamedTuple):
    """Dicts (or None) whose values need converting: all values of all dicts converted at once."""

    item: Shape


class Absent(NamedTuple):
    """A removed field: ``UNSET`` (not sent by the peer) as null, other values as ``value`` says."""

    value: Shape


class Free:
    """The shape of free-form values (VARIANT columns): each as its JSON text where the Arrow type is a string (what
    ``_variant.from_text`` parses on the JVM), else as its VARIANT's binary form (a MessagePack framing's values, which
    JSON text cannot carry: ``_variant.binary``)."""

    def array(self, values: list[Any], arrow: pa.DataType) -> pa.Array:
        if pa.types.is_string(arrow):
            return pa.array([None if v is None else json_text(v) for v in values], arrow)
        return pa.array([None if v is None else _variant.binary(v) for v in values], arrow)


Shape = Callable[[Any], Any] | Struct | Items | Entries | Absent | Free | None
"""How codec values become an Arrow array: None (they already are Arrow values), a function (each value, None
included, to its Arrow value) or one of the records above, which convert whole columns."""
FREE = Free()
"""The one :class:`Free` shape: free-form values."""


class Kind(NamedTuple):
    """One message kind of a protocol, as its Spark module maps it to and from Arrow."""

    name: str  # the message name
    column: str  # its column in the decoded struct
    cls: type  # the codec's class
    fields: tuple[tuple[str, Shape], ...]  # (attribute, how its values become Arrow values) per field
    build: Callable[[Any], Any]  # the codec message from its Arrow value (a dict, or None for a field-less one)


def fields_of(struct: pa.StructType) -> list[pa.Field]:
    return [struct.field(i) for i in range(struct.num_fields)]


_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
_MICROSECOND = datetime.timedelta(microseconds=1)
_MICROS = pa.timestamp("us", tz="UTC")
_F32 = struct.Struct("<f")


class OutOfRange(int):
    """A time Spark holds (its microseconds since the epoch) outside the years a datetime holds (0001 to 9999, UTC):
    what :func:`instants` gives for it, for the encode functions to refuse (``instant_out_of_range``)."""

    __slots__ = ()


def instants(times: pa.Array) -> list[datetime.datetime | OutOfRange | None]:
    """A timestamp array's values as aware datetimes in UTC (whatever its time zone, as the instants they are),
    None for null, :class:`OutOfRange` for one before 0001 or after 9999; several times faster than ``to_pylist``,
    which builds a ``ZoneInfo`` time per value."""
    micros = times.cast(_MICROS).cast(pa.int64()).to_pylist()
    try:
        return [None if m is None else _EPOCH + m * _MICROSECOND for m in micros]
    except OverflowError:
        return [None if m is None else _instant(m) for m in micros]


def _instant(micros: int) -> datetime.datetime | OutOfRange:
    try:
        return _EPOCH + micros * _MICROSECOND
    except OverflowError:
        return OutOfRange(micros)


_FIRST = datetime.datetime.min.replace(tzinfo=datetime.UTC)
_LAST = datetime.datetime.max.replace(tzinfo=datetime.UTC)


def time_unfit(time: datetime.datetime | None, path: str) -> str | None:
    """Why a decoded time cannot be Spark's TIMESTAMP: its offset puts its instant before 0001 or after 9999 (UTC),
    outside Spark's range (Arrow would take it, and no Python datetime could read it back); None when it can."""
    if time is None or _FIRST <= time <= _LAST:
        return None
    return _m.not_representable(path=path, why=_m.instant_out_of_range(micros=(time - _EPOCH) // _MICROSECOND))


def pairs(array: pa.Array) -> list[list[tuple[Any, Any]] | None]:
    """Each row of a map array, or of a list array of two-field structs (such as Kafka headers), as its list of
    (key, value) pairs in order; None for a null row. Much faster than ``to_pylist`` (which builds a dict or a list
    per entry): the keys and values are converted once for the whole batch, then sliced."""
    offsets = array.offsets.to_pylist()  # positions in the unsliced children
    start, end = offsets[0], offsets[-1]
    if isinstance(array, pa.MapArray):
        keys, values = array.keys.slice(start, end - start), array.items.slice(start, end - start)
    else:
        keys, values = array.values.slice(start, end - start).flatten()
    both = list(zip(keys.to_pylist(), values.to_pylist(), strict=True))
    valid = array.is_valid().to_pylist() if array.null_count else None
    return [
        both[offsets[i] - start : offsets[i + 1] - start] if valid is None or valid[i] else None
        for i in range(len(array))
    ]


def _float32(value: float | None) -> float | None:
    """The float with the shortest decimal text that is the same float32 as ``value`` (0.1 for the float32 nearest
    0.1, whose exact value ``to_pylist`` gives: 0.10000000149011612), as Java's ``Float.toString`` reads it."""
    if value is None or not math.isfinite(value):
        return value
    for digits in range(1, 10):  # nine significant digits always identify a float32
        shorter = float(f"{value:.{digits}g}")
        try:
            if _F32.unpack(_F32.pack(shorter))[0] == value:
                return shorter
        except OverflowError:  # rounded up past the largest float32
            continue
    return value


def values_of(array: pa.Array) -> list[Any]:
    """An array's values as Python values, as ``to_pylist`` gives them except: times as :func:`instants` (in UTC),
    maps as :func:`pairs` (lists of pairs in order, not dicts), each much faster; float32 values as the shortest
    decimal that is the same float32 (a FLOAT column holds ``0.1`` as the float32 nearest it: read back as 0.1)."""
    if pa.types.is_timestamp(array.type):
        return instants(array)
    if pa.types.is_map(array.type):
        return pairs(array)
    if pa.types.is_float32(array.type):
        return [_float32(value) for value in array.to_pylist()]
    return array.to_pylist()  # type: ignore[no-any-return]


def pairs_array(rows: list[list[tuple[Any, Any]] | None], arrow: pa.DataType) -> pa.Array:
    """The inverse of :func:`pairs`: rows of (key, value) pairs (None: a null row) as an array of ``arrow`` (a map
    type, or a list of two-field structs)."""
    offsets = [0]
    keys: list[Any] = []
    values: list[Any] = []
    for row in rows:
        for key, value in row or ():
            keys.append(key)
            values.append(value)
        offsets.append(len(keys))
    mask = pa.array([row is None for row in rows], pa.bool_())
    where = pa.array(offsets, pa.int32())
    if isinstance(arrow, pa.MapType):
        key_array, item_array = pa.array(keys, arrow.key_type), pa.array(values, arrow.item_type)
        return pa.MapArray.from_arrays(where, key_array, item_array, type=arrow, mask=mask)
    struct = arrow.value_type
    children = [pa.array(keys, struct.field(0).type), pa.array(values, struct.field(1).type)]
    items = pa.StructArray.from_arrays(children, fields=fields_of(struct))
    return pa.ListArray.from_arrays(where, items, type=arrow, mask=mask)


def arrow_udf(function: Callable[..., pa.Array], returns: DataType) -> Callable[..., Column]:
    """A scalar Arrow UDF, known as such by its type hints (``pa.Array`` in, one per column, and out); pyspark's
    stubs only describe the older form with ``functionType``, which warns at run time."""
    return F.arrow_udf(function, returns)  # type: ignore[call-overload,no-any-return]


def reason(error: DecodeError) -> str:
    """The DecodeError's text without the protocol's name in front (the column is already this protocol's)."""
    return str(error).removeprefix(f"{error.protocol}: ")


def uuid_of(value: Any, path: str) -> Any:
    """A UUID from its text; anything but text is left for the codec to refuse."""
    if not isinstance(value, str):
        return value
    try:
        return uuid.UUID(value)
    except ValueError:
        raise EncodeError(_m.not_a_uuid(value=repr(value)), field=path) from None


_JSON_ENCODE = msgspec.json.Encoder().encode
_JSON_DECODE = msgspec.json.Decoder().decode


def free_value(value: str | dict[str, bytes]) -> Any:
    """A free-form value from Arrow: its JSON text (``to_text`` of a VARIANT) or a VARIANT's binary form (a struct of
    ``value`` and ``metadata``, as a MessagePack framing's Python path takes it)."""
    if isinstance(value, str):
        return json_value(value)
    return _variant.python_value(value["value"], value["metadata"])


def json_text(value: Any) -> str:
    """A free-form JSON value (as the codec decodes it) as JSON text, which ``from_text`` makes a VARIANT (as deep as
    the codec reads, whatever the stack in use)."""
    try:
        return _JSON_ENCODE(value).decode()
    except RecursionError:
        return roomy(lambda: _JSON_ENCODE(value).decode())


def json_value(text: str | None) -> Any:
    """A free-form JSON value from its JSON text (``to_text`` of a VARIANT); a SQL null is a JSON null."""
    if text is None:
        return None
    try:
        return _JSON_DECODE(text)
    except RecursionError:
        return roomy(lambda: _JSON_DECODE(text))


def _laid_out(values: list[Any], flat: list[Any]) -> tuple[pa.Array, pa.Array | None]:
    """The offsets of the lists (or dicts' values) ``values`` laid end to end into ``flat``, and the mask of the
    None among them (None when there is none)."""
    offsets = [0]
    for value in values:
        if value is not None:
            flat.extend(value)
        offsets.append(len(flat))
    mask = pa.array([v is None for v in values], pa.bool_()) if None in values else None
    return pa.array(offsets, pa.int32()), mask


def to_array(values: list[Any], arrow: pa.DataType, shape: Shape) -> pa.Array:
    """Codec values (all of one field) as one Arrow array of type ``arrow``, converted as ``shape`` says."""
    if shape is None:
        return pa.array(values, arrow)
    if isinstance(shape, Absent):
        return to_array([None if v is UNSET else v for v in values], arrow, shape.value)
    if isinstance(shape, Struct):
        fields = fields_of(arrow)
        if None in values:
            mask = pa.array([v is None for v in values], pa.bool_())
            columns = [[None if v is None else getattr(v, attribute) for v in values] for attribute, _ in shape.fields]
        else:
            mask = None
            columns = [list(map(operator.attrgetter(attribute), values)) for attribute, _ in shape.fields]
        children = [
            to_array(column, field.type, inner)
            for column, (_, inner), field in zip(columns, shape.fields, fields, strict=True)
        ]
        return pa.StructArray.from_arrays(children, fields=fields, mask=mask)
    if isinstance(shape, Items):
        flat: list[Any] = []
        offsets, mask = _laid_out(values, flat)
        return pa.ListArray.from_arrays(offsets, to_array(flat, arrow.value_type, shape.item), type=arrow, mask=mask)
    if isinstance(shape, Free):
        return shape.array(values, arrow)
    if isinstance(shape, Entries):
        keys: list[Any] = []
        items: list[Any] = []
        offsets, mask = _laid_out([None if v is None else v.values() for v in values], items)
        for v in values:
            if v is not None:
                keys.extend(v)
        converted = to_array(items, arrow.item_type, shape.item)
        return pa.MapArray.from_arrays(offsets, pa.array(keys, arrow.key_type), converted, type=arrow, mask=mask)
    return pa.array(list(map(shape, values)), arrow)


def _kind_array(kind: Kind, arrow: pa.DataType, messages: list[Any]) -> pa.Array:
    """The messages (all of one kind) as one Arrow array of that kind's column type."""
    if not kind.fields:  # a message without fields: an empty struct (JSON) or true (binary)
        return pa.array([{} if pa.types.is_struct(arrow) else True] * len(messages), arrow)
    return to_array(messages, arrow, Struct(kind.fields))


def _unfit(kind: Kind, arrow: pa.DataType, message: Any) -> str:
    """Why a decoded message cannot be an Arrow value: a text field holding an unpaired surrogate, which the codec
    keeps (as a Java String does) but a Spark string, always UTF-8, cannot hold."""
    for (attribute, shape), field in zip(kind.fields, fields_of(arrow), strict=True):
        try:
            to_array([getattr(message, attribute)], field.type, shape)
        except (UnicodeError, pa.ArrowException) as exc:
            return _m.not_representable(path=f"{kind.name}.{attribute}", why=exc)
    return f"`{kind.name}`: not representable in Spark"


def columns(kinds: dict[str, Kind], arrow: pa.StructType, found: list[Any], errors: list[str | None]) -> list[pa.Array]:
    """The children of a decoded struct (``message``, one per kind, ``error``) for rows holding a codec message
    (``found``) or none; a message Arrow cannot hold becomes a row error instead (in ``errors``).

    Each kind present is built once from its messages, laid out as if the rows were grouped by kind, then put back
    in row order with one ``take`` per kind; the kinds not present are all null.
    """
    size = len(found)
    groups: dict[type, list[int]] = {}
    for i, message in enumerate(found):
        if message is not None:
            rows = groups.get(type(message))
            if rows is None:
                rows = groups[type(message)] = []
            rows.append(i)
    names: list[str | None] = [None] * size
    placed: dict[str, tuple[int, list[int], pa.Array]] = {}  # kind -> (first position when grouped, rows, values)
    start = 0
    for kind in kinds.values():
        rows = groups.pop(kind.cls, [])
        if not rows:
            continue
        arrow_type = arrow.field(kind.column).type
        try:
            dense = _kind_array(kind, arrow_type, [found[i] for i in rows])
        except (UnicodeError, pa.ArrowException):  # rare: find the rows at fault, keep the others
            fit = []
            for i in rows:
                try:
                    _kind_array(kind, arrow_type, [found[i]])
                    fit.append(i)
                except (UnicodeError, pa.ArrowException):
                    errors[i] = _unfit(kind, arrow_type, found[i])
            rows = fit
            if not rows:
                continue
            dense = _kind_array(kind, arrow_type, [found[i] for i in rows])
        placed[kind.name] = (start, rows, dense)
        for i in rows:
            names[i] = kind.name
        start += len(rows)
    if groups:
        raise TypeError(f"the codec returned a {next(iter(groups)).__name__}, which has no column here")
    order: pa.Array | None = None
    if len(placed) > 1 or (placed and start != size):
        where = [0] * size
        spare = start  # rows without a message go after the grouped ones
        for i in range(size):
            if names[i] is None:
                where[i] = spare
                spare += 1
        for first, rows, _ in placed.values():
            for j, i in enumerate(rows):
                where[i] = first + j
        order = pa.array(where, pa.int32())
    children = [pa.array(names, pa.string())]
    for kind in kinds.values():
        arrow_type = arrow.field(kind.column).type
        if kind.name not in placed:
            children.append(pa.nulls(size, arrow_type))
            continue
        first, rows, dense = placed[kind.name]
        if order is None:
            children.append(dense)
            continue
        grouped = pa.concat_arrays([pa.nulls(first, arrow_type), dense, pa.nulls(size - first - len(rows), arrow_type)])
        children.append(grouped.take(order))
    children.append(pa.array(errors, pa.string()))
    return children


def decode_batch(
    values: pa.Array,
    decode: Callable[[Any], Any],
    kinds: dict[str, Kind],
    arrow: pa.StructType,
    failure: Callable[[str, Any], Exception] | None = None,
) -> pa.StructArray:
    """One Arrow batch of inputs -> the decoded struct (``arrow``: ``message``, a column per kind, ``error``), null
    for a null input. ``decode`` is the codec's, for one input; its ``DecodeError`` is the row's ``error``, or, with
    ``failure`` (FAILFAST), raised as ``failure(problem, input)``."""
    inputs = values.to_pylist()
    found: list[Any] = [None] * len(inputs)
    errors: list[str | None] = [None] * len(inputs)
    for i, data in enumerate(inputs):
        if data is not None:
            try:
                found[i] = decode(data)
            except DecodeError as exc:
                if failure is not None:
                    raise failure(reason(exc), data) from None
                errors[i] = reason(exc)
    children = columns(kinds, arrow, found, errors)
    if failure is not None:
        for data, error in zip(inputs, errors, strict=True):
            if error is not None:  # a value Spark cannot hold
                raise failure(error, data)
    mask = values.is_null() if values.null_count else None
    return pa.StructArray.from_arrays(children, fields=fields_of(arrow), mask=mask)


def problem(error: DecodeError | EncodeError) -> str:
    """A codec error as a row's ``error`` reads on the JVM path too: the field between backticks (if it names one),
    the reason, and for a DecodeError that has one its offset (a field's value in a structured event has both)."""
    text = f"`{error.field}`: {error.reason}" if error.field else error.reason
    offset = getattr(error, "offset", None)
    return text if offset is None else f"{text} (offset {offset})"


def codec_text(error: EncodeError) -> str:
    """A codec error as a row's ``error`` where the JVM path words it as the codec does (the JSON family): its text
    without the protocol's name in front."""
    return str(error).removeprefix(f"{error.protocol}: ")


class _Refused(Exception):
    """A row that names no message the codec could encode (its text is the row's error, in every family)."""


def _encode_one(
    kind: Kind | None,
    name: str,
    value: Any,
    rows: pa.StructType,
    encode: Callable[[Any], bytes],
    error: type[EncodeError],
) -> bytes:
    """One decoded row's bytes, or the codec's EncodeError."""
    if kind is None:
        raise _Refused(_m.unknown_message(name=name))
    if rows.get_field_index(kind.column) < 0:
        raise _Refused(problem(error(_m.no_column_for_message(name=name), field=kind.column)))
    column = rows.field(kind.column).type
    if value is None and not (pa.types.is_struct(column) and column.num_fields == 0):  # an empty struct says nothing
        raise _Refused(problem(error(_m.null_for_message(name=name), field=kind.column)))
    try:
        message = kind.build(value)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, EncodeError):
            raise
        raise error(str(exc), field=name) from None
    return encode(message)


@functools.cache
def _holds_map(arrow: pa.DataType) -> bool:
    if pa.types.is_map(arrow):
        return True
    return any(_holds_map(arrow.field(i).type) for i in range(arrow.num_fields))


def _dicts(column: pa.Array) -> list[Any]:
    """A column's values with every map as a dict, as the codec holds it. A map that repeats a key (Spark makes none
    under its default ``mapKeyDedupPolicy``, but an Arrow batch or a data source can hold one) keeps the key where it
    first stands, with its last value: Spark's ``LAST_WIN`` policy, and what the JVM path's ``LinkedHashMap`` keeps.
    A column without a map is read without asking for dicts: pyarrow then reads each value in C (several times
    faster for a list of structs, such as KCL's records)."""
    if not _holds_map(column.type):
        return column.to_pylist()  # type: ignore[no-any-return]
    try:
        return column.to_pylist(maps_as_pydicts="strict")  # type: ignore[no-any-return]
    except ValueError:  # a repeated key: pyarrow's lossy conversion keeps the last value, and warns of each
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return column.to_pylist(maps_as_pydicts="lossy")  # type: ignore[no-any-return]


def encode_batch(
    rows: pa.Array,
    kinds: dict[str, Kind],
    encode: Callable[[Any], bytes],
    error: type[EncodeError],
    words: Callable[[EncodeError], str] = problem,
) -> pa.StructArray:
    """One Arrow batch of decoded rows -> ``ENCODED`` (null ``data`` where ``message`` is null, or with an error).
    ``encode`` is the codec's, for one message; ``error`` the codec's ``EncodeError``; ``words`` how an EncodeError
    reads in the ``error`` column (by default the field between backticks, then the reason)."""
    names = pc.struct_field(rows, "message").to_pylist()
    groups: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        if name is not None:
            groups.setdefault(name, []).append(i)
    out: list[bytes | None] = [None] * len(names)
    errors: list[str | None] = [None] * len(names)
    for name, where in groups.items():
        kind = kinds.get(name)
        if kind is None or rows.type.get_field_index(kind.column) < 0:
            values: list[Any] = [None] * len(where)
        else:
            column = pc.struct_field(rows, kind.column).take(pa.array(where, pa.int32()))
            values = _dicts(column)
        for i, value in zip(where, values, strict=True):
            try:
                out[i] = _encode_one(kind, name, value, rows.type, encode, error)
            except _Refused as refused:
                errors[i] = str(refused)
            except EncodeError as exc:
                errors[i] = words(exc)
    children = [pa.array(out, pa.binary()), pa.array(errors, pa.string())]
    return pa.StructArray.from_arrays(children, fields=fields_of(ENCODED_ARROW))
