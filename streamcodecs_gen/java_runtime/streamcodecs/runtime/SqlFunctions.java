package streamcodecs.runtime;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.map_keys;
import static org.apache.spark.sql.functions.map_values;
import static org.apache.spark.sql.functions.raise_error;
import static org.apache.spark.sql.functions.struct;
import static org.apache.spark.sql.functions.substring;
import static org.apache.spark.sql.functions.to_json;
import static org.apache.spark.sql.functions.transform;
import static org.apache.spark.sql.functions.unix_micros;
import static org.apache.spark.sql.functions.when;

import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import streamcodecs.runtime.SparkSql.Arguments;

/**
 * The Spark SQL functions of every protocol, built with public API only: each calls the protocol's Java UDF as the
 * Python function does on its JVM path ({@code <package>.spark}: {@code _binary}, {@code _json}, {@code _kafka},
 * {@code _inline}) and wraps it in the same column expressions ({@code finish}, {@code encoded}), so a SQL function
 * gives the Python function's rows, modes and problems. {@link SparkSql} registers them.
 */
public final class SqlFunctions {
    public static final String PERMISSIVE = "PERMISSIVE";
    public static final String FAILFAST = "FAILFAST";
    private static final List<String> MODES = List.of(PERMISSIVE, FAILFAST);
    /** What every {@code encode} gives: the bytes on the wire and the problem ({@code ENCODED}). */
    public static final StructType ENCODED = schema("`data` BINARY, `error` STRING");
    /** What {@code to_<protocol>_kafka} gives: the record's value and headers, and the problem. */
    public static final StructType TO_KAFKA = schema(
        "`value` BINARY, `headers` ARRAY<STRUCT<`key`: STRING, `value`: BINARY>>, `error` STRING");

    private SqlFunctions() {
    }

    /** A row type from its DDL (the generator renders it from the same plan as the Python module's schema). */
    public static StructType schema(String ddl) {
        return StructType.fromDDL(ddl);
    }

    /** {@code DataTypes.createArrayType(type)}: an array of rows. */
    public static DataType arrayOf(DataType type) {
        return DataTypes.createArrayType(type);
    }

    // ------------------------------------------------------------------ the arguments, checked as Python checks them
    // One order in every function, the Python function's: the mode (or on_error), then the direction, then the
    // serializer; so a call with two bad arguments is refused for the same one on either side.

    /** The mode, upper-cased, or the Python function's refusal ({@code check_mode}). */
    public static String mode(String function, String mode) {
        String upper = mode == null ? null : mode.toUpperCase(Locale.ROOT);
        if (upper == null || !MODES.contains(upper)) { // NULL is Python's None, refused alike (List.of has no null)
            throw new IllegalArgumentException(function + ": "
                + Messages.unknownMode(repr(mode), PythonText.tuple(MODES)));
        }
        return upper;
    }

    /** The direction (null: any), or the Python function's refusal ({@code check_direction}). */
    public static String direction(String function, String direction, List<String> directions) {
        if (direction != null && !directions.contains(direction)) {
            throw new IllegalArgumentException(function + ": "
                + Messages.unknownDirection(repr(direction), PythonText.tuple(directions)));
        }
        return direction;
    }

    /**
     * Whether argument {@code i}, the {@code serializer} (absent: "json"), names a MessagePack framing: one of
     * {@code serializers} after the first ("json"); else the Python function's refusal, in the codec's words.
     */
    public static boolean packed(Arguments a, int i, List<String> serializers) {
        String name = a.text(i, "serializer", serializers.get(0));
        if (name == null || !serializers.contains(name)) {
            throw new IllegalArgumentException(a.function() + ": "
                + Messages.unknownSerializer(repr(name), PythonText.tuple(serializers)));
        }
        return serializers.indexOf(name) > 0;
    }

    /** The content mode of {@code to_kafka}, or its refusal. */
    public static String contentMode(String function, String mode) {
        if (mode == null || !Messages.CONTENT_MODES.contains(mode)) {
            throw new IllegalArgumentException(function + ": "
                + Messages.unknownMode(repr(mode), PythonText.tuple(Messages.CONTENT_MODES)));
        }
        return mode;
    }

    private static String repr(String text) {
        return text == null ? "None" : PythonText.repr(text);
    }

    // ------------------------------------------------------------------ the column rules every family shares

    /** {@code body(value)} with {@code value} computed once however often {@code body} reads it ({@code bind}). */
    public static Column bind(Column value, UnaryOperator<Column> body) {
        return transform(array(value), body::apply).getItem(0);
    }

    /** A catalog message whose fields are columns, as one string column: its texts as literals, its columns as they
     * are. */
    static Column said(Object[] pieces) {
        Column[] columns = new Column[pieces.length];
        for (int i = 0; i < pieces.length; i++) {
            columns[i] = pieces[i] instanceof Column ? (Column) pieces[i] : lit(pieces[i]);
        }
        return concat(columns);
    }

