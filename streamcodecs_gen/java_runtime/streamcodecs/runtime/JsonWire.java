package streamcodecs.runtime;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.apache.spark.unsafe.types.VariantVal;

/**
 * The JSON family's per-wire-type methods the generated codecs call: for each type's {@code java_helper} in the
 * generator's type records ({@code Str}, {@code Int32}, ...), {@code read<h>} and {@code read<h>OrNull} (from
 * Jackson's current token, {@link JsonRead}), {@code write<h>} and {@code write<h>OrNull} (to a
 * {@link CompactJson}, {@link JsonWrite}) and, where Spark's external value is not already the codec's,
 * {@code from<h>} ({@link JsonSpark}). Each is one call to the type's core; the rules live in those classes.
 */
public final class JsonWire {
    private JsonWire() {
    }

    public static String readStr(JsonParser p) throws IOException, JsonProblem {
        return JsonRead.str(p, false);
    }

    public static String readStrOrNull(JsonParser p) throws IOException, JsonProblem {
        return JsonRead.str(p, true);
    }

    public static void writeStr(CompactJson w, String v) throws JsonProblem {
        JsonWrite.str(w, v, false);
    }

    public static void writeStrOrNull(CompactJson w, String v) throws JsonProblem {
        JsonWrite.str(w, v, true);
    }

    public static Boolean readBool(JsonParser p) throws IOException, JsonProblem {
        return JsonRead.bool(p, false);
    }

    public static Boolean readBoolOrNull(JsonParser p) throws IOException, JsonProblem {
        return JsonRead.bool(p, true);
    }

    public static void writeBool(CompactJson w, Boolean v) throws JsonProblem {
        JsonWrite.bool(w, v, false);
    }

    public static void writeBoolOrNull(CompactJson w, Boolean v) throws JsonProblem {
        JsonWrite.bool(w, v, true);
    }

    public static Byte readInt8(JsonParser p) throws IOException, JsonProblem {
        return (byte) JsonRead.integer(p, "int", false, Byte.MIN_VALUE, Byte.MAX_VALUE);
    }

