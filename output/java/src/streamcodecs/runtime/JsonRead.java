// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/JsonRead.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.databind.node.TreeTraversingParser;
import java.io.IOException;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantBuilder;
import org.apache.spark.unsafe.types.VariantVal;

/**
 * The JSON family's typed reading: the value at Jackson's current token, with the Python codec's checks and reasons
 * (msgspec's words: {@code Expected `str`, got `int`}, {@code Expected `int` <= 127}). The cores of each wire type
 * ({@link JsonWire}'s per-type readers call them), lists, maps, constants and enums.
 */
public final class JsonRead {
    private JsonRead() {
    }

    /** Reads the value at the parser's current token. */
    @FunctionalInterface
    public interface Read<T> {
        T read(JsonParser p) throws IOException, JsonProblem;
    }

    /**
     * A field the protocol removed: decoded when an older peer sends it (its value may be null), never encoded. A
     * component holding null means the key was absent.
     */
    public record Sent<T>(T value) {
    }

    private static final int[] BASE64 = new int[128];

    static {
        Arrays.fill(BASE64, -1);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < alphabet.length(); i++) {
            BASE64[alphabet.charAt(i)] = i;
        }
    }

    /** A string (or null, when {@code nullable}). */
    static String str(JsonParser p, boolean nullable) throws IOException, JsonProblem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        if (nullable && t == JsonToken.VALUE_NULL) {
            return null;
        }
        throw JsonParsing.expected(nullable ? "str | null" : "str", p);
    }

    /** A boolean (or null, when {@code nullable}). */
    static Boolean bool(JsonParser p, boolean nullable) throws JsonProblem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE) {
            return t == JsonToken.VALUE_TRUE;
        }
        if (nullable && t == JsonToken.VALUE_NULL) {
            return null;
        }
        throw JsonParsing.expected(nullable ? "bool | null" : "bool", p);
    }

    /** An integer in {@code [min, max]}; {@code type} names it in the refusal of another token. */
    static long integer(JsonParser p, String type, boolean nullable, long min, long max)
            throws IOException, JsonProblem {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw JsonParsing.expected(nullable ? type + " | null" : type, p);
        }
        JsonParser.NumberType kind = p.getNumberType();
        if (kind == JsonParser.NumberType.INT || kind == JsonParser.NumberType.LONG) {
            long value = p.getLongValue();
            if (value > max) {
                throw new JsonProblem(Messages.intAtMost(max));
            }
            if (value < min) {
                throw new JsonProblem(Messages.intAtLeast(min));
            }
            return value;
        }
        BigInteger big = p.getBigIntegerValue();
        throw new JsonProblem(big.signum() > 0 ? Messages.intAtMost(max) : Messages.intAtLeast(min));
    }

    static double number(JsonParser p, boolean nullable) throws IOException, JsonProblem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_NUMBER_INT) {
            return p.getDoubleValue();
        }
        throw JsonParsing.expected(nullable ? "float | null" : "float", p);
    }

    static byte[] base64(JsonParser p, boolean nullable) throws IOException, JsonProblem {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw JsonParsing.expected(nullable ? "bytes | null" : "bytes", p);
        }
        byte[] bytes = decodeBase64(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        if (bytes == null) {
            throw new JsonProblem("Invalid base64 encoded string");
        }
        return bytes;
    }

    /** Standard padded base64 (no line breaks, no whitespace), or null when it is not. */
    static byte[] decodeBase64(char[] chars, int offset, int length) {
        if (length % 4 != 0) {
            return null;
        }
        int end = offset + length;
        int padding = length == 0 ? 0 : chars[end - 1] == '=' ? (chars[end - 2] == '=' ? 2 : 1) : 0;
        byte[] out = new byte[length / 4 * 3 - padding];
        int at = 0;
        for (int i = offset; i < end; i += 4) {
            int quad = 0;
            for (int k = 0; k < 4; k++) {
                char c = chars[i + k];
                int v;
                if (c < 128 && (v = BASE64[c]) >= 0) {
                    quad = (quad << 6) | v;
                } else if (c == '=' && i + 4 == end && k >= 4 - padding) {
                    quad <<= 6;
                } else {
                    return null;
                }
            }
            out[at++] = (byte) (quad >> 16);
            if (at < out.length) {
                out[at++] = (byte) (quad >> 8);
            }
            if (at < out.length) {
                out[at++] = (byte) quad;
            }
        }
        return out;
    }

    static UUID uuid(JsonParser p, boolean nullable) throws IOException, JsonProblem {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw JsonParsing.expected(nullable ? "uuid | null" : "uuid", p);
        }
        return parseUuid(p.getText());
    }

    static UUID parseUuid(String text) throws JsonProblem {
        String hex = text;
        if (text.length() == 36 && text.charAt(8) == '-' && text.charAt(13) == '-' && text.charAt(18) == '-'
                && text.charAt(23) == '-') {
            hex = text.substring(0, 8) + text.substring(9, 13) + text.substring(14, 18) + text.substring(19, 23)
                    + text.substring(24);
        }
        if (hex.length() != 32) {
            throw new JsonProblem("Invalid UUID");
        }
        for (int i = 0; i < 32; i++) {
            if (Character.digit(hex.charAt(i), 16) < 0) {
                throw new JsonProblem("Invalid UUID");
            }
        }
        return new UUID(Long.parseUnsignedLong(hex.substring(0, 16), 16),
                Long.parseUnsignedLong(hex.substring(16), 16));
    }

    static OffsetDateTime timestamp(JsonParser p, boolean nullable) throws IOException, JsonProblem {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw JsonParsing.expected(nullable ? "datetime | null" : "datetime", p);
        }
        return parseTimestamp(p.getText());
    }

    /** An RFC 3339 date-time with a time zone, as msgspec reads it (sub-microsecond digits dropped). */
    static OffsetDateTime parseTimestamp(String s) throws JsonProblem {
        JsonProblem invalid = new JsonProblem("Invalid RFC3339 encoded datetime");
        if (s.length() < 19 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(13) != ':'
                || s.charAt(16) != ':' || "Tt ".indexOf(s.charAt(10)) < 0) {
            throw invalid;
        }
        int year = digits(s, 0, 4, invalid);
        int month = digits(s, 5, 2, invalid);
        int day = digits(s, 8, 2, invalid);
        int hour = digits(s, 11, 2, invalid);
        int minute = digits(s, 14, 2, invalid);
        int second = digits(s, 17, 2, invalid);
        int i = 19;
        int nanos = 0;
        if (i < s.length() && s.charAt(i) == '.') {
            int start = ++i;
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            if (i == start) {
                throw invalid;
            }
            String fraction = (s.substring(start, Math.min(i, start + 6)) + "000000").substring(0, 6);
            nanos = Integer.parseInt(fraction) * 1000;
        }
        if (i == s.length()) {
            throw new JsonProblem(Messages.NO_TIMEZONE);
        }
        ZoneOffset zone;
        int beyond = 0;
        char z = s.charAt(i);
        if ((z == 'Z' || z == 'z') && i + 1 == s.length()) {
            zone = ZoneOffset.UTC;
        } else if ((z == '+' || z == '-') && i + 6 == s.length() && s.charAt(i + 3) == ':') {
            int hours = digits(s, i + 1, 2, invalid);
            int minutes = digits(s, i + 4, 2, invalid);
            if (hours > 23 || minutes > 59) {
                throw invalid;
            }
            minutes = (z == '-' ? -1 : 1) * (hours * 60 + minutes);
            if (Math.abs(minutes) <= 18 * 60) {
                zone = ZoneOffset.ofTotalSeconds(60 * minutes);
            } else { // beyond Java's offsets (msgspec's go to 23:59): the same instant, held at UTC
                zone = ZoneOffset.UTC;
                beyond = minutes;
            }
        } else {
            throw invalid;
        }
        if (year == 0) { // msgspec's years are Python's, 1 to 9999
            throw invalid;
        }
        try {
            return OffsetDateTime.of(year, month, day, hour, minute, second, nanos, zone).minusMinutes(beyond);
        } catch (DateTimeException e) {
            throw invalid;
        }
    }

    private static int digits(String s, int at, int count, JsonProblem invalid) throws JsonProblem {
        int value = 0;
        for (int i = at; i < at + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw invalid;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /**
     * Any JSON value, as a VARIANT (a JSON null as null). A number beyond a double's range is refused as msgspec
     * refuses it ({@code Number out of range}, at its path in the value).
     */
    static VariantVal any(JsonParser p) throws IOException, JsonProblem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (p instanceof PackedRead.Parser packed) {
            VariantVal v = PackedValues.any(packed.node());
            p.skipChildren();
            return v;
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT && Double.isInfinite(p.getDoubleValue())) {
            throw new JsonProblem(Messages.NUMBER_OUT_OF_RANGE);
        }
        Variant v;
        try {
            v = VariantBuilder.parseJson(new MsgspecNumbers(p), true);
        } catch (OutOfRange e) {
            throw e.problem;
        }
        return new VariantVal(v.getValue(), v.getMetadata());
    }

    /** A number beyond a double's range inside a value being read (carrying its problem through Spark's reader). */
    private static final class OutOfRange extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient JsonProblem problem;

        OutOfRange(JsonProblem problem) {
            super(problem.reason(), null);
            this.problem = problem;
        }
    }

    /**
     * A parser whose numbers are msgspec's: it refuses, as it reads them, numbers beyond a double's range, naming
     * their path (msgspec's words), and gives each other float as the text msgspec writes for the double it reads
     * as: the Python codec holds a JSON float as a Python float, which its Spark path hands to {@code parse_json} in
     * msgspec's text, so Spark's VARIANT builder (a decimal when that text is one of at most 38 digits, else the
     * double) sees the same text on both paths ({@code 65789255236850478925523685049.0} is the double
     * 6.578925523685048e+28 on both, not a decimal of 30 digits on one).
     */
    private static final class MsgspecNumbers extends JsonParserDelegate {
        private final JsonStreamContext root;

        MsgspecNumbers(JsonParser p) {
            super(p);
            root = p.getParsingContext().getParent();
        }

        @Override
        public JsonToken nextToken() throws IOException {
            JsonToken t = delegate.nextToken();
            if (t == JsonToken.VALUE_NUMBER_FLOAT && Double.isInfinite(delegate.getDoubleValue())) {
                JsonProblem problem = new JsonProblem(Messages.NUMBER_OUT_OF_RANGE);
                for (JsonStreamContext c = delegate.getParsingContext(); c != null && c != root; c = c.getParent()) {
                    if (c.inArray()) {
                        problem.at(c.getCurrentIndex());
                    } else if (c.inObject()) {
                        problem.inMap();
                    }
                }
                throw new OutOfRange(problem);
            }
            return t;
        }

        @Override
        public String getText() throws IOException {
            if (delegate.currentToken() == JsonToken.VALUE_NUMBER_FLOAT) {
                return PythonText.msgspecFloat(delegate.getDoubleValue());
            }
            return delegate.getText();
        }
    }

    public static String readConstStr(JsonParser p, String value) throws IOException, JsonProblem {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw JsonParsing.expected("str", p);
        }
        char[] chars = p.getTextCharacters();  // compared in place: no String for the common case
        int offset = p.getTextOffset();
        int length = p.getTextLength();
        boolean same = length == value.length();
        for (int i = 0; same && i < length; i++) {
            same = chars[offset + i] == value.charAt(i);
        }
        if (!same) {
            throw new JsonProblem(Messages.invalidEnum(PythonText.repr(p.getText())));
        }
        return value;
    }

    /** A constant integer field of any width (its boxed type: Byte, Short, Integer, Long). */
    public static <T extends Number> T readConstInt(JsonParser p, T value) throws IOException, JsonProblem {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw JsonParsing.expected("int", p);
        }
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER || p.getLongValue() != value.longValue()) {
            throw new JsonProblem(Messages.invalidEnum(p.getText()));
        }
        return value;
    }

    private static <T> List<T> items(JsonParser p, Read<T> item) throws IOException, JsonProblem {
        List<T> out = new ArrayList<>();
        int index = 0;
        try {
            while (p.nextToken() != JsonToken.END_ARRAY) {
                out.add(item.read(p));
                index++;
            }
        } catch (JsonProblem e) {
            throw e.at(index);
        }
        return out;
    }

    public static <T> List<T> readList(JsonParser p, Read<T> item) throws IOException, JsonProblem {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw JsonParsing.expected("array", p);
        }
        return items(p, item);
    }

    public static <T> List<T> readListOrNull(JsonParser p, Read<T> item) throws IOException, JsonProblem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.START_ARRAY) {
            throw JsonParsing.expected("array | null", p);
        }
        return items(p, item);
    }

    /** A list, or one item alone (a list of one). */
    public static <T> List<T> readListOrItem(JsonParser p, Read<T> item) throws IOException, JsonProblem {
        if (p.currentToken() == JsonToken.START_ARRAY) {
            return items(p, item);
        }
        try {
            List<T> one = new ArrayList<>(1);
            one.add(item.read(p));
            return one;
        } catch (JsonProblem e) {
            throw e.at(0);
        }
    }

    public static <T> List<T> readListOrItemOrNull(JsonParser p, Read<T> item) throws IOException, JsonProblem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : readListOrItem(p, item);
    }

    private static <T> Map<String, T> entries(JsonParser p, Read<T> item) throws IOException, JsonProblem {
        Map<String, T> out = new LinkedHashMap<>();
        try {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                p.nextToken();
                out.put(key, item.read(p));
            }
        } catch (JsonProblem e) {
            throw e.inMap();
        }
        return out;
    }

    public static <T> Map<String, T> readMap(JsonParser p, Read<T> item) throws IOException, JsonProblem {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw JsonParsing.expected("object", p);
        }
        return entries(p, item);
    }

    public static <T> Map<String, T> readMapOrNull(JsonParser p, Read<T> item) throws IOException, JsonProblem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.START_OBJECT) {
            throw JsonParsing.expected("object | null", p);
        }
        return entries(p, item);
    }

    /** An enum's wire value that is not one of its members. */
    public static JsonProblem invalidEnum(Object value) {
        String shown = value instanceof String s ? PythonText.repr(s) : String.valueOf(value);
        return new JsonProblem(Messages.invalidEnum(shown));
    }

    /**
     * An integer enum's wire value at the current token: a Long, or a BigInteger beyond it (msgspec's typed decoding
     * reads an integer beyond 64 bits as a float, which no integer enum takes; the general path's Python ints are
     * any size).
     */
    public static Number enumInt(JsonParser p, boolean nullable) throws IOException, JsonProblem {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw JsonParsing.expected(nullable ? "int | null" : "int", p);
        }
        JsonParser.NumberType kind = p.getNumberType();
        if (kind == JsonParser.NumberType.INT || kind == JsonParser.NumberType.LONG) {
            return p.getLongValue();
        }
        BigInteger big = p.getBigIntegerValue();
        if (!(p instanceof TreeTraversingParser) && (big.signum() < 0 || big.bitLength() > 64)) {
            throw JsonParsing.expected(nullable ? "int | null" : "int", p);
        }
        return big;
    }

    /** A string enum's wire value at the current token. */
    public static String enumStr(JsonParser p, boolean nullable) throws IOException, JsonProblem {
        return str(p, nullable);
    }

    /** Whether a decoded value is the string {@code value} (a shape's match). */
    public static boolean same(Object v, String value) {
        return value.equals(v);
    }

    /** Whether a decoded value is the integer {@code value} (a shape's match). */
    public static boolean same(Object v, long value) {
        return v instanceof Number n && !(v instanceof BigInteger) && n.longValue() == value;
    }
}