    /** The decoded row; in FAILFAST mode a row with an error fails the query, naming the problem and the input. */
    public static Column finish(Column row, String mode, String protocol, Column source) {
        if (PERMISSIVE.equals(mode)) {
            return row;
        }
        return bind(struct(row.alias("row"), source.alias("source")), both -> {
            Column decoded = both.getField("row");
            Column excerpt = to_json(array(substring(both.getField("source").cast("string"), 1, 120)));
            Column problem = said(Messages.failfastProblem(protocol, decoded.getField("error"), excerpt));
            return when(decoded.getField("error").isNull(), decoded).otherwise(raise_error(problem));
        });
    }

    /** {@code ENCODED} of the bytes and the problem; with FAILFAST a problem fails the query ({@code encoded}). */
    public static Column encoded(Column data, Column error, String onError, String protocol) {
        return bind(struct(data.alias("data"), error.alias("error")), both -> {
            Column problem = both.getField("error");
            if (FAILFAST.equals(onError)) {
                Column failure = said(Messages.cannotEncode(protocol, problem));
                problem = when(problem.isNull(), problem).otherwise(raise_error(failure));
            }
            return struct(when(both.getField("error").isNull(), both.getField("data")).alias("data"),
                problem.alias("error"));
        });
    }

    /** {@code error} (a STRING) when null, else a failure of the query with it as the message. */
    public static Column raiseUnlessNull(Column error) {
        return when(error.isNull(), error).otherwise(raise_error(error));
    }

    /** {@code <protocol>_encode(message[, on_error])} of the binary and JSON families: the Java UDF, as Python. */
    public static Column encode(String protocol, Udf udf, Arguments a) {
        return encode(protocol, a, () -> udf);
    }

    /**
     * {@code <protocol>_encode(message[, on_error[, serializer]])} of a JSON protocol with MessagePack framings
     * ({@code serializers} after "json"): the UDF {@code json} or {@code msgpack}, the serializer checked last.
     */
    public static Column encode(String protocol, Udf json, Udf msgpack, List<String> serializers, Arguments a) {
        return encode(protocol, a, () -> packed(a, 2, serializers) ? msgpack : json);
    }

    private static Column encode(String protocol, Arguments a, Supplier<Udf> udf) {
        String onError = mode(a.function(), a.text(1, "on_error", PERMISSIVE));
        Column result = udf.get().apply(a.column(0));
        if (PERMISSIVE.equals(onError)) {
            return result; // data is already null where there is an error
        }
        return encoded(result.getField("data"), result.getField("error"), onError, protocol);
    }

    // ------------------------------------------------------------------ decode, per family

    /**
     * {@code <protocol>_decode(data[, direction[, mode]])} of the JSON family: the Java UDF takes the direction's
     * index (-1: every direction, in order).
     */
    public static Column jsonDecode(String protocol, Udf udf, List<String> directions, Arguments a) {
        return jsonDecode(protocol, directions, a, () -> udf);
    }

    /**
     * {@code <protocol>_decode(data[, direction[, mode[, serializer]]])} of a JSON protocol with MessagePack framings
     * ({@code serializers} after "json"): the UDF {@code json} or {@code msgpack}, the serializer checked last.
     */
    public static Column jsonDecode(String protocol, Udf json, Udf msgpack, List<String> serializers,
            List<String> directions, Arguments a) {
        return jsonDecode(protocol, directions, a, () -> packed(a, 3, serializers) ? msgpack : json);
    }

    private static Column jsonDecode(String protocol, List<String> directions, Arguments a, Supplier<Udf> udf) {
        String mode = mode(a.function(), a.text(2, "mode", PERMISSIVE));
        String direction = direction(a.function(), a.text(1, "direction", null), directions);
        Udf chosen = udf.get();
        Column source = a.column(0);
        int index = direction == null ? -1 : directions.indexOf(direction);
        return finish(chosen.apply(source.cast("binary"), lit(index)), mode, protocol, source);
    }

    /** {@code <protocol>_decode(data[, direction[, mode]])} of the binary family: the Java UDF checks FAILFAST. */
    public static Column binaryDecode(Udf udf, List<String> directions, Arguments a) {
        String mode = mode(a.function(), a.text(2, "mode", PERMISSIVE));
        String direction = direction(a.function(), a.text(1, "direction", null), directions);
        return udf.apply(a.column(0).cast("binary"), lit(direction).cast("string"), lit(FAILFAST.equals(mode)));
    }

