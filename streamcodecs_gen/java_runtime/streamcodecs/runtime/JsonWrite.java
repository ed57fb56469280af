package streamcodecs.runtime;

import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.unsafe.types.VariantVal;

/**
 * The JSON family's typed writing: values written with {@link CompactJson} as the Python codec writes them
 * (msgspec's forms: its float text, RFC 3339 with microseconds, standard base64), refusing what it refuses. The
 * cores of each wire type ({@link JsonWire}'s per-type writers call them), lists, maps and constants.
 */
public final class JsonWrite {
    private JsonWrite() {
    }

    /** Writes a value. */
    @FunctionalInterface
    public interface Write<T> {
        void write(CompactJson w, T value) throws JsonProblem;
    }

    /** Writes null (or refuses it, when not {@code nullable}); false when {@code v} is not null. */
    private static boolean isNull(CompactJson w, Object v, String type, boolean nullable) throws JsonProblem {
        if (v != null) {
            return false;
        }
        if (!nullable) {
            throw new JsonProblem(Messages.expectedType(type, "null"));
        }
        w.literal("null");
        return true;
    }

    static void str(CompactJson w, String v, boolean nullable) throws JsonProblem {
        if (!isNull(w, v, "str", nullable)) {
            w.string(v);
        }
    }

    static void bool(CompactJson w, Boolean v, boolean nullable) throws JsonProblem {
        if (!isNull(w, v, "bool", nullable)) {
            w.literal(v ? "true" : "false");
        }
    }

    /** An integer of the type whose range is {@code min..max} (a wider Java type may hold more: refused). */
    static void integer(CompactJson w, Number v, boolean nullable, long min, long max) throws JsonProblem {
        if (!isNull(w, v, "int", nullable)) {
            long value = v.longValue();
            if (value > max) {
                throw new JsonProblem(Messages.intAtMost(max));
            }
            if (value < min) {
                throw new JsonProblem(Messages.intAtLeast(min));
            }
            w.number(Long.toString(value));
        }
    }

    /** A finite double as msgspec writes it in JSON (the Python codec's encoder), else the codec's refusal. */
    static String pythonFloat(double d) throws JsonProblem {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new JsonProblem(Messages.expectedType("float", d));
        }
        return PythonText.msgspecFloat(d);
    }

    static void float64(CompactJson w, Double v, boolean nullable) throws JsonProblem {
        if (!isNull(w, v, "float", nullable)) {
            w.number(pythonFloat(v));
        }
    }

    static void base64(CompactJson w, byte[] v, boolean nullable) throws JsonProblem {
        if (!isNull(w, v, "bytes", nullable)) {
            w.string(Base64.getEncoder().encodeToString(v));
        }
    }

    static void uuid(CompactJson w, UUID v, boolean nullable) throws JsonProblem {
        if (!isNull(w, v, "uuid", nullable)) {
            w.string(v.toString());
        }
    }

    /** A date-time as msgspec writes it ({@link Rfc3339#text}); one it has no text for refused in
     * {@link Rfc3339#problem}'s words (an offset with seconds in the Python encoder's). */
    static void timestamp(CompactJson w, OffsetDateTime v, boolean nullable) throws JsonProblem {
        if (!isNull(w, v, "datetime", nullable)) {
            String problem = Rfc3339.problem(v);
            if (problem != null) {
                throw new JsonProblem(problem);
            }
            w.string(Rfc3339.text(v));
        }
    }

    /**
     * A VARIANT as the Python codec writes the value it holds (Spark's JSON text of it, read as Python reads JSON,
     * written as msgspec writes it: floats in msgspec's form, {@code 1.0E16} as {@code 1e16}); null writes null.
     */
    static void any(CompactJson w, VariantVal v) throws JsonProblem {
        if (w.hold(v)) {
            return; // the MessagePack framing writes it (PackedWrite)
        }
        if (v == null) {
            w.literal("null");
            return;
        }
        String text = v.toJson(ZoneOffset.UTC);
        try {
            w.json(KafkaJson.anyJson(text.getBytes(StandardCharsets.UTF_8), -1));
        } catch (KafkaWire.Invalid e) {
            if (!JsonChecks.TOO_DEEP.equals(e.getMessage())) {
                throw new JsonProblem(e.getMessage());
            }
            // Nested deeper than the limit by itself: written as Spark gives it, so that the message is refused as
            // the Python codec refuses it, whole (too deep, naming the message, by the check of what was
            // written) and only after its other fields' problems, not at this value's path.
            w.json(text);
        }
    }

    public static void writeConstStr(CompactJson w, String v, String value) throws JsonProblem {
        if (!value.equals(v)) {
            throw v == null ? new JsonProblem(Messages.expectedType("str", "null")) : JsonRead.invalidEnum(v);
        }
        w.string(v);
    }

    /** A constant integer field of any width (its boxed type: Byte, Short, Integer, Long). */
    public static <T extends Number> void writeConstInt(CompactJson w, T v, T value) throws JsonProblem {
        if (!value.equals(v)) {
            throw v == null ? new JsonProblem(Messages.expectedType("int", "null")) : JsonRead.invalidEnum(v);
        }
        w.number(v.toString());
    }

    public static <T> void writeList(CompactJson w, List<T> v, Write<T> item) throws JsonProblem {
        if (v == null) {
            throw new JsonProblem(Messages.expectedType("array", "null"));
        }
        w.beginArray();
        int index = 0;
        try {
            for (T x : v) {
                item.write(w, x);
                index++;
            }
        } catch (JsonProblem e) {
            throw e.at(index);
        }
        w.endArray();
    }

    public static <T> void writeListOrNull(CompactJson w, List<T> v, Write<T> item) throws JsonProblem {
        if (v == null) {
            w.literal("null");
        } else {
            writeList(w, v, item);
        }
    }

    public static <T> void writeMap(CompactJson w, Map<String, T> v, Write<T> item) throws JsonProblem {
        if (v == null) {
            throw new JsonProblem(Messages.expectedType("object", "null"));
        }
        w.beginObject();
        try {
            for (Map.Entry<String, T> e : v.entrySet()) {
                if (e.getKey() == null) {
                    throw new JsonProblem(Messages.expectedType("str", "null"));
                }
                w.key(e.getKey());
                item.write(w, e.getValue());
            }
        } catch (JsonProblem e) {
            throw e.inMap();
        }
        w.endObject();
    }

    public static <T> void writeMapOrNull(CompactJson w, Map<String, T> v, Write<T> item) throws JsonProblem {
        if (v == null) {
            w.literal("null");
        } else {
            writeMap(w, v, item);
        }
    }
}
