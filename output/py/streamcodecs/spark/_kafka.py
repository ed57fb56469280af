# Copied from streamcodecs_gen/py_package/spark/_kafka.py by ./generator.py; edit that file, not this copy.
"""The Kafka family's Spark functions: events laid on Kafka records (``from_kafka``, ``to_kafka``, ``content_mode``,
``data_text``) and in the JSON event format (``decode``, ``encode``).

A protocol's module holds the schema of its event, the row its Python path makes of the codec's event
(``_spark_row``) and back (``_event_of``), both generated from its fields, and hands them with the facts of its
definition to :class:`KafkaFunctions`, which its public functions call: on the JVM path the protocol's Java UDFs
(``_jvm``), otherwise Arrow UDFs calling the generated Python codec. :class:`Media` is what the event's content
type says of its data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Unpack

import msgspec
import pyarrow as pa
from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import to_arrow_type
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    IntegerType,
    LongType,
    MapType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

from .._runtime import kafkawire as _kw
from .._runtime import messages as _m
from .._runtime.jsontext import roomy
from .._runtime.kafkarecords import CONTENT_MODES
from . import (
    ENCODED,
    _arrow,
    _functions,
    _gc,
    _jvm,
    check_direction,
    check_mode,
    encoded,
    finish,
    raise_unless_null,
    said,
)
from ._narrow import over_struct
from ._shape import named_fields

__all__ = ["CONTENT_MODES", "HEADERS", "KAFKA_SOURCE_SCHEMA", "KafkaFunctions", "Media", "SparkEvent"]

HEADERS = ArrayType(StructType([StructField("key", StringType()), StructField("value", BinaryType())]))
KAFKA_SOURCE_SCHEMA = StructType(
    [
        StructField("key", BinaryType()),
        StructField("value", BinaryType()),
        StructField("topic", StringType()),
        StructField("partition", IntegerType()),
        StructField("offset", LongType()),
        StructField("timestamp", TimestampType()),
        StructField("timestampType", IntegerType()),
        StructField("headers", HEADERS),
    ]
)
_TO_KAFKA_ROW = StructType(
    [StructField("value", BinaryType()), StructField("headers", HEADERS), StructField("error", StringType())]
)
"""What the UDFs of ``to_kafka`` return: the record's value and headers, or the problem."""
_STAGE = "__streamcodecs_{}"
_NO_EVENT = _m.NO_EVENT_ROW
_TEXT_TYPE = "text"
"""The top-level media type of text (RFC 2046): such data is text, as is JSON."""
_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw]).decode
"""An event in the JSON event format as its members' JSON texts (the last of repeated members, as the codec)."""


def _data_text(document: bytes, member: str) -> bytes:
    return msgspec.json.format(_MEMBERS(document)[member], indent=-1)


class Media:
    """What an event's content type says of its data: JSON when its subtype is one of ``json_subtypes`` or ends
    in one of ``json_suffixes``, text when JSON or ``text/*``; an absent one means ``implied``. ``data_member`` is
    the member of the JSON event format that holds JSON data."""

    def __init__(
        self, json_subtypes: Sequence[str], json_suffixes: Sequence[str], implied: str, data_member: str
    ) -> None:
        self.is_json = _kw.JsonMediaTypes(json_subtypes, json_suffixes).cached
        self.implied = implied
        self.json_implied = self.is_json(implied)  # whether an absent content type means JSON data
        self.implied_text = self.json_implied or implied.startswith(_TEXT_TYPE + "/")  # ... text
        self.data_member = data_member

    def payload(self, data: Any, content_type: str | None, document: bytes | None) -> tuple[str | None, Any]:
        """The data of an event (as the codec holds it) as bytes and its content type, as the JVM path gives them:
        bytes as they are; JSON data (a structured record's data member, read from ``document``) as its text,
        whitespace between tokens removed, under the type the format implies when none is given; a string under
        another type in UTF-8."""
        if data is _kw.MISSING:
            return content_type, None
        if type(data) is bytes:
            return content_type, data
        if not (self.json_implied if content_type is None else self.is_json(content_type)):
            return content_type, data.encode("utf-8")  # the codec only reads strings there
        assert document is not None
        try:
            text = _data_text(document, self.data_member)
        except RecursionError:  # JSON data nested deeper than this stack allows, within the codec's limit
            text = roomy(lambda: _data_text(document, self.data_member))
        return self.implied if content_type is None else content_type, text

    def text(self, content_type: str | None, data: bytes | None) -> str | None:
        """The data as text when its content type says it is text (JSON, ``text/*``, or absent where that means
        either) and it is UTF-8."""
        if data is None:
            return None
        if content_type is None:
            if not self.implied_text:
                return None
        elif not self.is_json(content_type) and _kw.media_type_essence(content_type).partition("/")[0] != _TEXT_TYPE:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return None


