package streamcodecs.runtime;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import scala.collection.Seq;

/**
 * The kafka family's values to and from Spark's external types, for a protocol's generated {@code SparkRows} and
 * UDF classes: record headers, undeclared attributes (Spark holds them as their canonical strings), event times, and
 * the texts of the Spark functions' {@code error} column ({@code `field`: reason}, as the Python path words them).
 */
public final class KafkaSpark {
    private KafkaSpark() {
    }

    /** Spark's headers of a record, as their names and their values ({@code null}: none). */
    public static KafkaWire.Headers headers(Seq<String> names, Seq<byte[]> values) {
        return new KafkaWire.Headers() {
            @Override
            public int size() {
                return names == null ? 0 : names.size();
            }

            @Override
            public String name(int i) {
                return names.apply(i);
            }

            @Override
            public byte[] value(int i) {
                return values.apply(i);
            }
        };
    }

    /** Record headers as Spark's {@code array<struct<key:string,value:binary>>}. */
    public static List<Row> headers(KafkaEvents.Record record) {
        List<Row> rows = new ArrayList<>(record.names().size());
        for (int i = 0; i < record.names().size(); i++) {
            rows.add(RowFactory.create(record.names().get(i), record.values().get(i)));
        }
        return rows;
    }

    /** The header of a structured-mode record as Spark's header struct. */
    public static Row structuredHeader(KafkaEvents events) {
        return RowFactory.create(events.structuredHeader(), events.structuredHeaderValue());
    }

    /** Undeclared attributes as Spark holds them: their canonical strings, by name in order. */
    public static Map<String, String> texts(KafkaWire wire, Map<String, Object> undeclared) throws KafkaWire.Invalid {
        Map<String, String> texts = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : undeclared.entrySet()) {
            texts.put(entry.getKey(), wire.attributeValueToText(entry.getValue()));
        }
        return texts;
    }

    /** Undeclared attributes from their names and values in order ({@code null}: none; Spark passes maps to UDFs
     * unordered, so the Spark functions pass these). */
    public static Map<String, Object> undeclared(Seq<String> names, Seq<String> values) {
        Map<String, Object> undeclared = new LinkedHashMap<>();
        if (names != null) {
            for (int i = 0, n = names.size(); i < n; i++) {
                undeclared.put(names.apply(i), values.apply(i));
            }
        }
        return undeclared;
    }

    /** An event's time from microseconds since the epoch (null: none), in UTC; one outside the years 0001 to 9999
     * is refused (the Python path has no datetime for it), naming {@code field}. */
    public static OffsetDateTime time(Long micros, String protocol, String field) throws EncodeException {
        if (micros == null) {
            return null;
        }
        if (!Rfc3339.inTheYears(micros)) {
            throw new EncodeException(protocol, Messages.instantOutOfRange(micros), field);
        }
        return Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L
        ).atOffset(ZoneOffset.UTC);
    }

    /** An event's time as Spark's row holds it (null: none), or why it cannot: its instant is outside the years
     * 0001 to 9999 (an offset put it there), worded as the Python path words it ({@code path}: the attribute). */
    public static Instant instant(OffsetDateTime time, String path) throws KafkaRules.Invalid {
        if (time == null) {
            return null;
        }
        Instant instant = time.toInstant();
        long micros = Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
        if (!Rfc3339.inTheYears(micros)) {
            throw new KafkaRules.Invalid(Messages.notRepresentable(path, Messages.instantOutOfRange(micros)));
        }
        return instant;
    }

    /** A problem as the Spark functions' {@code error} column reads: the field between backticks (if it names
     * one), the reason, and its offset if it has one (a field's value in a structured event has both). */
    public static String error(DecodeException e) {
        String text = e.field() != null && !e.field().isEmpty() ? "`" + e.field() + "`: " + e.reason() : e.reason();
        return e.offset() >= 0 ? text + " (offset " + e.offset() + ")" : text;
    }

    /** {@link #error(DecodeException)} of an encoding problem. */
    public static String error(EncodeException e) {
        return e.field() == null || e.field().isEmpty() ? e.reason() : "`" + e.field() + "`: " + e.reason();
    }
}
