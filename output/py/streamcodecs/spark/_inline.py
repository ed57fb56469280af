# Copied from streamcodecs_gen/py_package/spark/_inline.py by ./generator.py; edit that file, not this copy.
"""``split_inline`` and ``explode_inline`` of the binary family's Spark modules: a protocol's inline frames in
Spark, in a batch and on a stream.

A protocol with inline frames (``_stream``) hands its ``INLINE`` schema, the Arrow tables of its inline messages
and its codec's frames to :class:`InlineFunctions`, which its public functions call. ``split_inline`` splits one
binary value; ``explode_inline`` reads the pieces of each stream in order in Python (``mapInArrow`` in a batch,
``applyInPandasWithState`` on a streaming DataFrame, which keeps each stream's state between micro-batches in the
layout of :data:`STATE`). On the JVM path the Python step only gathers each frame's bytes and the protocol's Java
``SplitInline`` UDF decodes them.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterable, Iterator
from types import ModuleType
from typing import Any

import pyarrow as pa
from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import to_arrow_type
from pyspark.sql.types import ArrayType, BinaryType, LongType, StringType, StructField, StructType

from .._runtime.frames import Codec
from . import _arrow, _gc, _jvm, _shipped, check_mode
from ._binary import failure
from ._stream import Found, Gathering, InlineFrames, Stream, packed, unpacked

__all__ = ["GATHERED", "STATE", "InlineFunctions"]

STATE = StructType(
    [
        StructField("offset", LongType()),
        StructField("pending", BinaryType()),
        StructField("broken", StringType()),
        StructField("waiting", BinaryType()),
    ]
)
"""What the state store keeps per stream between micro-batches: the stream offset of the next frame, the start of a
frame cut at the end of the last piece (fewer than ``MAX_FRAME`` bytes), why the stream is unreadable, and the
pieces that came after a gap, waiting for the missing piece (at most ``MAX_FRAME`` bytes; ``_stream.packed``: a
binary column, as PySpark 4.3's workers cannot read a state schema holding an array)."""
GATHERED = ("__streamcodecs_offset", "__streamcodecs_frame", "__streamcodecs_problem", "__streamcodecs_no_offset")
"""The columns between the stateful step and the decoding one: stream offset, whole frame (or null), problem; and
the flag of an input row without an offset."""


def _arrow_schema(schema: StructType) -> pa.Schema:
    return pa.schema([pa.field(f.name, to_arrow_type(f.dataType)) for f in schema.fields])


class InlineFunctions(_shipped.Shipped):
    """``split_inline`` and ``explode_inline`` of one protocol: ``codec`` is its generated codec module,
    ``protocol`` its name, ``schema`` its ``INLINE``, ``kinds`` its inline messages by name (in ``INLINE``'s
    order) and ``frames`` the codec's frames (the generated module's ``_frames.Codec``: its inline frames' rule and
    readers)."""

    def __init__(
        self,
        module: str,
        name: str,
        *,
        codec: ModuleType,
        protocol: str,
        schema: StructType,
        kinds: dict[str, _arrow.Kind],
        frames: Codec[Any],
    ) -> None:
        super().__init__(module, name)
        self.codec = codec
        self.protocol = protocol
        self.schema = schema
        self.kinds = kinds
        self.arrow: pa.StructType = to_arrow_type(schema)
        self.frames = InlineFrames(frames)

    # ------------------------------------------------------------ the Python steps

    def _check(self, frames: list[Found], failfast: bool, data: bytes | None = None) -> None:
        if failfast:
            for _, _, problem in frames:
                if problem is not None:
                    error = self.codec.DecodeError
                    raise failure(error, problem, data) if data is not None else error(problem)

    def _children(self, frames: list[Found], failfast: bool) -> list[pa.Array]:
        """INLINE's children for these frames."""
        offsets = pa.array([f[0] for f in frames], pa.int64())
        errors = [f[2] for f in frames]
        columns = _arrow.columns(self.kinds, self.arrow, [f[1] for f in frames], errors)
        self._check([(0, None, e) for e in errors], failfast)  # a value Spark cannot hold
        return [offsets, *columns]

    def split_batch(self, values: pa.Array, failfast: bool) -> pa.Array:
        """One Arrow batch of values -> arrays of INLINE (null for a null value)."""
        frames: list[Found] = []
        lengths = [0]
        for data in values.to_pylist():
            if data is not None:
                stream = Stream(self.frames)
                found = stream.feed(0, data) + stream.finish()
                self._check(found, failfast, data)
                frames += found
            lengths.append(len(frames))
        items = pa.StructArray.from_arrays(self._children(frames, failfast), fields=_arrow.fields_of(self.arrow))
        offsets = pa.array(lengths, pa.int32())
        mask = values.is_null() if values.null_count else None
        return pa.ListArray.from_arrays(offsets, items, mask=mask)

    def explode_batches(
        self,
        batches: Iterable[pa.RecordBatch],
        keyed: bool,
        failfast: bool,
        schema: pa.Schema,
        start: int | None,
        gather: bool = False,
    ) -> Iterator[pa.RecordBatch]:
        """Rows (stream key, offset, data), ordered by key then offset -> one row per inline frame; with ``gather``,
        the frame's bytes whole (or null and a problem), for the JVM to decode."""
        stream: Stream | None = None
        key: Any = None
        keys: list[Any] = []
        frames: list[Found] = []

        def ended() -> None:
            if stream is not None:
                found = stream.finish()
                self._check(found, failfast)
                keys.extend([key] * len(found))
                frames.extend(found)

        def batch() -> pa.RecordBatch:
            columns = [pa.array(keys, schema.field(0).type)] if keyed else []
            if gather:
                columns += [
                    pa.array([f[0] for f in frames], pa.int64()),
                    pa.array([f[1] for f in frames], pa.binary()),
                    pa.array([f[2] for f in frames], pa.string()),
                ]
                return pa.RecordBatch.from_arrays(columns, schema=schema)
            return pa.RecordBatch.from_arrays([*columns, *self._children(frames, failfast)], schema=schema)

        for part in batches:
            rows = zip(*(part.column(i).to_pylist() for i in range(part.num_columns)), strict=True)
            for row in rows:
                row_key, offset, data = row if keyed else (None, *row)
                if stream is None or row_key != key:
                    ended()
                    stream, key = (Gathering if gather else Stream)(self.frames, start), row_key
                if data is None:
                    continue
                found: list[Found]
                if offset is None:
                    found = [(0, None, "no offset")]
                else:
                    found = stream.feed(offset, data)
                self._check(found, failfast)
                keys.extend([key] * len(found))
                frames.extend(found)
            if frames:
                yield batch()
                keys, frames = [], []
        ended()
        if frames:
            yield batch()

    def gather(
        self,
        key: tuple[Any, ...],
        pieces: Iterator[Any],
        state: Any,
        *,
        data: str,
        key_name: str,
        timeout: int | None,
        start: int | None,
        failfast: bool,
    ) -> Iterator[Any]:
        """One stream's pieces of one micro-batch (pandas DataFrames of offset, data and the no-offset flag) -> its
        whole frames (or problems), continuing from and saving to its ``state``; pieces after a gap wait there for
        the missing one. On a timeout, the end of the stream (a gap still open then is a problem). ``failfast``: a
        problem fails the query here (before the state is saved), whichever step decodes the frames."""
        import pandas as pd  # type: ignore[import-untyped]

        offset, no_offset = GATHERED[0], GATHERED[3]
        stream = Gathering(self.frames, start)
        waiting: list[tuple[int, bytes]] = []
        if state.exists:
            saved = state.get
            stream.restore(saved)
            waiting = unpacked(saved[3])
        found: list[Found] = []
        if state.hasTimedOut:
            found, _ = stream.take(waiting, wait=False)
            found += stream.finish()
            self._check(found, failfast)
            state.remove()
        else:
            new: list[tuple[int, bytes]] = []
            chunks = [chunk for chunk in pieces if len(chunk)]
            if chunks:
                rows = pd.concat(chunks, ignore_index=True)
                for at, value, missing in zip(rows[offset], rows[data], rows[no_offset], strict=True):
                    if value is None:
                        continue
                    if missing:
                        found.append((0, None, "no offset"))
                    else:
                        new.append((int(at), value))
            taken, waiting = stream.take(waiting + new, wait=True)
            found = taken + found
            self._check(found, failfast)
            state.update((*stream.saved(), packed(waiting)))
            if timeout is not None:
                state.setTimeoutDuration(timeout)
        if found:
            yield pd.DataFrame(
                {
                    key_name: [key[0]] * len(found),
                    GATHERED[0]: [f[0] for f in found],
                    GATHERED[1]: [f[1] for f in found],
                    GATHERED[2]: [f[2] for f in found],
                }
            )

    def decode_gathered(
        self, batches: Iterable[pa.RecordBatch], keyed: bool, failfast: bool, schema: pa.Schema
    ) -> Iterator[pa.RecordBatch]:
        """Rows (stream key, offset, whole frame or null, problem) -> the stream key and INLINE's fields."""
        for part in batches:
            offsets, frames, problems = (part.column(i).to_pylist() for i in range(1, 4))
            found: list[Found] = []
            for at, data, problem in zip(offsets, frames, problems, strict=True):
                if data is None:
                    found.append((at, None, problem))
                else:
                    with memoryview(data) as view:
                        found.append(self.frames.frame(view, 0, len(view), at))
            columns = [part.column(0)] if keyed else []
            yield pa.RecordBatch.from_arrays([*columns, *self._children(found, failfast)], schema=schema)

    # ------------------------------------------------------------ the Spark functions

    def _java_udf(self) -> str | None:
        """The protocol's Java ``SplitInline`` UDF, or None for the Python path."""
        return _jvm.java_udf(self.protocol, "SplitInline", ArrayType(self.schema))

    def _exploded(self, fields: list[StructField], offset: str) -> StructType:
        """The rows :func:`explode_inline` gives: the stream key's ``fields``, ``offset``, then INLINE's fields."""
        return StructType([*fields, StructField(offset, LongType()), *self.schema.fields[1:]])

    def split_inline(self, column: Column | str, mode: str) -> Column:
        """The module's ``split_inline`` (its docstring says what it does)."""
        mode = check_mode(mode)
        source = F.col(column) if isinstance(column, str) else column
        failfast = mode == "FAILFAST"
        java = self._java_udf()
        if java is not None:
            return F.call_udf(java, source.cast("binary"), F.lit(0).cast("bigint"), F.lit(failfast))

        def split_values(values: pa.Array) -> pa.Array:
            with _gc.no_cycle_collection():
                return self.split_batch(values, failfast)

        return _arrow.arrow_udf(split_values, ArrayType(self.schema))(source.cast("binary"))

    def explode_inline(
        self,
        frame: DataFrame,
        *,
        data: str,
        offset: str,
        stream: str | None,
        mode: str,
        timeout: datetime.timedelta | None,
        start: int | None,
    ) -> DataFrame:
        """The module's ``explode_inline``."""
        mode = check_mode(mode)
        failfast = mode == "FAILFAST"
        if timeout is not None and timeout.total_seconds() <= 0:
            raise ValueError(f"timeout must be positive, not {timeout}")
        if frame.isStreaming:
            return self._explode_stream(frame, data, offset, stream, failfast, timeout, start)
        keyed = stream is not None
        names = [stream] if stream is not None else []
        pieces = frame.select(
            *names, F.col(offset).cast("bigint").alias(offset), F.col(data).cast("binary").alias(data)
        )
        if stream is not None:
            pieces = pieces.repartition(stream).sortWithinPartitions(stream, offset)
        else:
            pieces = pieces.repartition(1).sortWithinPartitions(offset)
        fields = [pieces.schema[stream]] if stream is not None else []
        java = self._java_udf()
        if java is not None:
            return self._explode_on_jvm(pieces, java, names, fields, offset, failfast, start)
        schema = self._exploded(fields, offset)
        run = functools.partial(
            self.explode_batches, keyed=keyed, failfast=failfast, schema=_arrow_schema(schema), start=start
        )
        return pieces.mapInArrow(run, schema)

    def _explode_on_jvm(
        self,
        pieces: DataFrame,
        java: str,
        names: list[str],
        fields: list[StructField],
        offset: str,
        failfast: bool,
        start: int | None,
    ) -> DataFrame:
        """:func:`explode_inline`'s batch path with the Java codec: the Python step (``mapInArrow``, the pieces of
        each stream in order) only gathers each frame's bytes whole, and the Java ``split_inline`` decodes them."""
        frame, problem = GATHERED[1], GATHERED[2]
        schema = StructType(
            [
                *fields,
                StructField(offset, LongType()),
                StructField(frame, BinaryType()),
                StructField(problem, StringType()),
            ]
        )
        run = functools.partial(
            self.explode_batches,
            keyed=bool(names),
            failfast=failfast,
            schema=_arrow_schema(schema),
            start=start,
            gather=True,
        )
        return self._split_gathered(pieces.mapInArrow(run, schema), java, names, offset, offset, failfast)

    def _explode_stream(
        self,
        frame: DataFrame,
        data: str,
        offset: str,
        stream: str | None,
        failfast: bool,
        timeout: datetime.timedelta | None,
        start: int | None,
    ) -> DataFrame:
        """:func:`explode_inline` on a streaming DataFrame: the pieces of each stream gathered into whole frames by
        ``applyInPandasWithState`` (grouped by the stream), then each frame decoded by the Java ``split_inline`` in
        one projection when the session has it (as in a batch, ``_split_gathered``), else in a ``mapInArrow``."""
        from pyspark.sql.streaming.state import GroupStateTimeout

        key = stream if stream is not None else "__streamcodecs_stream"
        at, no_offset = F.col(offset).cast("bigint"), F.col(offset).isNull()
        pieces = frame.select(
            (F.col(stream) if stream is not None else F.lit(0)).alias(key),
            F.coalesce(at, F.lit(0)).alias(GATHERED[0]),
            F.col(data).cast("binary").alias(data),
            no_offset.alias(GATHERED[3]),
        )
        gathered_schema = StructType(
            [
                pieces.schema[key],
                StructField(GATHERED[0], LongType()),
                StructField(GATHERED[1], BinaryType()),
                StructField(GATHERED[2], StringType()),
            ]
        )
        milliseconds = None if timeout is None else max(1, int(timeout.total_seconds() * 1000))
        gather = functools.partial(
            self.gather, data=data, key_name=key, timeout=milliseconds, start=start, failfast=failfast
        )
        gathered = pieces.groupBy(key).applyInPandasWithState(
            gather,
            gathered_schema,
            STATE,
            "append",
            GroupStateTimeout.NoTimeout if timeout is None else GroupStateTimeout.ProcessingTimeTimeout,
        )
        names = [key] if stream is not None else []
        java = self._java_udf()
        if java is not None:
            return self._split_gathered(gathered, java, names, GATHERED[0], offset, failfast)

        # A mapInArrow, not an Arrow UDF: Spark 4.3 feeds a scalar Python UDF's queue the rows of the stateful step
        # as they come, which it cannot hold (ClassCastException: GenericInternalRow to UnsafeRow).
        fields = [pieces.schema[key]] if stream is not None else []
        schema = self._exploded(fields, offset)
        run = functools.partial(
            self.decode_gathered, keyed=stream is not None, failfast=failfast, schema=_arrow_schema(schema)
        )
        return gathered.mapInArrow(run, schema)

    def _split_gathered(
        self, gathered: DataFrame, java: str, names: list[str], at: str, offset: str, failfast: bool
    ) -> DataFrame:
        """The JVM path's decoding step of :func:`explode_inline`, in a batch and on a stream: gathered rows (the
        stream key in ``names``, the frame's stream offset in ``at``, its bytes whole or null, and the problem) ->
        one row per frame (the stream key, ``offset``, INLINE's fields), decoded by the Java ``split_inline`` in one
        projection; a null frame is its problem's row."""
        inline = self.schema
        frame, problem = F.col(GATHERED[1]), F.col(GATHERED[2])
        where = F.col(at)
        nothing = [F.lit(None).cast(f.dataType).alias(f.name) for f in inline.fields[1:-1]]
        alone = F.array(F.struct(where.alias(inline.fields[0].name), *nothing, problem.alias("error")))
        split = F.call_udf(java, frame, where, F.lit(failfast))
        frames = gathered.select(*names, F.inline(F.when(frame.isNull(), alone).otherwise(split)))
        return frames.select(*names, F.col(inline.fields[0].name).alias(offset), *inline.names[1:])