class SparkEvent(NamedTuple):
    """A protocol's event as its Spark module holds it: the message's name, its column in ``DECODED`` and in the
    row of ``from_kafka``, its schema, the row class (a NamedTuple of its fields in schema order), the generated
    ``spark_row`` (the codec's event and the JSON event format it was read from, or None -> a row) and
    ``event_of`` (a row's values -> the codec's event, or its EncodeError), the Python names of its data, of its
    content type, of its map of undeclared attributes and of its time passed to the Java UDFs (None: it has none),
    and its data's attribute name (problems name it)."""

    message: str
    column: str
    schema: StructType
    row: type[tuple[Any, ...]]
    spark_row: Callable[[Any, bytes | None], tuple[Any, ...]]
    event_of: Callable[..., Any]
    payload: str
    content_type: str
    extra: str | None
    time: str | None
    payload_name: str


def _quoted(name: str) -> Column:
    return F.col("`" + name.replace("`", "``") + "`")


class KafkaFunctions(_functions.ProtocolFunctions):
    """The Spark functions of one protocol, beside what every family's functions take (:class:`~._functions.Common`):
    ``event`` its event, ``media`` what a content type says, ``key_mappers`` the attributes that may become the
    record's key (mapper -> (field, encoding)) and ``no_java`` why the protocol has no Java target (then every
    function takes its Python path), or None."""

    def __init__(
        self,
        module: str,
        name: str,
        *,
        event: SparkEvent,
        media: Media,
        key_mappers: dict[str, tuple[str, str]],
        no_java: str | None = None,
        **common: Unpack[_functions.Common],
    ) -> None:
        super().__init__(module, name, **common)
        self.event = event
        self.time_at = event.schema.names.index(event.time) if event.time is not None else -1
        """Where the event's row holds its time (-1: it has none the Java UDFs take): one whose instant is outside
        Spark's TIMESTAMP range is a row error (``_arrow.time_unfit``)."""
        self.time_path = f"{event.message}.{event.time}"
        self.media = media
        self.key_mappers = key_mappers
        self.no_java = no_java
        self.from_kafka_row = StructType(
            [
                StructField("content_mode", StringType()),
                StructField("message", StringType()),
                StructField(event.column, event.schema),
                StructField("data_text", StringType()),
                StructField("error", StringType()),
            ]
        )
        self.arrow: dict[str, pa.DataType] = {
            "decoded": to_arrow_type(self.decoded, timezone="UTC"),
            "from_kafka": to_arrow_type(self.from_kafka_row, timezone="UTC"),
            "to_kafka": to_arrow_type(_TO_KAFKA_ROW),
        }
        fields = tuple((field, None) for field in event.schema.names)  # the row's fields: what Arrow takes
        self.kinds = {event.message: _arrow.Kind(event.message, event.column, event.row, fields, self._event_of_value)}
        self.at = (event.schema.names.index(event.content_type), event.schema.names.index(event.payload))

    def _event_of_value(self, value: dict[str, Any]) -> Any:
        return self.event.event_of(*value.values())

    # ------------------------------------------------------------ the Python path: the codec on Arrow batches

    def decode_batch(self, values: pa.Array) -> pa.Array:
        """``decode`` of one batch: the JSON event format (BINARY) -> ``DECODED``, null for null."""
        decode, spark_row, problem, error_type = (
            self.codec.decode,
            self.event.spark_row,
            _arrow.problem,
            self.codec.DecodeError,
        )
        payload_name, time_at = self.event.payload_name, self.time_at
        found: list[Any] = []
        errors: list[str | None] = []
        for document in values.to_pylist():
            row = error = None
            if document is not None:
                try:
                    row = spark_row(decode(document), document)
                    if time_at >= 0 and row[time_at] is not None:
                        error = _arrow.time_unfit(row[time_at], self.time_path)
                        row = None if error is not None else row
                except error_type as exc:
                    error = problem(exc)
                except UnicodeEncodeError as exc:
                    error = _m.not_representable(path=payload_name, why=exc.reason)
            found.append(row)
            errors.append(error)
        arrow = self.arrow["decoded"]
        mask = values.is_null() if values.null_count else None
        children = _arrow.columns(self.kinds, arrow, found, errors)
        return pa.StructArray.from_arrays(children, fields=_arrow.fields_of(arrow), mask=mask)

    def from_kafka_batch(self, values: pa.Array, headers: pa.Array) -> pa.Array:
        """``from_kafka`` of one batch: records' values and headers -> the row of ``from_kafka``."""
        codec, spark_row, problem, text = self.codec, self.event.spark_row, _arrow.problem, self.media.text
        record_of, content_mode, from_kafka, error_type = (
            codec.KafkaRecord,
            codec.content_mode,
            codec.from_kafka,
            codec.DecodeError,
        )
        payload_name, time_at = self.event.payload_name, self.time_at
        records = _arrow.pairs(headers)
        modes: list[str] = []
        found: list[Any] = []
        errors: list[str | None] = []
        for value, pairs in zip(values.to_pylist(), records, strict=True):
            record = record_of(None, value, pairs or [])
            modes.append(content_mode(record))
            row = error = None
            try:
                row = spark_row(from_kafka(record), value)
                if time_at >= 0 and row[time_at] is not None:
                    error = _arrow.time_unfit(row[time_at], self.time_path)
                    row = None if error is not None else row
            except error_type as exc:
                error = problem(exc)
            except UnicodeEncodeError as exc:
                error = _m.not_representable(path=payload_name, why=exc.reason)
            found.append(row)
            errors.append(error)
        arrow = self.arrow["from_kafka"]
        decoded = pa.struct([arrow.field(i) for i in (1, 2, 4)])
        message, events, error = _arrow.columns(self.kinds, decoded, found, errors)  # may add errors (unfit values)
        content_type, data = self.at
        texts = [
            None if r is None or e is not None else text(r[content_type], r[data])
            for r, e in zip(found, errors, strict=True)
        ]
        children = [pa.array(modes, pa.string()), message, events, pa.array(texts, pa.string()), error]
        return pa.StructArray.from_arrays(children, fields=_arrow.fields_of(arrow))

    def events(self, events: pa.Array) -> list[Any]:
        """The codec's events of a batch of event rows: None for a null row, the EncodeError of a row the codec's
        types cannot hold."""
        event_of, error_type = self.event.event_of, self.codec.EncodeError
        columns = [_arrow.values_of(column) for column in events.flatten()]  # times in UTC, whatever the session's
        valid = events.is_valid().to_pylist() if events.null_count else None
        at = self.time_at
        out_of_range = at >= 0 and any(type(t) is _arrow.OutOfRange for t in columns[at])
        out: list[Any] = []
        for i, values in enumerate(zip(*columns, strict=True)):
            if valid is not None and not valid[i]:
                out.append(None)
                continue
            if out_of_range and type(values[at]) is _arrow.OutOfRange:  # before 0001 or after 9999: no datetime
                out.append(error_type(_m.instant_out_of_range(micros=int(values[at])), field=self.event.time))
                continue
            try:
                out.append(event_of(*values))
            except error_type as exc:
                out.append(exc)
        return out

    def encode_batch(self, rows: pa.Array) -> pa.Array:
        """``encode`` of one batch: ``DECODED`` rows -> ``ENCODED``."""
        encode, problem, error_type, message = (
            self.codec.encode,
            _arrow.problem,
            self.codec.EncodeError,
            self.event.message,
        )
        columns = rows.flatten()  # the struct's nulls and offset applied
        names = columns[rows.type.get_field_index("message")].to_pylist()
        at = rows.type.get_field_index(self.event.column)
        events = self.events(columns[at]) if at >= 0 else [None] * len(rows)
        data: list[bytes | None] = []
        errors: list[str | None] = []
        for name, event in zip(names, events, strict=True):
            value = error = None
            if name is None:
                pass
            elif name != message:
                error = _m.unknown_message(name=name)
            elif event is None:
                error = _NO_EVENT
            else:
                try:
                    if isinstance(event, error_type):
                        raise event
                    value = encode(event)
                except error_type as exc:
                    error = problem(exc)
            data.append(value)
            errors.append(error)
        return pa.StructArray.from_arrays(
            [pa.array(data, pa.binary()), pa.array(errors, pa.string())], fields=_arrow.fields_of(_arrow.ENCODED_ARROW)
        )

    def to_kafka_batch(self, events: pa.Array, mode: str) -> pa.Array:
        """``to_kafka`` of one batch: event rows -> the record's value and headers, or the problem."""
        to_kafka, problem, error_type = self.codec.to_kafka, _arrow.problem, self.codec.EncodeError
        values: list[bytes | None] = []
        headers: list[list[tuple[str, bytes | None]] | None] = []
        errors: list[str | None] = []
        for event in self.events(events):
            record = error = None
            if event is None:
                error = _NO_EVENT
            else:
                try:
                    if isinstance(event, error_type):
                        raise event
                    record = to_kafka(event, mode)
                except error_type as exc:
                    error = problem(exc)
            values.append(None if record is None else record.value)
            headers.append(None if record is None else record.headers)
            errors.append(error)
        arrow = self.arrow["to_kafka"]
        children = [
            pa.array(values, pa.binary()),
            _arrow.pairs_array(headers, arrow.field("headers").type),
            pa.array(errors, pa.string()),
        ]
        return pa.StructArray.from_arrays(children, fields=_arrow.fields_of(arrow))

    def content_mode_batch(self, headers: pa.Array) -> pa.Array:
        record_of, content_mode = self.codec.KafkaRecord, self.codec.content_mode
        modes = [content_mode(record_of(None, None, pairs or [])) for pairs in _arrow.pairs(headers)]
        return pa.array(modes, pa.string())

    def data_text_batch(self, content_types: pa.Array, data: pa.Array) -> pa.Array:
        texts = map(self.media.text, content_types.to_pylist(), data.to_pylist())
        return pa.array(list(texts), pa.string())

    # ------------------------------------------------------------ the functions

    def _java_udf(self, java_class: str, return_type: Any) -> str | None:
        """The Java UDF to call for a function, or None for its Python path: the session cannot run the jar's UDFs,
        or the protocol has no Java target (said once, in a session that could run it otherwise)."""
        if self.no_java is None:
            return _jvm.java_udf(self.protocol, java_class, return_type)
        if _jvm.available():
            _jvm.warn_no_java(self.protocol, self.no_java)
        return None

    def content_mode(self, headers: Column | str) -> Column:
        """The module's ``content_mode`` (its docstring says what it does)."""
        column = F.col(headers) if isinstance(headers, str) else headers
        udf = self._java_udf("ContentMode", StringType())
        if udf is not None:
            return F.call_udf(udf, column["key"], column["value"])

        def modes(headers: pa.Array) -> pa.Array:
            with _gc.no_cycle_collection():
                return self.content_mode_batch(headers)

        return _arrow.arrow_udf(modes, StringType())(column)

    def data_text(self, event: Column | str) -> Column:
        """The module's ``data_text``."""
        row = F.col(event) if isinstance(event, str) else event
        content_type, payload = row[self.event.content_type], row[self.event.payload]
        udf = self._java_udf("DataText", StringType())
        if udf is not None:
            return F.call_udf(udf, content_type, payload)

        def texts(content_types: pa.Array, data: pa.Array) -> pa.Array:
            with _gc.no_cycle_collection():
                return self.data_text_batch(content_types, data)

        return _arrow.arrow_udf(texts, StringType())(content_type, payload)

    def decode(self, column: Column | str, direction: str | None, mode: str) -> Column:
        """The module's ``decode``."""
        mode = check_mode(mode)
        check_direction(direction, self.directions)
        source = F.col(column) if isinstance(column, str) else column
        udf = self._java_udf("Decode", self.decoded)
        if udf is not None:
            return finish(F.call_udf(udf, source.cast("binary")), mode, self.protocol, source)

        def decode_values(values: pa.Array) -> pa.Array:
            with _gc.no_cycle_collection():
                return self.decode_batch(values)

        return finish(_arrow.arrow_udf(decode_values, self.decoded)(source.cast("binary")), mode, self.protocol, source)

    def _failure(self, error: Column, columns: list[str]) -> Column:
        """The message of a FAILFAST failure: the problem, and where the record is when the columns say so."""
        where: list[Column] = []
        for c in ("topic", "partition", "offset"):
            if c in columns:
                where += [F.lit(f" {c} "), F.coalesce(_quoted(c).cast("string"), F.lit("null"))]
        return F.concat(F.lit(f"{self.protocol}: "), error, *([F.lit(" (record"), *where, F.lit(")")] if where else []))

    def from_kafka(self, df: DataFrame, mode: str, value: str, headers: str) -> DataFrame:
        """The module's ``from_kafka``."""
        mode = check_mode(mode)
        kept = [_quoted(c) for c in df.columns if c not in (value, headers)]
        udf = self._java_udf("FromKafka", self.from_kafka_row)
        if udf is not None:
            # The headers as two arrays, names and values: Spark hands those to a Java UDF faster than structs.
            decoded = F.call_udf(udf, _quoted(value), _quoted(headers)["key"], _quoted(headers)["value"])
        else:

            def read(values: pa.Array, header_lists: pa.Array) -> pa.Array:
                with _gc.no_cycle_collection():
                    return self.from_kafka_batch(values, header_lists)

            decoded = _arrow.arrow_udf(read, self.from_kafka_row)(_quoted(value), _quoted(headers))
        # The UDF's row in a projection of its own, computed once (the next one reads five of its fields).
        staged = df.select(*kept, decoded.alias(_STAGE.format("row")))
        row = F.col(_STAGE.format("row"))
        error = row["error"]
        if mode == "FAILFAST":
            error = F.when(error.isNull(), error).otherwise(F.raise_error(self._failure(error, df.columns)))
        return staged.select(*kept, *[row[c].alias(c) for c in self.from_kafka_row.names[:-1]], error.alias("error"))

    def _for_java(self, event: Column) -> Column:
        """The event without what :meth:`_jvm_event_extras` passes on its own (nulls: Spark would convert those
        fields to Java for nothing)."""
        if self.event.extra is not None:
            event = event.withField(self.event.extra, F.lit(None).cast(MapType(StringType(), StringType())))
        if self.event.time is not None:
            event = event.withField(self.event.time, F.lit(None).cast(TimestampType()))
        return event

    def _jvm_event_extras(self, event: Column) -> list[Column]:
        """What the Java UDFs take besides an event row: its time in microseconds (Spark hands a UDF a
        ``java.sql.Timestamp`` in the hybrid Julian calendar) and the names and values of its undeclared attributes
        in order (Spark hands a UDF a map without its order); the event itself goes without those
        (:meth:`_for_java`)."""
        time, extra = self.event.time, self.event.extra
        return [
            F.lit(None).cast(LongType()) if time is None else F.unix_micros(event[time]),
            F.lit(None).cast(ArrayType(StringType())) if extra is None else F.map_keys(event[extra]),
            F.lit(None).cast(ArrayType(StringType())) if extra is None else F.map_values(event[extra]),
        ]

    def encode(self, column: Column | str, on_error: str) -> Column:
        """The module's ``encode``."""
        on_error = check_mode(on_error)
        row = named_fields(F.col(column) if isinstance(column, str) else column, self.encoded_from)
        event = row[self.event.column]
        udf = self._java_udf("Encode", ENCODED)
        if udf is not None:
            for_java = row.withField(self.event.column, self._for_java(event))
            written = F.call_udf(udf, for_java, *self._jvm_event_extras(event))
        else:

            def encode_rows(rows: pa.Array) -> pa.Array:
                with _gc.no_cycle_collection():
                    return self.encode_batch(rows)

            written = over_struct(encode_rows, ENCODED, row, self.encoded_from)
        return encoded(written["data"], written["error"], on_error, self.protocol)

    def to_kafka(self, df: DataFrame, mode: str, event: str, key_mapper: str | None, on_error: str) -> DataFrame:
        """The module's ``to_kafka``."""
        if mode not in CONTENT_MODES:
            raise ValueError(_m.unknown_mode(mode=repr(mode), modes=CONTENT_MODES))
        on_error = check_mode(on_error)
        e = named_fields(_quoted(event), self.event.schema)  # the event's type: its column's in DECODED
        if key_mapper is not None:
            if key_mapper not in self.key_mappers:
                raise ValueError(_m.unknown_key_mapper(mapper=repr(key_mapper), mappers=sorted(self.key_mappers)))
            field, encoding = self.key_mappers[key_mapper]
            key = F.encode(e[field], encoding)
        elif "key" in df.columns:
            key = F.col("key")
        else:
            key = F.lit(None).cast(BinaryType())
        routing = [c for c in ("topic", "partition") if c in df.columns]
        udf = self._java_udf("ToKafkaBinary" if mode == "binary" else "ToKafkaStructured", _TO_KAFKA_ROW)
        if udf is not None:
            written = F.call_udf(udf, self._for_java(e), *self._jvm_event_extras(e))
        else:

            def write(events: pa.Array) -> pa.Array:
                with _gc.no_cycle_collection():
                    return self.to_kafka_batch(events, mode)

            written = over_struct(write, _TO_KAFKA_ROW, e, self.event.schema)
        routes = [_quoted(c) for c in routing]
        staged = df.select(key.alias(_STAGE.format("key")), written.alias(_STAGE.format("written")), *routes)
        w = F.col(_STAGE.format("written"))
        error = said(_m.cannot_encode_event(protocol=self.protocol, problem=w["error"]))
        if on_error == "FAILFAST":
            error = raise_unless_null(error)
        return staged.select(
            F.col(_STAGE.format("key")).alias("key"),
            w["value"].alias("value"),
            w["headers"].alias("headers"),
            *routes,
            error.alias("error"),
        )
