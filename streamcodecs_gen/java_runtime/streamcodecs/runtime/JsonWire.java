package streamcodecs.runtime;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TreeTraversingParser;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantBuilder;
import org.apache.spark.types.variant.VariantUtil;
import org.apache.spark.unsafe.types.VariantVal;

/**
 * The JSON family's runtime (KCL, Storm): reading values from Jackson's streaming parser with the Python codec's
 * checks and reasons (msgspec's words: {@code Expected `str`, got `int`}, {@code missing required field `x`}),
 * writing them as the Python codec writes them (compact, keys in definition order), the conversions to and from
 * Spark's external row values, and the framing of streams (lines, or JSON followed by an {@code end} line).
 *
 * <p>Problems travel as {@link Problem} (stackless), which collects the path of the value it is about on its way
 * out ({@code records[0].data}); the generated codec turns it into a {@link DecodeException} or
 * {@link EncodeException}.
 */
public final class JsonWire {
    private JsonWire() {
    }

    /**
     * The deepest nesting of arrays and objects a message may have; deeper JSON is refused in the Python codec's
     * words ({@code nested too deeply}). Jackson's default limit, which the KCL MultiLangDaemon and the CloudEvents
     * Java SDK read with; the Python codec applies the same one (jsonwire.MAX_DEPTH), whatever its stack.
     */
    public static final int MAX_DEPTH = 1000;