    public static Byte readInt8OrNull(JsonParser p) throws IOException, JsonProblem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null
                : Byte.valueOf((byte) JsonRead.integer(p, "int", true, Byte.MIN_VALUE, Byte.MAX_VALUE));
    }

    public static void writeInt8(CompactJson w, Byte v) throws JsonProblem {
        JsonWrite.integer(w, v, false);
    }

    public static void writeInt8OrNull(CompactJson w, Byte v) throws JsonProblem {
        JsonWrite.integer(w, v, true);
    }

    public static Short readInt16(JsonParser p) throws IOException, JsonProblem {
        return (short) JsonRead.integer(p, "int", false, Short.MIN_VALUE, Short.MAX_VALUE);
    }

    public static Short readInt16OrNull(JsonParser p) throws IOException, JsonProblem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null
                : Short.valueOf((short) JsonRead.integer(p, "int", true, Short.MIN_VALUE, Short.MAX_VALUE));
    }

    public static void writeInt16(CompactJson w, Short v) throws JsonProblem {
        JsonWrite.integer(w, v, false);
    }

    public static void writeInt16OrNull(CompactJson w, Short v) throws JsonProblem {
        JsonWrite.integer(w, v, true);
    }

    public static Integer readInt32(JsonParser p) throws IOException, JsonProblem {
        return (int) JsonRead.integer(p, "int", false, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    public static Integer readInt32OrNull(JsonParser p) throws IOException, JsonProblem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null
                : Integer.valueOf((int) JsonRead.integer(p, "int", true, Integer.MIN_VALUE, Integer.MAX_VALUE));
    }

    public static void writeInt32(CompactJson w, Integer v) throws JsonProblem {
        JsonWrite.integer(w, v, false);
    }

    public static void writeInt32OrNull(CompactJson w, Integer v) throws JsonProblem {
        JsonWrite.integer(w, v, true);
    }

    public static Long readInt64(JsonParser p) throws IOException, JsonProblem {
        return JsonRead.integer(p, "int", false, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    public static Long readInt64OrNull(JsonParser p) throws IOException, JsonProblem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null
                : Long.valueOf(JsonRead.integer(p, "int", true, Long.MIN_VALUE, Long.MAX_VALUE));
    }

    public static void writeInt64(CompactJson w, Long v) throws JsonProblem {
        JsonWrite.integer(w, v, false);
    }

    public static void writeInt64OrNull(CompactJson w, Long v) throws JsonProblem {
        JsonWrite.integer(w, v, true);
    }

    public static Double readFloat64(JsonParser p) throws IOException, JsonProblem {
        return JsonRead.number(p, false);
    }

    public static Double readFloat64OrNull(JsonParser p) throws IOException, JsonProblem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null
                : Double.valueOf(JsonRead.number(p, true));
    }

    public static void writeFloat64(CompactJson w, Double v) throws JsonProblem {
        JsonWrite.float64(w, v, false);
    }

    public static void writeFloat64OrNull(CompactJson w, Double v) throws JsonProblem {
        JsonWrite.float64(w, v, true);
    }

    public static Float readFloat32(JsonParser p) throws IOException, JsonProblem {
        return (float) JsonRead.number(p, false);
    }

    public static Float readFloat32OrNull(JsonParser p) throws IOException, JsonProblem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null
                : Float.valueOf((float) JsonRead.number(p, true));
    }

    public static void writeFloat32(CompactJson w, Float v) throws JsonProblem {
        JsonWrite.float32(w, v, false);
    }

    public static void writeFloat32OrNull(CompactJson w, Float v) throws JsonProblem {
        JsonWrite.float32(w, v, true);
    }

    public static byte[] readBase64(JsonParser p) throws IOException, JsonProblem {
        return JsonRead.base64(p, false);
    }

    public static byte[] readBase64OrNull(JsonParser p) throws IOException, JsonProblem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : JsonRead.base64(p, true);
    }

    public static void writeBase64(CompactJson w, byte[] v) throws JsonProblem {
        JsonWrite.base64(w, v, false);
    }

    public static void writeBase64OrNull(CompactJson w, byte[] v) throws JsonProblem {
        JsonWrite.base64(w, v, true);
    }

    public static UUID readUuid(JsonParser p) throws IOException, JsonProblem {
        return JsonRead.uuid(p, false);
    }

    public static UUID readUuidOrNull(JsonParser p) throws IOException, JsonProblem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : JsonRead.uuid(p, true);
    }

    public static void writeUuid(CompactJson w, UUID v) throws JsonProblem {
        JsonWrite.uuid(w, v, false);
    }

    public static void writeUuidOrNull(CompactJson w, UUID v) throws JsonProblem {
        JsonWrite.uuid(w, v, true);
    }

    public static UUID fromUuid(Object o) throws JsonProblem {
        return JsonSpark.uuid(o);
    }

    public static OffsetDateTime readTimestamp(JsonParser p) throws IOException, JsonProblem {
        return JsonRead.timestamp(p, false);
    }

    public static OffsetDateTime readTimestampOrNull(JsonParser p) throws IOException, JsonProblem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : JsonRead.timestamp(p, true);
    }

    public static void writeTimestamp(CompactJson w, OffsetDateTime v) throws JsonProblem {
        JsonWrite.timestamp(w, v, false);
    }

    public static void writeTimestampOrNull(CompactJson w, OffsetDateTime v) throws JsonProblem {
        JsonWrite.timestamp(w, v, true);
    }

    public static OffsetDateTime fromTimestamp(Object o) throws JsonProblem {
        return JsonSpark.timestamp(o);
    }

    public static VariantVal readAny(JsonParser p) throws IOException, JsonProblem {
        return JsonRead.any(p);
    }

    public static VariantVal readAnyOrNull(JsonParser p) throws IOException, JsonProblem {
        return JsonRead.any(p);
    }

    public static void writeAny(CompactJson w, VariantVal v) throws JsonProblem {
        JsonWrite.any(w, v);
    }

    public static void writeAnyOrNull(CompactJson w, VariantVal v) throws JsonProblem {
        JsonWrite.any(w, v);
    }

    public static VariantVal fromAny(Object o) throws JsonProblem {
        return JsonSpark.any(o);
    }
}
