// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/JsonSpark.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantUtil;
import org.apache.spark.unsafe.types.VariantVal;
import scala.collection.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The JSON family's conversions between the codec's values and Spark's external row values (ARRAY as Object[],
 * MAP, TIMESTAMP, a UUID as its text, VARIANT), each way; a conversion from Spark may refuse, with its path.
 */
public final class JsonSpark {
    private JsonSpark() {
    }

    /** Converts a value (between Spark's external values and the codec's). */
    @FunctionalInterface
    public interface Convert<A, B> {
        B apply(A value) throws JsonProblem;
    }

    /** A list as Spark's external value of an ARRAY: an Object[] (which Spark converts fastest). */
    public static Object[] sparkList(List<?> v) {
        return v == null ? null : v.toArray();
    }

    public static <T> Object[] sparkList(List<T> v, Function<T, Object> item) {
        if (v == null) {
            return null;
        }
        Object[] out = new Object[v.size()];
        int i = 0;
        for (T x : v) {
            out[i++] = x == null ? null : item.apply(x);
        }
        return out;
    }

    public static <T> Map<String, T> sparkMap(Map<String, T> v) {
        return v;
    }

    public static <T> Map<String, Object> sparkMap(Map<String, T> v, Function<T, Object> item) {
        if (v == null) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>(v.size() * 2);
        for (Map.Entry<String, T> e : v.entrySet()) {
            out.put(e.getKey(), e.getValue() == null ? null : item.apply(e.getValue()));
        }
        return out;
    }

    public static String uuidText(UUID v) {
        return v == null ? null : v.toString();
    }

    public static Timestamp sqlTimestamp(OffsetDateTime v) {
        return v == null ? null : Timestamp.from(v.toInstant());
    }

    /** A Spark STRING holding a UUID as the codec's UUID. */
    static UUID uuid(Object o) throws JsonProblem {
        return o == null ? null : JsonRead.parseUuid((String) o);
    }

    /**
     * A Spark VARIANT as the codec's free-form value: one holding JSON null is null, as the Python path reads it
     * (declared as every conversion from Spark is: it may refuse).
     */
    static VariantVal any(Object o) throws JsonProblem {
        if (o == null) {
            return null;
        }
        VariantVal v = (VariantVal) o;
        return new Variant(v.getValue(), v.getMetadata()).getType() == VariantUtil.Type.NULL ? null : v;
    }

    /** A Spark TIMESTAMP as the codec's time (declared as every conversion from Spark is: it may refuse). */
    static OffsetDateTime timestamp(Object o) throws JsonProblem {
        if (o == null) {
            return null;
        }
        Instant instant = o instanceof Timestamp t ? t.toInstant() : (Instant) o;
        return instant.atOffset(ZoneOffset.UTC);
    }

    /** A Spark ARRAY value (a Scala Seq, or a java.util.List) as a list of converted items. */
    public static <T> List<T> fromList(Object o, Convert<Object, T> item) throws JsonProblem {
        if (o == null) {
            return null;
        }
        List<?> source = o instanceof List<?> list ? list
                : CollectionConverters.asJava((Seq<?>) o);
        List<T> out = new ArrayList<>(source.size());
        int index = 0;
        try {
            for (Object x : source) {
                out.add(x == null ? null : item.apply(x));
                index++;
            }
        } catch (JsonProblem e) {
            throw e.at(index);
        }
        return out;
    }

    /** A Spark MAP value (a Scala Map, or a java.util.Map) as a map of converted values, in its order. */
    public static <T> Map<String, T> fromMap(Object o, Convert<Object, T> item) throws JsonProblem {
        if (o == null) {
            return null;
        }
        Map<?, ?> source = o instanceof Map<?, ?> map ? map
                : CollectionConverters.asJava((scala.collection.Map<?, ?>) o);
        Map<String, T> out = new LinkedHashMap<>(source.size() * 2);
        try {
            for (Map.Entry<?, ?> e : source.entrySet()) {
                out.put((String) e.getKey(), e.getValue() == null ? null : item.apply(e.getValue()));
            }
        } catch (JsonProblem e) {
            throw e.inMap();
        }
        return out;
    }
}