    /** Strict JSON (no NaN, comments or single quotes); strings and keys as long as a message may be. */
    public static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .maxNestingDepth(MAX_DEPTH)
                    .build())
            .build();

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static final int[] BASE64 = new int[128];

    static {
        Arrays.fill(BASE64, -1);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < alphabet.length(); i++) {
            BASE64[alphabet.charAt(i)] = i;
        }
    }

    /** A scanned JSON null. */
    public static final Object NULL = new Object();
    /** A scanned value that is not a scalar: an array. */
    public static final Object ARRAY = new Object();
    /** A scanned value that is not a scalar: an object. */
    public static final Object OBJECT = new Object();

    /** Reads the value at the parser's current token. */
    @FunctionalInterface
    public interface Read<T> {
        T read(JsonParser p) throws IOException, Problem;
    }

    /** Writes a value. */
    @FunctionalInterface
    public interface Write<T> {
        void write(Writer w, T value) throws Problem;
    }

    /** Converts a value (between Spark's external values and the codec's). */
    @FunctionalInterface
    public interface Convert<A, B> {
        B apply(A value) throws Problem;
    }

    /**
     * A field the protocol removed: decoded when an older peer sends it (its value may be null), never encoded. A
     * component holding null means the key was absent.
     */
    public record Sent<T>(T value) {
    }

    /** What is wrong with a value, and where: a path built on the way out ({@code .records[0].data}). */
    public static final class Problem extends Exception {
        private static final long serialVersionUID = 1L;

        private final String reason;
        private final boolean malformed;
        private final long offset;
        private String path = "";

        public Problem(String reason) {
            this(reason, false, -1);
        }

        Problem(String reason, boolean malformed, long offset) {
            super(reason, null, false, false);
            this.reason = reason;
            this.malformed = malformed;
            this.offset = offset;
        }

        public String reason() {
            return reason;
        }

        /** Whether the text is not JSON at all (no other reading of it can do better). */
        public boolean malformed() {
            return malformed;
        }

        public long offset() {
            return offset;
        }

        /** The field path, as the Python codec names it ({@code records[0].data}), or null. */
        public String field() {
            return path.isEmpty() ? null : path.startsWith(".") ? path.substring(1) : path;
        }

        /** This problem, inside the value of {@code key} (null: not known). */
        public Problem at(String key) {
            if (key != null) {
                path = "." + key + path;
            }
            return this;
        }

        public Problem at(int index) {
            path = "[" + index + "]" + path;
            return this;
        }

        Problem inMap() {
            path = "[...]" + path;
            return this;
        }

        public static Problem missing(String key) {
            return new Problem("missing required field `" + key + "`").at(key);
        }
    }

    // ------------------------------------------------------------------------------------------------ parsing

    public static JsonParser parser(byte[] data, int offset, int length) throws IOException {
        return FACTORY.createParser(data, offset, length);
    }

    /** The problem a parser's exception means: malformed JSON, at its byte offset. */
    public static Problem malformed(IOException e, int start) {
        if (e instanceof JsonEOFException) {
            return new Problem("malformed JSON: Input data was truncated", true, -1);
        }
        if (e instanceof StreamConstraintsException) {
            String why = tooDeep(e) ? "nested too deeply" : firstLine(e.getMessage());
            return new Problem("malformed JSON: " + why, true, -1);
        }
        long offset = -1;
        String text = e.getMessage();
        if (e instanceof JsonProcessingException jpe) {
            text = jpe.getOriginalMessage();
            if (jpe.getLocation() != null && jpe.getLocation().getByteOffset() >= 0) {
                offset = Math.max(0, jpe.getLocation().getByteOffset() - 1);
            }
        }
        return new Problem("malformed JSON: JSON is malformed: " + firstLine(text), true, offset);
    }

    /**
     * The first value of the top-level object's tag key when it is a string, else null (no such key, not an
     * object, or not JSON: the general path reports that).
     */
    public static String tagAnywhere(byte[] data, int offset, int length, String tagKey) {
        try (JsonParser p = parser(data, offset, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken value = p.nextToken();
                if (key.equals(tagKey)) {
                    return value == JsonToken.VALUE_STRING ? p.getText() : null;
                }
                p.skipChildren();
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /** Whether a parser's exception is JSON nested deeper than {@link #MAX_DEPTH}. */
    public static boolean tooDeep(IOException e) {
        return e instanceof StreamConstraintsException && String.valueOf(e.getMessage()).contains("nesting depth");
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end);
    }

    /**
     * A problem when {@code data[offset, offset + length)} is not valid UTF-8 or holds a lone surrogate escape
     * ({@code \\ud800} not followed by a low surrogate's, or a low one alone), anywhere in it, else null: the
     * family's strict text (RFC 8259 8.1 and 8.2), as the Python codec checks it (jsonwire.check_text), invalid UTF-8
     * first. An escape is a backslash and what it takes: a backslash and one character, or {@code \\u} and four hex
     * digits.
     */
    public static Problem textProblem(byte[] data, int offset, int length) {
        PythonText.Utf8Error bad = PythonText.utf8Error(data, offset, offset + length);
        if (bad != null) {
            return utf8Problem(bad.reason(), bad.at() - offset);
        }
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            if (data[i] != '\\') {
                continue;
            }
            if (i + 5 < end && data[i + 1] == 'u') {
                int unit = hex4(data, i + 2);
                if (unit >= 0xD800 && unit <= 0xDFFF) {
                    if (unit <= 0xDBFF && i + 11 < end && data[i + 6] == '\\' && data[i + 7] == 'u') {
                        int low = hex4(data, i + 8);
                        if (low >= 0xDC00 && low <= 0xDFFF) {
                            i += 11;
                            continue;
                        }
                    }
                    String written = new String(data, i, 6, StandardCharsets.US_ASCII);
                    return new Problem("malformed JSON: a string is not valid Unicode (lone surrogate " + written + ")",
                            true, i - offset);
                }
                if (unit >= 0) {
                    i += 5;
                    continue;
                }
            }
            i++; // the backslash and the character it escapes
        }
        return null;
    }

    /** The value of four hex digits at {@code data[at]}, or -1. */
    private static int hex4(byte[] data, int at) {
        int value = 0;
        for (int k = at; k < at + 4; k++) {
            int digit = Character.digit(data[k], 16);
            if (digit < 0) {
                return -1;
            }
            value = value << 4 | digit;
        }
        return value;
    }

    private static Problem utf8Problem(String why, int at) {
        return new Problem("malformed JSON: a string is not valid UTF-8 (" + why + ")", true, at);
    }

    /** The token after START_OBJECT or after a field's value: the next key, or END_OBJECT. */
    public static JsonToken firstKey(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        return t == JsonToken.FIELD_NAME ? t : p.nextToken();
    }

    /** What msgspec calls the JSON value at the current token. */
    public static String got(JsonToken t) {
        if (t == null) {
            return "nothing";
        }
        switch (t) {
            case VALUE_STRING:
                return "str";
            case VALUE_NUMBER_INT:
                return "int";
            case VALUE_NUMBER_FLOAT:
                return "float";
            case VALUE_TRUE:
            case VALUE_FALSE:
                return "bool";
            case VALUE_NULL:
                return "null";
            case START_ARRAY:
                return "array";
            case START_OBJECT:
                return "object";
            default:
                return t.toString();
        }
    }

    public static Problem expected(String type, JsonParser p) {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_NUMBER_INT) {
            return wrongNumber(type, p);
        }
        return new Problem("Expected `" + type + "`, got `" + got(t) + "`");
    }

    /**
     * A number where another type is expected, in msgspec's words: an integer beyond 64 bits is read as a float,
     * and a number beyond a double's range is {@code Number out of range}.
     */
    private static Problem wrongNumber(String type, JsonParser p) {
        String kind = "int";
        try {
            if (p.currentToken() == JsonToken.VALUE_NUMBER_FLOAT) {
                kind = "float";
            } else if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER && !(p instanceof TreeTraversingParser)) {
                // msgspec's typed decoding reads an integer beyond 64 bits as a float; the general path's values
                // (Python ints, read from a tree here) stay integers
                BigInteger big = p.getBigIntegerValue();
                if (big.signum() < 0 || big.bitLength() > 64) {
                    kind = "float";
                }
            }
            if ("float".equals(kind) && Double.isInfinite(p.getDoubleValue())) {
                return new Problem("Number out of range");
            }
        } catch (IOException e) {
            return new Problem("Expected `" + type + "`, got `" + kind + "`");
        }
        return new Problem("Expected `" + type + "`, got `" + kind + "`");
    }

    /** A repeated tag key inside a message: as msgspec reads it, it must be the message's own tag again. */
    public static void readTag(JsonParser p, String tag) throws IOException, Problem {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw new Problem("Expected `str`");
        }
        String text = p.getText();
        if (!text.equals(tag)) {
            throw new Problem("Invalid value '" + text + "'");
        }
    }

    /** Checks the current token starts an object; false when it is null and null is allowed. */
    public static boolean object(JsonParser p, boolean nullable) throws Problem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT) {
            return true;
        }
        if (nullable && t == JsonToken.VALUE_NULL) {
            return false;
        }
        throw expected(nullable ? "object | null" : "object", p);
    }

    // ------------------------------------------------------------------------------------------------ readers

    public static String readStr(JsonParser p) throws IOException, Problem {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        throw expected("str", p);
    }

    public static String readStrOrNull(JsonParser p) throws IOException, Problem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        throw expected("str | null", p);
    }

    public static Boolean readBool(JsonParser p) throws Problem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE) {
            return t == JsonToken.VALUE_TRUE;
        }
        throw expected("bool", p);
    }

    public static Boolean readBoolOrNull(JsonParser p) throws Problem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE) {
            return t == JsonToken.VALUE_TRUE;
        }
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        throw expected("bool | null", p);
    }

    private static long integer(JsonParser p, String type, boolean nullable, long min, long max)
            throws IOException, Problem {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw expected(nullable ? type + " | null" : type, p);
        }
        JsonParser.NumberType kind = p.getNumberType();
        if (kind == JsonParser.NumberType.INT || kind == JsonParser.NumberType.LONG) {
            long value = p.getLongValue();
            if (value > max) {
                throw new Problem("Expected `int` <= " + max);
            }
            if (value < min) {
                throw new Problem("Expected `int` >= " + min);
            }
            return value;
        }
        BigInteger big = p.getBigIntegerValue();
        throw new Problem(big.signum() > 0 ? "Expected `int` <= " + max : "Expected `int` >= " + min);
    }

    public static Byte readInt8(JsonParser p) throws IOException, Problem {
        return (byte) integer(p, "int", false, Byte.MIN_VALUE, Byte.MAX_VALUE);
    }

    public static Byte readInt8OrNull(JsonParser p) throws IOException, Problem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null
                : Byte.valueOf((byte) integer(p, "int", true, Byte.MIN_VALUE, Byte.MAX_VALUE));
    }

    public static Short readInt16(JsonParser p) throws IOException, Problem {
        return (short) integer(p, "int", false, Short.MIN_VALUE, Short.MAX_VALUE);
    }

    public static Short readInt16OrNull(JsonParser p) throws IOException, Problem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null
                : Short.valueOf((short) integer(p, "int", true, Short.MIN_VALUE, Short.MAX_VALUE));
    }

    public static Integer readInt32(JsonParser p) throws IOException, Problem {
        return (int) integer(p, "int", false, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    public static Integer readInt32OrNull(JsonParser p) throws IOException, Problem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null
                : Integer.valueOf((int) integer(p, "int", true, Integer.MIN_VALUE, Integer.MAX_VALUE));
    }

    public static Long readInt64(JsonParser p) throws IOException, Problem {
        return integer(p, "int", false, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    public static Long readInt64OrNull(JsonParser p) throws IOException, Problem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null
                : Long.valueOf(integer(p, "int", true, Long.MIN_VALUE, Long.MAX_VALUE));
    }

    private static double number(JsonParser p, boolean nullable) throws IOException, Problem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_NUMBER_INT) {
            return p.getDoubleValue();
        }
        throw expected(nullable ? "float | null" : "float", p);
    }

    public static Double readFloat64(JsonParser p) throws IOException, Problem {
        return number(p, false);
    }

    public static Double readFloat64OrNull(JsonParser p) throws IOException, Problem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : Double.valueOf(number(p, true));
    }

    public static Float readFloat32(JsonParser p) throws IOException, Problem {
        return (float) number(p, false);
    }

    public static Float readFloat32OrNull(JsonParser p) throws IOException, Problem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : Float.valueOf((float) number(p, true));
    }

    private static byte[] base64(JsonParser p, boolean nullable) throws IOException, Problem {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw expected(nullable ? "bytes | null" : "bytes", p);
        }
        byte[] bytes = decodeBase64(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        if (bytes == null) {
            throw new Problem("Invalid base64 encoded string");
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

    public static byte[] readBase64(JsonParser p) throws IOException, Problem {
        return base64(p, false);
    }

    public static byte[] readBase64OrNull(JsonParser p) throws IOException, Problem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : base64(p, true);
    }

    private static UUID uuid(JsonParser p, boolean nullable) throws IOException, Problem {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw expected(nullable ? "uuid | null" : "uuid", p);
        }
        return parseUuid(p.getText());
    }

    static UUID parseUuid(String text) throws Problem {
        String hex = text;
        if (text.length() == 36 && text.charAt(8) == '-' && text.charAt(13) == '-' && text.charAt(18) == '-'
                && text.charAt(23) == '-') {
            hex = text.substring(0, 8) + text.substring(9, 13) + text.substring(14, 18) + text.substring(19, 23)
                    + text.substring(24);
        }
        if (hex.length() != 32) {
            throw new Problem("Invalid UUID");
        }
        for (int i = 0; i < 32; i++) {
            if (Character.digit(hex.charAt(i), 16) < 0) {
                throw new Problem("Invalid UUID");
            }
        }
        return new UUID(Long.parseUnsignedLong(hex.substring(0, 16), 16),
                Long.parseUnsignedLong(hex.substring(16), 16));
    }

    public static UUID readUuid(JsonParser p) throws IOException, Problem {
        return uuid(p, false);
    }

    public static UUID readUuidOrNull(JsonParser p) throws IOException, Problem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : uuid(p, true);
    }

    private static OffsetDateTime timestamp(JsonParser p, boolean nullable) throws IOException, Problem {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw expected(nullable ? "datetime | null" : "datetime", p);
        }
        return parseTimestamp(p.getText());
    }

    /** An RFC 3339 date-time with a time zone, as msgspec reads it (sub-microsecond digits dropped). */
    static OffsetDateTime parseTimestamp(String s) throws Problem {
        Problem invalid = new Problem("Invalid RFC3339 encoded datetime");
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
            throw new Problem("Expected `datetime` with a timezone component");
        }
        ZoneOffset zone;
        char z = s.charAt(i);
        if ((z == 'Z' || z == 'z') && i + 1 == s.length()) {
            zone = ZoneOffset.UTC;
        } else if ((z == '+' || z == '-') && i + 6 == s.length() && s.charAt(i + 3) == ':') {
            int minutes = digits(s, i + 1, 2, invalid) * 60 + digits(s, i + 4, 2, invalid);
            zone = ZoneOffset.ofTotalSeconds((z == '-' ? -60 : 60) * minutes);
        } else {
            throw invalid;
        }
        try {
            return OffsetDateTime.of(year, month, day, hour, minute, second, nanos, zone);
        } catch (java.time.DateTimeException e) {
            throw invalid;
        }
    }

    private static int digits(String s, int at, int count, Problem invalid) throws Problem {
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

    public static OffsetDateTime readTimestamp(JsonParser p) throws IOException, Problem {
        return timestamp(p, false);
    }

    public static OffsetDateTime readTimestampOrNull(JsonParser p) throws IOException, Problem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : timestamp(p, true);
    }

    /**
     * Any JSON value, as a VARIANT (a JSON null as null). A number beyond a double's range is refused as msgspec
     * refuses it ({@code Number out of range}, at its path in the value).
     */
    public static VariantVal readAny(JsonParser p) throws IOException, Problem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT && Double.isInfinite(p.getDoubleValue())) {
            throw new Problem("Number out of range");
        }
        Variant v;
        try {
            v = VariantBuilder.parseJson(t == JsonToken.START_ARRAY || t == JsonToken.START_OBJECT
                    ? new RangeChecked(p) : p, true);
        } catch (OutOfRange e) {
            throw e.problem;
        }
        return new VariantVal(v.getValue(), v.getMetadata());
    }

    /** A number beyond a double's range inside a value being read (carrying its problem through Spark's reader). */
    private static final class OutOfRange extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient Problem problem;

        OutOfRange(Problem problem) {
            super(problem.reason(), null);
            this.problem = problem;
        }
    }

    /** A parser that refuses, as it reads them, numbers beyond a double's range, naming their path (msgspec's). */
    private static final class RangeChecked extends JsonParserDelegate {
        private final JsonStreamContext root;

        RangeChecked(JsonParser p) {
            super(p);
            root = p.getParsingContext().getParent();
        }

        @Override
        public JsonToken nextToken() throws IOException {
            JsonToken t = delegate.nextToken();
            if (t == JsonToken.VALUE_NUMBER_FLOAT && Double.isInfinite(delegate.getDoubleValue())) {
                Problem problem = new Problem("Number out of range");
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
    }

    public static VariantVal readAnyOrNull(JsonParser p) throws IOException, Problem {
        return readAny(p);
    }

    public static String readConstStr(JsonParser p, String value) throws IOException, Problem {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw expected("str", p);
        }
        char[] chars = p.getTextCharacters();  // compared in place: no String for the common case
        int offset = p.getTextOffset();
        int length = p.getTextLength();
        boolean same = length == value.length();
        for (int i = 0; same && i < length; i++) {
            same = chars[offset + i] == value.charAt(i);
        }
        if (!same) {
            throw new Problem("Invalid enum value " + PythonText.repr(p.getText()));
        }
        return value;
    }

    public static Integer readConstInt(JsonParser p, Integer value) throws IOException, Problem {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw expected("int", p);
        }
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER || p.getLongValue() != value) {
            throw new Problem("Invalid enum value " + p.getText());
        }
        return value;
    }

    private static <T> List<T> items(JsonParser p, Read<T> item) throws IOException, Problem {
        List<T> out = new ArrayList<>();
        int index = 0;
        try {
            while (p.nextToken() != JsonToken.END_ARRAY) {
                out.add(item.read(p));
                index++;
            }
        } catch (Problem e) {
            throw e.at(index);
        }
        return out;
    }

    public static <T> List<T> readList(JsonParser p, Read<T> item) throws IOException, Problem {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw expected("array", p);
        }
        return items(p, item);
    }

    public static <T> List<T> readListOrNull(JsonParser p, Read<T> item) throws IOException, Problem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.START_ARRAY) {
            throw expected("array | null", p);
        }
        return items(p, item);
    }

    /** A list, or one item alone (a list of one). */
    public static <T> List<T> readListOrItem(JsonParser p, Read<T> item) throws IOException, Problem {
        if (p.currentToken() == JsonToken.START_ARRAY) {
            return items(p, item);
        }
        try {
            List<T> one = new ArrayList<>(1);
            one.add(item.read(p));
            return one;
        } catch (Problem e) {
            throw e.at(0);
        }
    }

    public static <T> List<T> readListOrItemOrNull(JsonParser p, Read<T> item) throws IOException, Problem {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : readListOrItem(p, item);
    }

    private static <T> Map<String, T> entries(JsonParser p, Read<T> item) throws IOException, Problem {
        Map<String, T> out = new LinkedHashMap<>();
        try {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                p.nextToken();
                out.put(key, item.read(p));
            }
        } catch (Problem e) {
            throw e.inMap();
        }
        return out;
    }

    public static <T> Map<String, T> readMap(JsonParser p, Read<T> item) throws IOException, Problem {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw expected("object", p);
        }
        return entries(p, item);
    }

    public static <T> Map<String, T> readMapOrNull(JsonParser p, Read<T> item) throws IOException, Problem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.START_OBJECT) {
            throw expected("object | null", p);
        }
        return entries(p, item);
    }

    /** An enum's wire value that is not one of its members. */
    public static Problem invalidEnum(Object value) {
        return new Problem("Invalid enum value " + (value instanceof String s ? PythonText.repr(s) : String.valueOf(value)));
    }

    /**
     * An integer enum's wire value at the current token: a Long, or a BigInteger beyond it (msgspec's typed decoding
     * reads an integer beyond 64 bits as a float, which no integer enum takes; the general path's Python ints are
     * any size).
     */
    public static Number enumInt(JsonParser p, boolean nullable) throws IOException, Problem {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw expected(nullable ? "int | null" : "int", p);
        }
        JsonParser.NumberType kind = p.getNumberType();
        if (kind == JsonParser.NumberType.INT || kind == JsonParser.NumberType.LONG) {
            return p.getLongValue();
        }
        BigInteger big = p.getBigIntegerValue();
        if (!(p instanceof TreeTraversingParser) && (big.signum() < 0 || big.bitLength() > 64)) {
            throw expected(nullable ? "int | null" : "int", p);
        }
        return big;
    }

    /** A string enum's wire value at the current token. */
    public static String enumStr(JsonParser p, boolean nullable) throws IOException, Problem {
        return nullable ? readStrOrNull(p) : readStr(p);
    }

    /** Whether a decoded value is the string {@code value} (a shape's match). */
    public static boolean same(Object v, String value) {
        return value.equals(v);
    }

    /** Whether a decoded value is the integer {@code value} (a shape's match). */
    public static boolean same(Object v, long value) {
        return v instanceof Number n && !(v instanceof BigInteger) && n.longValue() == value;
    }

    // ------------------------------------------------------------------------------------------------ scanning

    /** The top level of a JSON text: what the general path recognises a message by. */
    public static final class Scan {
        /** msgspec's name of the value: object, array, str, int, float, bool, null. */
        public String kind;
        /** Whether the object has the tag key, and its value (a scalar, {@code NULL}, {@code ARRAY} or {@code OBJECT}). */
        public boolean hasTag;
        public Object tag;
        /** For each key asked about: whether the object has it, and its value. */
        public final boolean[] present;
        public final Object[] values;
        /** The whole value as the general path reads it (see {@link #read}), or null (the typed path's scan). */
        public JsonNode tree;

        Scan(int keys) {
            present = new boolean[keys];
            values = new Object[keys];
        }

        /** Whether the object has all of these keys. */
        public boolean all(int... keys) {
            for (int key : keys) {
                if (!present[key]) {
                    return false;
                }
            }
            return true;
        }

        /** Whether key {@code i} holds the string {@code value}. */
        public boolean is(int i, String value) {
            return present[i] && value.equals(values[i]);
        }

        /** Whether key {@code i} holds the integer {@code value} (Python's ==: 1.0 and true count too). */
        public boolean is(int i, long value) {
            if (!present[i]) {
                return false;
            }
            Object v = values[i];
            if (v instanceof Boolean b) {
                return (b ? 1 : 0) == value;
            }
            return v instanceof Number n && !(v instanceof BigInteger) && n.doubleValue() == value;
        }

        /** Python's words for the value (the type name, or the tag and its repr). */
        public String describe(String tagKey) {
            if (hasTag) {
                return tagKey + ": " + pyRepr(tag);
            }
            switch (kind) {
                case "object":
                    return "dict";
                case "array":
                    return "list";
                case "null":
                    return "NoneType";
                default:
                    return kind;
            }
        }
    }

    private static String pyRepr(Object value) {
        if (value == NULL) {
            return "None";
        }
        if (value instanceof String s) {
            return PythonText.repr(s);
        }
        if (value instanceof Boolean b) {
            return b ? "True" : "False";
        }
        if (value == ARRAY) {
            return "[...]";
        }
        if (value == OBJECT) {
            return "{...}";
        }
        if (value instanceof Double d) {
            return PythonText.pythonFloat(d);
        }
        return String.valueOf(value);
    }

    private static Object scalar(JsonParser p) throws IOException {
        switch (p.currentToken()) {
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
                return p.getNumberValue();
            case VALUE_NUMBER_FLOAT:
                return p.getDoubleValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return NULL;
            case START_ARRAY:
                return ARRAY;
            default:
                return OBJECT;
        }
    }

    /**
     * Reads a whole JSON text (checking it is one well-formed value) and notes what its top level holds, as the
     * typed path reads it: the tag, the first of a repeated tag key (the type id, as Jackson reads a polymorphic
     * type and msgspec a tagged union), and for each of {@code keys} its presence and scalar value.
     */
    public static Scan scan(byte[] data, int offset, int length, String tagKey, String[] keys) throws Problem {
        Scan scan = new Scan(keys.length);
        try (JsonParser p = parser(data, offset, length)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw new Problem("malformed JSON: Input data was truncated", true, -1);
            }
            scan.kind = got(t);
            if (t == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    p.nextToken();
                    if (key.equals(tagKey) && !scan.hasTag) {
                        scan.hasTag = true;
                        scan.tag = scalar(p);
                    }
                    for (int i = 0; i < keys.length; i++) {
                        if (keys[i].equals(key)) {
                            scan.present[i] = true;
                            scan.values[i] = scalar(p);
                        }
                    }
                    p.skipChildren();
                }
            } else {
                p.skipChildren();
            }
            if (p.nextToken() != null) {
                long at = p.currentTokenLocation().getByteOffset();
                throw new Problem("malformed JSON: JSON is malformed: trailing characters", true, at);
            }
        } catch (IOException e) {
            throw malformed(e, offset);
        }
        return scan;
    }

    /**
     * Reads a whole JSON text as the general path does, as msgspec reads it into Python values before recognising
     * the message: as a tree in which a repeated key holds its last value at its first place (a Python dict, and
     * the map Storm's and the CloudEvents SDKs' parsers read an object into; its earlier values are not looked at
     * beyond being JSON), with the top level noted as {@link #scan} notes it. Only the syntax is checked here: a
     * number beyond a double's range is kept (an infinite double), and refused ({@code Number out of range}) only
     * by the reader of a value the message reads; under a key it does not read it is let be, as the family's rule
     * says. The message is then read from {@link Scan#tree} ({@link #parser(JsonNode)}).
     */
    public static Scan read(byte[] data, int offset, int length, String tagKey, String[] keys) throws Problem {
        JsonNode root;
        try (JsonParser p = parser(data, offset, length)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw new Problem("malformed JSON: Input data was truncated", true, -1);
            }
            root = node(p);
            if (p.nextToken() != null) {
                long at = p.currentTokenLocation().getByteOffset();
                throw new Problem("malformed JSON: JSON is malformed: trailing characters", true, at);
            }
        } catch (IOException e) {
            throw malformed(e, offset);
        }
        Scan scan = new Scan(keys.length);
        scan.tree = root;
        scan.kind = kind(root);
        if (root.isObject()) {
            JsonNode tag = root.get(tagKey);
            if (tag != null) {
                scan.hasTag = true;
                scan.tag = scalar(tag);
            }
            for (int i = 0; i < keys.length; i++) {
                JsonNode value = root.get(keys[i]);
                if (value != null) {
                    scan.present[i] = true;
                    scan.values[i] = scalar(value);
                }
            }
        }
        return scan;
    }

    /** A parser over a tree {@link #read} made: the message's readers read it as they read text. */
    public static JsonParser parser(JsonNode tree) throws IOException {
        JsonParser p = tree.traverse();
        p.nextToken();
        return p;
    }

    /** A tree of the JSON value at the parser's token (a number beyond a double's range as an infinite double). */
    private static JsonNode node(JsonParser p) throws IOException {
        switch (p.currentToken()) {
            case START_OBJECT: {
                ObjectNode object = NODES.objectNode();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    p.nextToken();
                    object.set(key, node(p)); // a repeated key: its last value, at its first place
                }
                return object;
            }
            case START_ARRAY: {
                ArrayNode array = NODES.arrayNode();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    array.add(node(p));
                }
                return array;
            }
            case VALUE_STRING:
                return NODES.textNode(p.getText());
            case VALUE_NUMBER_INT:
                switch (p.getNumberType()) {
                    case INT:
                        return NODES.numberNode(p.getIntValue());
                    case LONG:
                        return NODES.numberNode(p.getLongValue());
                    default:
                        return NODES.numberNode(p.getBigIntegerValue());
                }
            case VALUE_NUMBER_FLOAT:
                return NODES.numberNode(p.getDoubleValue());
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            default:
                return NODES.nullNode();
        }
    }

    private static String kind(JsonNode node) {
        switch (node.getNodeType()) {
            case OBJECT:
                return "object";
            case ARRAY:
                return "array";
            case STRING:
                return "str";
            case NUMBER:
                return node.isIntegralNumber() ? "int" : "float";
            case BOOLEAN:
                return "bool";
            default:
                return "null";
        }
    }

    private static Object scalar(JsonNode node) {
        switch (node.getNodeType()) {
            case STRING:
                return node.textValue();
            case NUMBER:
                return node.isIntegralNumber() ? node.numberValue() : (Object) node.doubleValue();
            case BOOLEAN:
                return node.booleanValue();
            case ARRAY:
                return ARRAY;
            case OBJECT:
                return OBJECT;
            default:
                return NULL;
        }
    }

    /** The length of the JSON text of one {@code <json>\nend\n} frame (its end line, which may be absent, cut). */
    public static int stripEndLine(byte[] data, int offset, int length) {
        int end = offset + length;
        while (end > offset && (data[end - 1] == '\n' || data[end - 1] == '\r')) {
            end--;
        }
        int size = end - offset;
        if (size >= 3 && data[end - 3] == 'e' && data[end - 2] == 'n' && data[end - 1] == 'd'
                && (size == 3 || data[end - 4] == '\n')) {
            end -= 3;
        }
        return end - offset;
    }

    /** Whether the bytes are JSON whitespace only. */
    public static boolean blank(byte[] data, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            byte b = data[i];
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------------------------------------ writing

    /** Compact JSON as the Python codec writes it (msgspec), into a growing byte buffer. */
    public static final class Writer {
        private static final byte[] HEX_LOWER = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
        private static final byte[] HEX_UPPER = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

        private byte[] buf = new byte[256];
        private int size;
        private final byte[] hex;
        private boolean first = true;

        /** {@code upperHex}: write the escapes of control characters with upper-case hex digits. */
        public Writer(boolean upperHex) {
            hex = upperHex ? HEX_UPPER : HEX_LOWER;
        }

        private void room(int more) {
            if (size + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
            }
        }

        private void put(int b) {
            room(1);
            buf[size++] = (byte) b;
        }

        /** Bytes as they are (ASCII punctuation, delimiters). */
        public void raw(String ascii) {
            room(ascii.length());
            for (int i = 0; i < ascii.length(); i++) {
                buf[size++] = (byte) ascii.charAt(i);
            }
        }

        private void separate() {
            if (!first) {
                put(',');
            }
            first = false;
        }

        public void beginObject() {
            separate();
            put('{');
            first = true;
        }

        public void endObject() {
            put('}');
            first = false;
        }

        public void beginArray() {
            separate();
            put('[');
            first = true;
        }

        public void endArray() {
            put(']');
            first = false;
        }

        /** A key; the value written next belongs to it. */
        public void key(String key) throws Problem {
            separate();
            text(key);
            put(':');
            first = true;
        }

        public void string(String value) throws Problem {
            separate();
            text(value);
        }

        public void number(String digits) {
            separate();
            raw(digits);
        }

        public void literal(String word) {
            separate();
            raw(word);
        }

        /** JSON text written elsewhere (UTF-8 encoded here). */
        public void json(String text) {
            separate();
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            room(bytes.length);
            System.arraycopy(bytes, 0, buf, size, bytes.length);
            size += bytes.length;
        }

        private void text(String s) throws Problem {
            int n = s.length();
            room(n + 2);
            buf[size++] = '"';
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                    if (size == buf.length) {
                        room(n - i + 1);
                    }
                    buf[size++] = (byte) c;
                } else {
                    escape(s, i, c);
                    if (Character.isHighSurrogate(c)) {
                        i++;
                    }
                }
            }
            put('"');
        }

        private void escape(String s, int i, char c) throws Problem {
            room(12);
            switch (c) {
                case '"':
                    buf[size++] = '\\';
                    buf[size++] = '"';
                    return;
                case '\\':
                    buf[size++] = '\\';
                    buf[size++] = '\\';
                    return;
                case '\n':
                    buf[size++] = '\\';
                    buf[size++] = 'n';
                    return;
                case '\r':
                    buf[size++] = '\\';
                    buf[size++] = 'r';
                    return;
                case '\t':
                    buf[size++] = '\\';
                    buf[size++] = 't';
                    return;
                case '\b':
                    buf[size++] = '\\';
                    buf[size++] = 'b';
                    return;
                case '\f':
                    buf[size++] = '\\';
                    buf[size++] = 'f';
                    return;
                default:
                    break;
            }
            if (c < 0x20) {
                buf[size++] = '\\';
                buf[size++] = 'u';
                buf[size++] = '0';
                buf[size++] = '0';
                buf[size++] = hex[c >> 4];
                buf[size++] = hex[c & 0xF];
            } else if (c < 0x800) {
                buf[size++] = (byte) (0xC0 | (c >> 6));
                buf[size++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                int code = Character.toCodePoint(c, s.charAt(i + 1));
                buf[size++] = (byte) (0xF0 | (code >> 18));
                buf[size++] = (byte) (0x80 | ((code >> 12) & 0x3F));
                buf[size++] = (byte) (0x80 | ((code >> 6) & 0x3F));
                buf[size++] = (byte) (0x80 | (code & 0x3F));
            } else if (Character.isSurrogate(c)) {
                throw new Problem("str is not valid UTF-8 (surrogates not allowed)");
            } else {
                buf[size++] = (byte) (0xE0 | (c >> 12));
                buf[size++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buf[size++] = (byte) (0x80 | (c & 0x3F));
            }
        }

        public byte[] toBytes() {
            return Arrays.copyOf(buf, size);
        }
    }

    public static void writeStr(Writer w, String v) throws Problem {
        if (v == null) {
            throw new Problem("Expected `str`, got `null`");
        }
        w.string(v);
    }

    public static void writeStrOrNull(Writer w, String v) throws Problem {
        if (v == null) {
            w.literal("null");
        } else {
            w.string(v);
        }
    }

    private static boolean isNull(Writer w, Object v, String type, boolean nullable) throws Problem {
        if (v != null) {
            return false;
        }
        if (!nullable) {
            throw new Problem("Expected `" + type + "`, got `null`");
        }
        w.literal("null");
        return true;
    }

    public static void writeBool(Writer w, Boolean v) throws Problem {
        if (!isNull(w, v, "bool", false)) {
            w.literal(v ? "true" : "false");
        }
    }

    public static void writeBoolOrNull(Writer w, Boolean v) throws Problem {
        if (!isNull(w, v, "bool", true)) {
            w.literal(v ? "true" : "false");
        }
    }

    private static void integer(Writer w, Number v, boolean nullable) throws Problem {
        if (!isNull(w, v, "int", nullable)) {
            w.number(Long.toString(v.longValue()));
        }
    }

    public static void writeInt8(Writer w, Byte v) throws Problem {
        integer(w, v, false);
    }

    public static void writeInt8OrNull(Writer w, Byte v) throws Problem {
        integer(w, v, true);
    }

    public static void writeInt16(Writer w, Short v) throws Problem {
        integer(w, v, false);
    }

    public static void writeInt16OrNull(Writer w, Short v) throws Problem {
        integer(w, v, true);
    }

    public static void writeInt32(Writer w, Integer v) throws Problem {
        integer(w, v, false);
    }

    public static void writeInt32OrNull(Writer w, Integer v) throws Problem {
        integer(w, v, true);
    }

    public static void writeInt64(Writer w, Long v) throws Problem {
        integer(w, v, false);
    }

    public static void writeInt64OrNull(Writer w, Long v) throws Problem {
        integer(w, v, true);
    }

    /** A finite double as msgspec writes it in JSON (the Python codec's encoder), else the codec's refusal. */
    static String pythonFloat(double d) throws Problem {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new Problem("Expected `float`, got `" + d + "`");
        }
        return PythonText.msgspecFloat(d);
    }

    public static void writeFloat64(Writer w, Double v) throws Problem {
        if (!isNull(w, v, "float", false)) {
            w.number(pythonFloat(v));
        }
    }

    public static void writeFloat64OrNull(Writer w, Double v) throws Problem {
        if (!isNull(w, v, "float", true)) {
            w.number(pythonFloat(v));
        }
    }

    public static void writeFloat32(Writer w, Float v) throws Problem {
        if (!isNull(w, v, "float", false)) {
            w.number(pythonFloat(PythonText.float32Decimal(v)));
        }
    }

    public static void writeFloat32OrNull(Writer w, Float v) throws Problem {
        if (!isNull(w, v, "float", true)) {
            w.number(pythonFloat(PythonText.float32Decimal(v)));
        }
    }

    public static void writeBase64(Writer w, byte[] v) throws Problem {
        if (!isNull(w, v, "bytes", false)) {
            w.string(Base64.getEncoder().encodeToString(v));
        }
    }

    public static void writeBase64OrNull(Writer w, byte[] v) throws Problem {
        if (!isNull(w, v, "bytes", true)) {
            w.string(Base64.getEncoder().encodeToString(v));
        }
    }

    public static void writeUuid(Writer w, UUID v) throws Problem {
        if (!isNull(w, v, "uuid", false)) {
            w.string(v.toString());
        }
    }

    public static void writeUuidOrNull(Writer w, UUID v) throws Problem {
        if (!isNull(w, v, "uuid", true)) {
            w.string(v.toString());
        }
    }

    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    /** A date-time as msgspec writes it: microseconds when there are any, {@code Z} for UTC. */
    static String timestampText(OffsetDateTime v) {
        StringBuilder out = new StringBuilder(SECONDS.format(v));
        int micros = v.getNano() / 1000;
        if (micros != 0) {
            out.append('.').append(String.format("%06d", micros));
        }
        int offset = v.getOffset().getTotalSeconds();
        if (offset == 0) {
            return out.append('Z').toString();
        }
        int minutes = Math.abs(offset) / 60;
        return out.append(offset < 0 ? '-' : '+').append(String.format("%02d:%02d", minutes / 60, minutes % 60))
                .toString();
    }

    public static void writeTimestamp(Writer w, OffsetDateTime v) throws Problem {
        if (!isNull(w, v, "datetime", false)) {
            w.string(timestampText(v));
        }
    }

    public static void writeTimestampOrNull(Writer w, OffsetDateTime v) throws Problem {
        if (!isNull(w, v, "datetime", true)) {
            w.string(timestampText(v));
        }
    }

    /** Any JSON value held as a VARIANT (null writes null). */
    /**
     * A VARIANT as the Python codec writes the value it holds (Spark's JSON text of it, read as Python reads JSON,
     * written as msgspec writes it: floats in msgspec's form, {@code 1.0E16} as {@code 1e16}).
     */
    public static void writeAny(Writer w, VariantVal v) throws Problem {
        if (v == null) {
            w.literal("null");
            return;
        }
        try {
            w.json(KafkaWire.anyJson(v.toJson(ZoneOffset.UTC).getBytes(StandardCharsets.UTF_8), -1));
        } catch (KafkaWire.Invalid e) {
            throw new Problem(e.getMessage());
        }
    }

    public static void writeAnyOrNull(Writer w, VariantVal v) throws Problem {
        writeAny(w, v);
    }

    public static void writeConstStr(Writer w, String v, String value) throws Problem {
        if (!value.equals(v)) {
            throw v == null ? new Problem("Expected `str`, got `null`") : invalidEnum(v);
        }
        w.string(v);
    }

    public static void writeConstInt(Writer w, Integer v, Integer value) throws Problem {
        if (!value.equals(v)) {
            throw v == null ? new Problem("Expected `int`, got `null`") : invalidEnum(v);
        }
        w.number(v.toString());
    }

    public static <T> void writeList(Writer w, List<T> v, Write<T> item) throws Problem {
        if (v == null) {
            throw new Problem("Expected `array`, got `null`");
        }
        w.beginArray();
        int index = 0;
        try {
            for (T x : v) {
                item.write(w, x);
                index++;
            }
        } catch (Problem e) {
            throw e.at(index);
        }
        w.endArray();
    }

    public static <T> void writeListOrNull(Writer w, List<T> v, Write<T> item) throws Problem {
        if (v == null) {
            w.literal("null");
        } else {
            writeList(w, v, item);
        }
    }

    public static <T> void writeMap(Writer w, Map<String, T> v, Write<T> item) throws Problem {
        if (v == null) {
            throw new Problem("Expected `object`, got `null`");
        }
        w.beginObject();
        try {
            for (Map.Entry<String, T> e : v.entrySet()) {
                if (e.getKey() == null) {
                    throw new Problem("Expected `str`, got `null`");
                }
                w.key(e.getKey());
                item.write(w, e.getValue());
            }
        } catch (Problem e) {
            throw e.inMap();
        }
        w.endObject();
    }

    public static <T> void writeMapOrNull(Writer w, Map<String, T> v, Write<T> item) throws Problem {
        if (v == null) {
            w.literal("null");
        } else {
            writeMap(w, v, item);
        }
    }

    // ------------------------------------------------------------------------------------------------ framing

    /** A whole message cut from a stream: its text and first line, or the problem that takes its place. */
    public record Frame(byte[] text, long line, String problem) {
    }

    /**
     * Cuts a byte stream into messages: one per line ({@code endLine} false; blank lines skipped), or JSON then a
     * line that is exactly {@code end} ({@code \r\n} line ends read as {@code \n}). A message longer than
     * {@code maxMessage} bytes becomes a problem in its place and its bytes are dropped, so reading goes on after
     * it.
     */
    public static final class Frames {
        private final boolean endLine;
        private final int maxMessage;
        private final java.util.ArrayDeque<Frame> ready = new java.util.ArrayDeque<>();
        private byte[] pending = new byte[0];
        private final java.io.ByteArrayOutputStream message = new java.io.ByteArrayOutputStream();
        private long line;
        private long first = -1;
        private boolean tooLong;

        public Frames(boolean endLine, int maxMessage) {
            this.endLine = endLine;
            this.maxMessage = maxMessage;
        }

        /** Lines consumed so far. */
        public long line() {
            return line;
        }

        /** Bytes received but not yet part of a whole message. */
        public int buffered() {
            return pending.length + message.size();
        }

        public void feed(byte[] data, int offset, int length) {
            byte[] all = new byte[pending.length + length];
            System.arraycopy(pending, 0, all, 0, pending.length);
            System.arraycopy(data, offset, all, pending.length, length);
            int start = 0;
            for (int i = 0; i < all.length; i++) {
                if (all[i] == '\n') {
                    take(all, start, i);
                    start = i + 1;
                }
            }
            pending = Arrays.copyOfRange(all, start, all.length);
            if (pending.length > maxMessage && !tooLong) {
                String what = endLine ? "message" : "line";
                ready.add(new Frame(null, line + 1, what + " longer than " + maxMessage + " bytes"));
                tooLong = true;
            }
            if (tooLong) {
                pending = new byte[0];
            }
        }

        private void take(byte[] all, int start, int end) {
            line++;
            int stop = end > start && all[end - 1] == '\r' ? end - 1 : end;
            if (!endLine) {
                if (tooLong) {
                    tooLong = false;
                } else if (end - start > maxMessage) {
                    ready.add(new Frame(null, line, "line longer than " + maxMessage + " bytes"));
                } else if (!blank(all, start, end - start)) {
                    ready.add(new Frame(Arrays.copyOfRange(all, start, end), line, null));
                }
                return;
            }
            if (first < 0) {
                first = line;
            }
            if (stop - start == 3 && all[start] == 'e' && all[start + 1] == 'n' && all[start + 2] == 'd') {
                byte[] text = message.toByteArray();
                message.reset();
                long at = first;
                first = -1;
                if (tooLong) {
                    tooLong = false;
                } else if (text.length > maxMessage) {
                    ready.add(new Frame(null, at, "message longer than " + maxMessage + " bytes"));
                } else if (blank(text, 0, text.length)) {
                    ready.add(new Frame(null, at, "empty message: an end line with no JSON before it"));
                } else {
                    ready.add(new Frame(text, at, null));
                }
                return;
            }
            if (!tooLong && message.size() <= maxMessage) {
                message.write(all, start, stop - start);
                message.write('\n');
            }
        }

        /** The next whole message, or null. */
        public Frame next() {
            return ready.poll();
        }
    }

    // ------------------------------------------------------------------------------------------------ Spark

    /** A list as Spark's external value of an ARRAY: an Object[] (which Spark converts fastest). */
    public static Object[] sparkList(List<?> v) {
        return v == null ? null : v.toArray();
    }

    public static <T> Object[] sparkList(List<T> v, java.util.function.Function<T, Object> item) {
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

    public static <T> Map<String, Object> sparkMap(Map<String, T> v, java.util.function.Function<T, Object> item) {
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

    public static UUID fromUuid(Object o) throws Problem {
        return o == null ? null : parseUuid((String) o);
    }

    /**
     * A Spark VARIANT as the codec's free-form value: one holding JSON null is null, as the Python path reads it
     * (declared as every conversion from Spark is: it may refuse).
     */
    public static VariantVal fromAny(Object o) throws Problem {
        if (o == null) {
            return null;
        }
        VariantVal v = (VariantVal) o;
        return new Variant(v.getValue(), v.getMetadata()).getType() == VariantUtil.Type.NULL ? null : v;
    }

    /** A Spark TIMESTAMP as the codec's time (declared as every conversion from Spark is: it may refuse). */
    public static OffsetDateTime fromTimestamp(Object o) throws Problem {
        if (o == null) {
            return null;
        }
        Instant instant = o instanceof Timestamp t ? t.toInstant() : (Instant) o;
        return instant.atOffset(ZoneOffset.UTC);
    }

    /** A Spark ARRAY value (a Scala Seq, or a java.util.List) as a list of converted items. */
    public static <T> List<T> fromList(Object o, Convert<Object, T> item) throws Problem {
        if (o == null) {
            return null;
        }
        List<?> source = o instanceof List<?> list ? list
                : scala.jdk.javaapi.CollectionConverters.asJava((scala.collection.Seq<?>) o);
        List<T> out = new ArrayList<>(source.size());
        int index = 0;
        try {
            for (Object x : source) {
                out.add(x == null ? null : item.apply(x));
                index++;
            }
        } catch (Problem e) {
            throw e.at(index);
        }
        return out;
    }

    /** A Spark MAP value (a Scala Map, or a java.util.Map) as a map of converted values, in its order. */
    public static <T> Map<String, T> fromMap(Object o, Convert<Object, T> item) throws Problem {
        if (o == null) {
            return null;
        }
        Map<?, ?> source = o instanceof Map<?, ?> map ? map
                : scala.jdk.javaapi.CollectionConverters.asJava((scala.collection.Map<?, ?>) o);
        Map<String, T> out = new LinkedHashMap<>(source.size() * 2);
        try {
            for (Map.Entry<?, ?> e : source.entrySet()) {
                out.put((String) e.getKey(), e.getValue() == null ? null : item.apply(e.getValue()));
            }
        } catch (Problem e) {
            throw e.inMap();
        }
        return out;
    }
}