    /** {@code <protocol>_split_inline(value[, mode])}: the value's frames from stream offset 0. */
    public static Column splitInline(Udf udf, Arguments a) {
        String mode = mode(a.function(), a.text(1, "mode", PERMISSIVE));
        return udf.apply(a.column(0).cast("binary"), lit(0L), lit(FAILFAST.equals(mode)));
    }

    // ------------------------------------------------------------------ the Kafka family

    /** The facts of a Kafka-family event the Java UDFs need, as the Python module's {@code SparkEvent} has them. */
    public record Event(String protocol, List<String> directions, String column, String contentType, String payload,
            String time, String extra) {
    }

    /** {@code from_<protocol>_kafka(value, headers[, mode])}: the Python {@code from_kafka}'s columns as a struct. */
    public static Column fromKafka(Event event, Udf udf, Arguments a) {
        String mode = mode(a.function(), a.text(2, "mode", PERMISSIVE));
        Column headers = a.column(1);
        Column row = udf.apply(a.column(0), headers.getField("key"), headers.getField("value"));
        if (PERMISSIVE.equals(mode)) {
            return row;
        }
        return bind(row, r -> when(r.getField("error").isNull(), r)
            .otherwise(raise_error(concat(lit(event.protocol() + ": "), r.getField("error")))));
    }

    /** {@code <protocol>_decode(data[, direction[, mode]])}: the JSON event format (the direction is checked). */
    public static Column kafkaDecode(Event event, Udf udf, Arguments a) {
        String mode = mode(a.function(), a.text(2, "mode", PERMISSIVE));
        direction(a.function(), a.text(1, "direction", null), event.directions());
        Column source = a.column(0);
        return finish(udf.apply(source.cast("binary")), mode, event.protocol(), source);
    }

    /** The event without what {@link #extras} passes on its own (nulls: Spark would convert those for nothing). */
    private static Column forJava(Event event, Column e) {
        Column out = e;
        if (event.extra() != null) {
            out = out.withField(event.extra(), lit(null).cast("map<string,string>"));
        }
        if (event.time() != null) {
            out = out.withField(event.time(), lit(null).cast("timestamp"));
        }
        return out;
    }

    /** The event's time in microseconds and its undeclared attributes' names and values in order. */
    private static Column[] extras(Event event, Column e) {
        Column none = lit(null).cast("array<string>");
        return new Column[] {
            event.time() == null ? lit(null).cast("bigint") : unix_micros(e.getField(event.time())),
            event.extra() == null ? none : map_keys(e.getField(event.extra())),
            event.extra() == null ? none : map_values(e.getField(event.extra())),
        };
    }

    /** {@code <protocol>_encode(message[, on_error])}: the JSON event format, {@code ENCODED}. */
    public static Column kafkaEncode(Event event, Udf udf, Arguments a) {
        String onError = mode(a.function(), a.text(1, "on_error", PERMISSIVE));
        Column row = a.column(0);
        Column e = row.getField(event.column());
        Column[] extras = extras(event, e);
        Column written = udf.apply(row.withField(event.column(), forJava(event, e)), extras[0], extras[1], extras[2]);
        return encoded(written.getField("data"), written.getField("error"), onError, event.protocol());
    }

    /**
     * {@code to_<protocol>_kafka(event[, content_mode[, on_error]])}: the record's value and headers, and the problem
     * of the Python {@code to_kafka} (the record's key is the query's to choose).
     */
    public static Column toKafka(Event event, Udf binary, Udf structured, Arguments a) {
        String mode = contentMode(a.function(), a.text(1, "content_mode", "binary"));
        String onError = mode(a.function(), a.text(2, "on_error", PERMISSIVE));
        Column e = a.column(0);
        Column[] extras = extras(event, e);
        Udf udf = "binary".equals(mode) ? binary : structured;
        Column written = udf.apply(forJava(event, e), extras[0], extras[1], extras[2]);
        return bind(written, w -> {
            Column error = said(Messages.cannotEncodeEvent(event.protocol(), w.getField("error")));
            if (FAILFAST.equals(onError)) {
                error = raiseUnlessNull(error);
            }
            return struct(w.getField("value").alias("value"), w.getField("headers").alias("headers"),
                error.alias("error"));
        });
    }

    /** {@code <protocol>_content_mode(headers)}: the content mode a record's headers say. */
    public static Column contentMode(Udf udf, Arguments a) {
        Column headers = a.column(0);
        return udf.apply(headers.getField("key"), headers.getField("value"));
    }

    /** {@code <protocol>_data_text(event)}: an event's data as text, when its content type says it is text. */
    public static Column dataText(Event event, Udf udf, Arguments a) {
        Column e = a.column(0);
        return udf.apply(e.getField(event.contentType()), e.getField(event.payload()));
    }

    /** A Java UDF of the jar, applied to columns. */
    @FunctionalInterface
    public interface Udf {
        Column apply(Column... columns);
    }
}
