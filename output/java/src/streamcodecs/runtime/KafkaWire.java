// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/KafkaWire.java by ./generator.py; edit that file, not this copy.
package streamcodecs.runtime;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Support for the kafka wire family on the JVM, as {@code _runtime/kafkawire.py} is for Python: the validators and
 * canonical strings of the wire types (RFC 3986 URI and URI-reference, RFC 3339 timestamps, media types, base64,
 * attribute values), strict UTF-8, media-type helpers, and the JSON event format read with Jackson's streaming
 * parser and written compactly as msgspec writes it.
 *
 * <p>The patterns are the Python runtime's own (one place for each rule): the generated codec renders their text
 * and builds one {@code KafkaWire} from them. Every check throws {@link Invalid}, whose message is the rule broken
 * (the same text as Python's {@code Invalid}); the codec re-throws it naming the attribute.
 */
public final class KafkaWire {
    /** A value breaks a rule of its wire type; {@code offset} is the byte offset in JSON text, or -1. */
    public static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        private final long offset;

        public Invalid(String message) {
            this(message, -1);
        }

        public Invalid(String message, long offset) {
            super(message, null, false, false);
            this.offset = offset;
        }

        public long offset() {
            return offset;
        }
    }

    /** The headers of one Kafka record, in order: names may repeat, a value may be null. */
    public interface Headers {
        int size();

        String name(int i);

        byte[] value(int i);
    }

    /** Headers held as two lists (names and values) of the same length. */
    public static Headers headers(List<String> names, List<byte[]> values) {
        return new Headers() {
            @Override
            public int size() {
                return names == null ? 0 : names.size();
            }

            @Override
            public String name(int i) {
                return names.get(i);
            }

            @Override
            public byte[] value(int i) {
                return values.get(i);
            }
        };
    }

    // --- JSON values as the event format reads them ------------------------------------------------------------

    /** The kinds of JSON value. */
    public static final int STRING = 0;
    public static final int INTEGER = 1;
    public static final int FLOAT = 2;
    public static final int TRUE = 3;
    public static final int FALSE = 4;
    public static final int NULL = 5;
    public static final int OBJECT = 6;
    public static final int ARRAY = 7;

    /** One JSON member's value: its kind, its text (a string's characters, a number as written), where it starts. */
    public static final class Json {
        public final int kind;
        public final String text;
        public final int start;
        final byte[] source; // the document (an object's or array's text is read from it again when needed)

        Json(int kind, String text, int start) {
            this(kind, text, start, null);
        }

        Json(int kind, String text, int start, byte[] source) {
            this.kind = kind;
            this.text = text;
            this.start = start;
            this.source = source;
        }

        public boolean isNull() {
            return kind == NULL;
        }
    }

    /** How JSON calls a kind of value ({@code a string}, {@code null}), as Python's {@code json_kind}. */
    public static String kindWords(int kind) {
        switch (kind) {
            case STRING:
                return "a string";
            case INTEGER:
            case FLOAT:
                return "a number";
            case TRUE:
            case FALSE:
                return "a boolean";
            case NULL:
                return "null";
            case OBJECT:
                return "an object";
            default:
                return "an array";
        }
    }

    /** The Python type a JSON value of this kind decodes to ({@code list}), as the Python codec's problems name it. */
    public static String pythonType(int kind) {
        switch (kind) {
            case STRING:
                return "str";
            case INTEGER:
                return "int";
            case FLOAT:
                return "float";
            case TRUE:
            case FALSE:
                return "bool";
            case NULL:
                return "NoneType";
            case OBJECT:
                return "dict";
            default:
                return "list";
        }
    }

    /** Strict JSON, nested at most {@link JsonParsing#MAX_DEPTH} deep; strings and names as long as a record's. */
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(JsonParsing.MAX_DEPTH)
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .build())
            .build();
    private static final int REMEMBER = 4096;
    private static final int REMEMBER_LENGTH = 512;

    private final Pattern forbidden;
    private final Pattern simpleUri;
    private final Pattern uri;
    private final Pattern simpleReference;
    private final Pattern uriReference;
    private final Pattern mediaType;
    private final Pattern parameter;
    private final Pattern timestamp;
    private final Pattern base64;
    private final Pattern number;
    private final Pattern uuid;
    private final Set<String> validUri = ConcurrentHashMap.newKeySet();
    private final Set<String> validReference = ConcurrentHashMap.newKeySet();
    private final Set<String> validMediaType = ConcurrentHashMap.newKeySet();

    /** The rules, from the Python runtime's patterns (each applied to whole texts, as {@code fullmatch}). */
    public KafkaWire(
        String forbidden,
        String simpleUri,
        String uri,
        String simpleReference,
        String uriReference,
        String mediaType,
        String parameter,
        String timestamp,
        String base64,
        String number,
        String uuid
    ) {
        this.forbidden = Pattern.compile(forbidden);
        this.simpleUri = Pattern.compile(simpleUri);
        this.uri = Pattern.compile(uri);
        this.simpleReference = Pattern.compile(simpleReference);
        this.uriReference = Pattern.compile(uriReference);
        this.mediaType = Pattern.compile(mediaType);
        this.parameter = Pattern.compile(parameter);
        this.timestamp = Pattern.compile(timestamp);
        this.base64 = Pattern.compile(base64);
        this.number = Pattern.compile(number);
        this.uuid = Pattern.compile(uuid);
    }

    // --- text ---------------------------------------------------------------------------------------------------

    /** The text, when it holds no control character, surrogate or noncharacter. */
    public String checkText(String text) throws Invalid {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return checkRest(text);
            }
        }
        return text;
    }

    private String checkRest(String text) throws Invalid {
        Matcher found = forbidden.matcher(text);
        if (found.find()) {
            int code = text.codePointAt(found.start());
            throw new Invalid(
                "holds the character U+" + hex(code, 4) + " (control characters, surrogates and noncharacters are "
                    + "not allowed)"
            );
        }
        return text;
    }

    private static String hex(int code, int digits) {
        String text = Integer.toHexString(code).toUpperCase(java.util.Locale.ROOT);
        return "0".repeat(Math.max(0, digits - text.length())) + text;
    }

    public String stringFromText(String text) throws Invalid {
        return checkText(text);
    }

    public String stringFromJson(Json value) throws Invalid {
        return checkText(jsonText(value));
    }

    public String stringToText(String value) throws Invalid {
        return checkText(value);
    }

    private static String jsonText(Json value) throws Invalid {
        if (value.kind != STRING) {
            throw new Invalid("must be a JSON string, not " + kindWords(value.kind));
        }
        return value.text;
    }

    private static String remember(Set<String> valid, String text) {
        if (text.length() <= REMEMBER_LENGTH && valid.size() < REMEMBER) {
            valid.add(text);
        }
        return text;
    }

    // --- URIs, media types ----------------------------------------------------------------------------------------

    public String uriFromText(String text) throws Invalid {
        if (validUri.contains(text)) {
            return text;
        }
        if (!simpleUri.matcher(text).matches() && !uri.matcher(text).matches()) {
            throw new Invalid(
                "is not an absolute URI (RFC 3986: a scheme, then an optional fragment): " + PythonText.repr(text)
            );
        }
        return remember(validUri, text);
    }

    public String uriFromJson(Json value) throws Invalid {
        return uriFromText(jsonText(value));
    }

    public String uriToText(String value) throws Invalid {
        return uriFromText(value);
    }

    /** Whether the text is a plain path of unreserved characters and slashes (a valid reference, checked fast). */
    private static boolean plainPath(String text) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/'
                || c == '-' || c == '.' || c == '_' || c == '~';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    public String uriReferenceFromText(String text) throws Invalid {
        if (plainPath(text) || validReference.contains(text)) {
            return text;
        }
        if (!simpleReference.matcher(text).matches() && !uriReference.matcher(text).matches()) {
            throw new Invalid("is not a URI-reference (RFC 3986 section 4.1): " + PythonText.repr(text));
        }
        return remember(validReference, text);
    }

    public String uriReferenceFromJson(Json value) throws Invalid {
        return uriReferenceFromText(jsonText(value));
    }

    public String uriReferenceToText(String value) throws Invalid {
        return uriReferenceFromText(value);
    }

    public String mediaTypeFromText(String text) throws Invalid {
        if (validMediaType.contains(text)) {
            return text;
        }
        if (!mediaType.matcher(text).matches()) {
            throw new Invalid("is not a media type (type/subtype, then ;name=value parameters): " + PythonText.repr(text));
        }
        return remember(validMediaType, text);
    }

    public String mediaTypeFromJson(Json value) throws Invalid {
        return mediaTypeFromText(jsonText(value));
    }

    public String mediaTypeToText(String value) throws Invalid {
        return mediaTypeFromText(value);
    }

    /** A-Z to a-z and nothing else. */
    public static String asciiLower(String text) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                char[] chars = text.toCharArray();
                for (int j = i; j < n; j++) {
                    if (chars[j] >= 'A' && chars[j] <= 'Z') {
                        chars[j] += 32;
                    }
                }
                return new String(chars);
            }
        }
        return text;
    }

    /** {@code type/subtype} without parameters or surrounding blanks, ASCII lower case. */
    public static String essence(String mediaType) {
        int semicolon = mediaType.indexOf(';');
        String head = semicolon < 0 ? mediaType : mediaType.substring(0, semicolon);
        int start = 0;
        int end = head.length();
        while (start < end && (head.charAt(start) == ' ' || head.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (head.charAt(end - 1) == ' ' || head.charAt(end - 1) == '\t')) {
            end--;
        }
        return asciiLower(head.substring(start, end));
    }

    /** The value of parameter {@code name} (ASCII case-insensitive, quotes removed), or null. */
    public String parameter(String mediaType, String name) {
        int semicolon = mediaType.indexOf(';');
        if (semicolon < 0) {
            return null;
        }
        Matcher found = parameter.matcher(mediaType.substring(semicolon));
        while (found.find()) {
            if (asciiLower(found.group(1)).equals(name)) {
                String value = found.group(2);
                if (value.startsWith("\"")) {
                    value = value.substring(1, value.length() - 1).replaceAll("\\\\(.)", "$1");
                }
                return value;
            }
        }
        return null;
    }

    /** Whether a media type declares JSON: its subtype is one of {@code subtypes} or ends in one of
     * {@code suffixes} (after at least one character), ASCII case-insensitively. */
    public static boolean declaresJson(String mediaType, List<String> subtypes, List<String> suffixes) {
        String essence = essence(mediaType);
        int slash = essence.indexOf('/');
        String subtype = slash < 0 ? "" : essence.substring(slash + 1);
        if (subtypes.contains(subtype)) {
            return true;
        }
        for (String suffix : suffixes) {
            if (subtype.endsWith(suffix) && subtype.length() > suffix.length()) {
                return true;
            }
        }
        return false;
    }

    // --- RFC 3339 timestamps --------------------------------------------------------------------------------------

    private static final String TIMESTAMP_RULE =
        "is not an RFC 3339 date-time (YYYY-MM-DDTHH:MM:SS, optional .fraction, then Z or +hh:mm)";

    /** A date-time with its offset; {@code t}/{@code z} in either case; digits beyond microseconds dropped. */
    public OffsetDateTime timestampFromText(String text) throws Invalid {
        if (!timestamp.matcher(text).matches()) {
            throw new Invalid(TIMESTAMP_RULE + ": " + PythonText.repr(text));
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 7);
        int day = digits(text, 8, 10);
        int at = 19;
        int micros = 0;
        if (text.charAt(at) == '.') {
            int end = at + 1;
            while (end < text.length() && text.charAt(end) >= '0' && text.charAt(end) <= '9') {
                end++;
            }
            for (int i = 0; i < 6; i++) {
                int j = at + 1 + i;
                micros = micros * 10 + (j < end ? text.charAt(j) - '0' : 0);
            }
            at = end;
        }
        ZoneOffset offset = ZoneOffset.UTC;
        int beyond = 0; // an offset Java's ZoneOffset cannot hold (beyond +-18:00; RFC 3339 allows up to 23:59)
        char zone = text.charAt(at);
        if (zone == '+' || zone == '-') {
            int minutes = (zone == '-' ? -1 : 1) * (digits(text, at + 1, at + 3) * 60 + digits(text, at + 4, at + 6));
            if (Math.abs(minutes) <= 18 * 60) {
                offset = ZoneOffset.ofTotalSeconds(minutes * 60);
            } else {
                beyond = minutes; // the same instant, held at UTC
            }
        }
        if (year == 0) {
            throw new Invalid("is not a valid date-time (year 0 is out of range): " + PythonText.repr(text));
        }
        try {
            return OffsetDateTime.of(
                year, month, day, digits(text, 11, 13), digits(text, 14, 16), digits(text, 17, 19), micros * 1000,
                offset
            ).minusMinutes(beyond);
        } catch (DateTimeException e) {
            throw new Invalid("is not a valid date-time (day is out of range for month): " + PythonText.repr(text));
        }
    }

    private static int digits(String text, int start, int end) {
        int value = 0;
        for (int i = start; i < end; i++) {
            value = value * 10 + text.charAt(i) - '0';
        }
        return value;
    }

    public OffsetDateTime timestampFromJson(Json value) throws Invalid {
        return timestampFromText(jsonText(value));
    }

    /** {@code YYYY-MM-DDTHH:MM:SS}, {@code .ffffff} only when there are microseconds, then {@code Z} or
     * {@code +hh:mm}: as the Python runtime writes it. */
    public String timestampToText(OffsetDateTime value) throws Invalid {
        StringBuilder out = new StringBuilder(32);
        int year = value.getYear();
        String y = Integer.toString(year);
        out.append(year >= 1000 ? y : "0".repeat(Math.max(0, 4 - y.length())) + y);
        two(out.append('-'), value.getMonthValue());
        two(out.append('-'), value.getDayOfMonth());
        two(out.append('T'), value.getHour());
        two(out.append(':'), value.getMinute());
        two(out.append(':'), value.getSecond());
        int micros = value.getNano() / 1000;
        if (micros != 0) {
            String m = Integer.toString(micros);
            out.append('.').append("0".repeat(6 - m.length())).append(m);
        }
        int minutes = value.getOffset().getTotalSeconds() / 60;
        if (minutes == 0) {
            out.append('Z');
        } else {
            out.append(minutes < 0 ? '-' : '+');
            minutes = Math.abs(minutes);
            two(out, minutes / 60);
            two(out.append(':'), minutes % 60);
        }
        return out.toString();
    }

    private static void two(StringBuilder out, int value) {
        out.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    // --- booleans and integers (canonical strings in headers, JSON booleans and integers in the format) --------

    public Boolean boolFromText(String text) throws Invalid {
        if (text.equals("true")) {
            return Boolean.TRUE;
        }
        if (text.equals("false")) {
            return Boolean.FALSE;
        }
        throw new Invalid("is not a boolean (true or false, lower case): " + PythonText.repr(text));
    }

    public Boolean boolFromJson(Json value) throws Invalid {
        if (value.kind != TRUE && value.kind != FALSE) {
            throw new Invalid("must be a JSON boolean, not " + kindWords(value.kind));
        }
        return value.kind == TRUE;
    }

    public String boolToText(Boolean value) throws Invalid {
        return value ? "true" : "false";
    }

    public String boolToJson(Boolean value) throws Invalid {
        return boolToText(value);
    }

    private static long integer(String text, int bits) throws Invalid {
        int n = text.length();
        int start = n > 0 && text.charAt(0) == '-' ? 1 : 0;
        boolean canonical = n > start && (text.charAt(start) != '0' || n == start + 1);
        for (int i = start; i < n && canonical; i++) {
            canonical = text.charAt(i) >= '0' && text.charAt(i) <= '9';
        }
        if (!canonical) {
            throw new Invalid(
                "is not an integer in canonical form (-?digits, no leading zeros or +): " + PythonText.repr(text)
            );
        }
        return inRange(new java.math.BigInteger(text), bits);
    }

    private static long inRange(java.math.BigInteger value, int bits) throws Invalid {
        if (value.bitLength() > bits - 1) {
            long high = (1L << (bits - 1)) - 1;
            throw new Invalid(
                value + " is out of range for a " + bits + "-bit integer (" + (-high - 1) + ".." + high + ")"
            );
        }
        return value.longValue();
    }

    private static long jsonInteger(Json value, int bits) throws Invalid {
        if (value.kind != INTEGER) {
            throw new Invalid("must be a JSON integer, not " + kindWords(value.kind));
        }
        return inRange(new java.math.BigInteger(value.text), bits);
    }

    public Byte int8FromText(String text) throws Invalid {
        return (byte) integer(text, 8);
    }

    public Byte int8FromJson(Json value) throws Invalid {
        return (byte) jsonInteger(value, 8);
    }

    public String int8ToText(Byte value) throws Invalid {
        return value.toString();
    }

    public String int8ToJson(Byte value) throws Invalid {
        return int8ToText(value);
    }

    public Short int16FromText(String text) throws Invalid {
        return (short) integer(text, 16);
    }

    public Short int16FromJson(Json value) throws Invalid {
        return (short) jsonInteger(value, 16);
    }

    public String int16ToText(Short value) throws Invalid {
        return value.toString();
    }

    public String int16ToJson(Short value) throws Invalid {
        return int16ToText(value);
    }

    public Integer int32FromText(String text) throws Invalid {
        return (int) integer(text, 32);
    }

    public Integer int32FromJson(Json value) throws Invalid {
        return (int) jsonInteger(value, 32);
    }

    public String int32ToText(Integer value) throws Invalid {
        return value.toString();
    }

    public String int32ToJson(Integer value) throws Invalid {
        return int32ToText(value);
    }

    public Long int64FromText(String text) throws Invalid {
        return integer(text, 64);
    }

    public Long int64FromJson(Json value) throws Invalid {
        return jsonInteger(value, 64);
    }

    public String int64ToText(Long value) throws Invalid {
        return value.toString();
    }

    public String int64ToJson(Long value) throws Invalid {
        return int64ToText(value);
    }

    // --- floats (JSON number syntax in headers, written as Python's repr) ------------------------------------------

    /** The largest finite float32, as the Python runtime bounds a float32 attribute. */
    private static final double FLOAT32_MAX = 3.4028234663852886e38;

    private static double finite(double value, double largest) throws Invalid {
        if (!Double.isFinite(value) || Math.abs(value) > largest) {
            throw new Invalid(PythonText.pythonFloat(value) + " is not a finite number in range");
        }
        return value;
    }

    private double numberText(String text, double largest) throws Invalid {
        if (!number.matcher(text).matches()) {
            throw new Invalid("is not a number: " + PythonText.repr(text));
        }
        return finite(Double.parseDouble(text), largest);
    }

    private static double jsonNumber(Json value, double largest) throws Invalid {
        if (value.kind != INTEGER && value.kind != FLOAT) {
            throw new Invalid("must be a JSON number, not " + kindWords(value.kind));
        }
        return finite(Double.parseDouble(value.text), largest);
    }

    public Double float64FromText(String text) throws Invalid {
        return numberText(text, Double.POSITIVE_INFINITY);
    }

    public Double float64FromJson(Json value) throws Invalid {
        return jsonNumber(value, Double.POSITIVE_INFINITY);
    }

    public String float64ToText(Double value) throws Invalid {
        return PythonText.pythonFloat(finite(value, Double.POSITIVE_INFINITY));
    }

    /** The JSON number msgspec writes for the float (the JSON event format). */
    public String float64ToJson(Double value) throws Invalid {
        return PythonText.msgspecFloat(finite(value, Double.POSITIVE_INFINITY));
    }

    /** A float32 attribute: checked in range as the decimal's double (as Python does), held as the float32. */
    public Float float32FromText(String text) throws Invalid {
        return (float) numberText(text, FLOAT32_MAX);
    }

    public Float float32FromJson(Json value) throws Invalid {
        return (float) jsonNumber(value, FLOAT32_MAX);
    }

    /** The float32 as the Python runtime writes the shortest decimal that is the same float32. */
    public String float32ToText(Float value) throws Invalid {
        return PythonText.pythonFloat(finite(PythonText.float32Decimal(value), FLOAT32_MAX));
    }

    public String float32ToJson(Float value) throws Invalid {
        return PythonText.msgspecFloat(finite(PythonText.float32Decimal(value), FLOAT32_MAX));
    }

    // --- UUID (8-4-4-4-12 hex digits, written in lower case) -------------------------------------------------------

    public UUID uuidFromText(String text) throws Invalid {
        if (!uuid.matcher(text).matches()) {
            throw new Invalid("is not a UUID (8-4-4-4-12 hex digits): " + PythonText.repr(text));
        }
        return new UUID(
            Long.parseUnsignedLong(text.substring(0, 8) + text.substring(9, 13) + text.substring(14, 18), 16),
            Long.parseUnsignedLong(text.substring(19, 23) + text.substring(24), 16)
        );
    }

    public UUID uuidFromJson(Json value) throws Invalid {
        return uuidFromText(jsonText(value));
    }

    public String uuidToText(UUID value) throws Invalid {
        return value.toString();
    }

    // --- any JSON value (held as its text as msgspec writes the value Python decodes) ---------------------------

    /** Any JSON value in a header, as its compact text (see {@link #anyJson(byte[], int)}); null for JSON null
     * (an absent attribute, as in Python). */
    public String anyFromText(String text) throws Invalid {
        String json = anyJson(text.getBytes(StandardCharsets.UTF_8), -1);
        return json.equals("null") ? null : json;
    }

    /** A member of the JSON format (not null: that is an absent attribute) as its compact text. */
    public String anyFromJson(Json value) throws Invalid {
        switch (value.kind) {
            case STRING:
                byte[] quoted = new Out(value.text.length() + 8).string(value.text).bytes();
                return new String(quoted, StandardCharsets.UTF_8);
            case INTEGER:
                return new java.math.BigInteger(value.text).toString();
            case FLOAT:
                return PythonText.msgspecFloat(Double.parseDouble(value.text));
            case OBJECT:
            case ARRAY:
                return anyJson(value.source, value.start);
            default:
                return value.text;
        }
    }

    /** The value's text as it is held (written as it is). */
    public String anyToText(String value) throws Invalid {
        return value;
    }

    public String anyToJson(String value) throws Invalid {
        return value;
    }

    /**
     * The JSON value at {@code start} of {@code text} ({@code -1}: all of the text, one value and nothing after
     * it) as msgspec writes the value Python decodes from it: compact, strings escaped as msgspec escapes them,
     * integers as their digits ({@code -0} is {@code 0}), other numbers as floats in msgspec's form
     * ({@code 2.50} is {@code 2.5}, {@code 1E5} is {@code 100000.0}), and of a repeated member name the last value
     * in the first one's place (a Python dict); {@link Invalid} as the JSON format's reader words it else.
     */
    public static String anyJson(byte[] text, int start) throws Invalid {
        if (start < 0) {
            strictText(text);
        }
        int from = Math.max(start, 0);
        try (JsonParser p = JSON.createParser(text, from, text.length - from)) {
            JsonToken token = p.nextToken();
            if (token == null) {
                throw new Invalid("malformed JSON: input data was truncated", text.length);
            }
            Out out = new Out(64);
            normal(p, token, out);
            if (start < 0) {
                end(p);
            }
            return new String(out.bytes(), StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw malformed(e);
        } catch (IOException e) {
            throw new Invalid("malformed JSON: " + e.getMessage());
        }
    }

    private static Invalid truncated(JsonParser p) {
        return new Invalid("malformed JSON: input data was truncated", p.currentLocation().getByteOffset());
    }

    private static void normal(JsonParser p, JsonToken token, Out out) throws IOException, Invalid {
        switch (token) {
            case START_OBJECT: {
                Map<String, byte[]> members = new LinkedHashMap<>();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                    if (t == null) {
                        throw truncated(p);
                    }
                    String name = p.currentName();
                    noLoneSurrogate(name, p);
                    Out member = new Out(32);
                    normal(p, p.nextToken(), member);
                    members.put(name, member.bytes());
                }
                out.ch('{');
                boolean first = true;
                for (Map.Entry<String, byte[]> member : members.entrySet()) {
                    if (!first) {
                        out.ch(',');
                    }
                    first = false;
                    out.string(member.getKey()).ch(':').raw(member.getValue());
                }
                out.ch('}');
                return;
            }
            case START_ARRAY: {
                out.ch('[');
                boolean first = true;
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                    if (t == null) {
                        throw truncated(p);
                    }
                    if (!first) {
                        out.ch(',');
                    }
                    first = false;
                    normal(p, t, out);
                }
                out.ch(']');
                return;
            }
            case VALUE_STRING: {
                String text = p.getText();
                noLoneSurrogate(text, p);
                out.string(text);
                return;
            }
            case VALUE_NUMBER_INT:
                out.ascii(new java.math.BigInteger(p.getText()).toString());
                return;
            case VALUE_NUMBER_FLOAT: {
                double value = Double.parseDouble(p.getText());
                if (Double.isInfinite(value)) {
                    throw new Invalid("malformed JSON: number out of range", p.currentTokenLocation().getByteOffset());
                }
                out.ascii(PythonText.msgspecFloat(value));
                return;
            }
            case VALUE_TRUE:
                out.ascii("true");
                return;
            case VALUE_FALSE:
                out.ascii("false");
                return;
            case VALUE_NULL:
                out.ascii("null");
                return;
            default:
                throw new Invalid("malformed JSON: unexpected " + token, p.currentTokenLocation().getByteOffset());
        }
    }

    // --- base64, attribute values -----------------------------------------------------------------------------

    /** RFC 4648 section 4, padded; other characters, missing padding or whitespace are errors. */
    public byte[] base64FromText(String text) throws Invalid {
        if (!base64.matcher(text).matches()) {
            throw new Invalid("is not base64 (RFC 4648 section 4: standard alphabet, padded, no whitespace)");
        }
        return Base64.getDecoder().decode(text);
    }

    public byte[] base64FromJson(Json value) throws Invalid {
        return base64FromText(jsonText(value));
    }

    public String base64ToText(byte[] value) throws Invalid {
        return base64Text(value);
    }

    /** Bytes as padded standard base64. */
    public static String base64Text(byte[] value) {
        return Base64.getEncoder().encodeToString(value);
    }

    /** A header carries no type: the value stays the text. */
    public String attributeValueFromText(String text) throws Invalid {
        return checkText(text);
    }

    /** A JSON string, boolean or integer (32 bits). */
    public Object attributeValueFromJson(Json value) throws Invalid {
        switch (value.kind) {
            case STRING:
                return checkText(value.text);
            case TRUE:
                return Boolean.TRUE;
            case FALSE:
                return Boolean.FALSE;
            case INTEGER:
                return int32(value.text);
            default:
                throw new Invalid(
                    "is " + kindWords(value.kind) + "; the value of an undeclared attribute is a boolean, an integer "
                        + "or a string"
                );
        }
    }

    private static Integer int32(String text) throws Invalid {
        java.math.BigInteger number = new java.math.BigInteger(text);
        if (number.bitLength() > 31) {
            throw new Invalid(number + " is out of range for a 32-bit integer (-2147483648..2147483647)");
        }
        return number.intValue();
    }

    /** A string, boolean or integer as its canonical text. */
    public String attributeValueToText(Object value) throws Invalid {
        if (value instanceof String) {
            return checkText((String) value);
        }
        if (value instanceof Boolean) {
            return ((Boolean) value) ? "true" : "false";
        }
        if (value instanceof Integer) {
            return value.toString();
        }
        throw new Invalid(
            "has type " + (value == null ? "NoneType" : value.getClass().getSimpleName())
                + "; expected bool, int, str, bytes or datetime"
        );
    }

    // --- UTF-8 ---------------------------------------------------------------------------------------------------

    /** The text of UTF-8 bytes; invalid bytes are {@link Invalid} with the reason and offset Python gives. */
    public static String utf8(byte[] raw) throws Invalid {
        int n = raw.length;
        int i = 0;
        while (i < n && raw[i] >= 0) {
            i++;
        }
        if (i == n) {
            return new String(raw, StandardCharsets.ISO_8859_1);
        }
        PythonText.Utf8Error bad = PythonText.utf8Error(raw, i, n);
        if (bad != null) {
            throw new Invalid(bad.reason() + " at byte " + bad.at(), bad.at());
        }
        return new String(raw, StandardCharsets.UTF_8);
    }

    /**
     * Refuses JSON text that is not UTF-8 at its first invalid byte, whatever else is wrong with it (RFC 8259 8.1;
     * the family's strict text, as the Python codec's json_decode reads it).
     */
    public static void strictText(byte[] text) throws Invalid {
        int n = text.length;
        int i = 0;
        while (i < n && text[i] >= 0) {
            i++;
        }
        if (i == n) {
            return;
        }
        PythonText.Utf8Error bad = PythonText.utf8Error(text, i, n);
        if (bad != null) {
            throw new Invalid("JSON text is not UTF-8 (" + bad.reason() + ")", bad.at());
        }
    }

    /** Whether the bytes are valid UTF-8. */
    public static boolean isUtf8(byte[] raw) {
        try {
            utf8(raw);
            return true;
        } catch (Invalid e) {
            return false;
        }
    }

    // --- Python's repr of a string (in problems) -------------------------------------------------------------

    // --- the JSON event format: reading -------------------------------------------------------------------------

    /** The members of a JSON object (the last of repeated names wins, at the place of the first), read with
     * Jackson's streaming parser; the whole text must be one JSON value. Malformed JSON, or a value that is not
     * an object, is {@link Invalid} (with the offset). */
    public static Map<String, Json> members(byte[] text) throws Invalid {
        strictText(text);
        try (JsonParser p = JSON.createParser(text)) {
            JsonToken token = p.nextToken();
            if (token == null) {
                throw new Invalid("malformed JSON: input data was truncated", text.length);
            }
            if (token != JsonToken.START_OBJECT) {
                int kind = value(p, token, -1).kind;
                end(p);
                throw new Invalid("an event in the JSON format is a JSON object, not " + pythonType(kind));
            }
            Map<String, Json> found = new LinkedHashMap<>();
            for (token = p.nextToken(); token == JsonToken.FIELD_NAME; token = p.nextToken()) {
                String name = p.currentName();
                noLoneSurrogate(name, p);
                JsonToken first = p.nextToken();
                Json value = value(p, first, (int) p.currentTokenLocation().getByteOffset());
                found.put(name, value.kind >= OBJECT ? new Json(value.kind, null, value.start, text) : value);
            }
            end(p);
            return found;
        } catch (JsonProcessingException e) {
            throw malformed(e);
        } catch (IOException e) {
            throw new Invalid("malformed JSON: " + e.getMessage());
        }
    }

    /** The bytes as one JSON value with the whitespace between tokens removed (strings, numbers, member order and
     * repeated names kept as written); anything else is {@link Invalid}. */
    public static byte[] oneJsonValue(byte[] text) throws Invalid {
        strictText(text);
        try (JsonParser p = JSON.createParser(text)) {
            JsonToken token = p.nextToken();
            if (token == null) {
                throw new Invalid("malformed JSON: input data was truncated", text.length);
            }
            value(p, token, 0);
            end(p);
        } catch (JsonProcessingException e) {
            throw malformed(e);
        } catch (IOException e) {
            throw new Invalid("malformed JSON: " + e.getMessage());
        }
        return compact(text, 0);
    }

    private static Invalid malformed(JsonProcessingException e) {
        if (JsonParsing.tooDeep(e)) {
            return new Invalid(JsonChecks.TOO_DEEP); // the Python codec's words, and no offset either
        }
        String message = e.getOriginalMessage();
        int newline = message.indexOf('\n');
        if (newline >= 0) {
            message = message.substring(0, newline);
        }
        long offset = e.getLocation() == null ? -1 : e.getLocation().getByteOffset();
        return new Invalid("malformed JSON: " + message, offset);
    }

    private static void end(JsonParser p) throws IOException, Invalid {
        if (p.nextToken() != null) {
            throw new Invalid("malformed JSON: trailing characters", p.currentTokenLocation().getByteOffset());
        }
    }

    /** The value starting at {@code token}, read to its end (so that all of it is checked). */
    private static Json value(JsonParser p, JsonToken token, int start) throws IOException, Invalid {
        switch (token) {
            case VALUE_STRING: {
                String text = p.getText();
                noLoneSurrogate(text, p);
                return new Json(STRING, text, start);
            }
            case VALUE_NUMBER_INT:
                return new Json(INTEGER, p.getText(), start);
            case VALUE_NUMBER_FLOAT:
                finite(p);
                return new Json(FLOAT, p.getText(), start);
            case VALUE_TRUE:
                return new Json(TRUE, "true", start);
            case VALUE_FALSE:
                return new Json(FALSE, "false", start);
            case VALUE_NULL:
                return new Json(NULL, "null", start);
            default:
                int kind = token == JsonToken.START_OBJECT ? OBJECT : ARRAY;
                int depth = 1;
                while (depth > 0) {
                    JsonToken t = p.nextToken();
                    if (t == null) {
                        long at = p.currentLocation().getByteOffset();
                        throw new Invalid("malformed JSON: input data was truncated", at);
                    }
                    switch (t) {
                        case START_OBJECT:
                        case START_ARRAY:
                            depth++;
                            break;
                        case END_OBJECT:
                        case END_ARRAY:
                            depth--;
                            break;
                        case FIELD_NAME:
                        case VALUE_STRING:
                            noLoneSurrogate(p.getText(), p);
                            break;
                        case VALUE_NUMBER_FLOAT:
                            finite(p);
                            break;
                        default:
                            break;
                    }
                }
                return new Json(kind, null, start);
        }
    }

    private static void finite(JsonParser p) throws IOException, Invalid {
        // Without an exponent a number needs more than 308 digits to pass a double's range: parse only then.
        char[] chars = p.getTextCharacters();
        int start = p.getTextOffset();
        int length = p.getTextLength();
        boolean exponent = false;
        for (int i = start; i < start + length && !exponent; i++) {
            exponent = chars[i] == 'e' || chars[i] == 'E';
        }
        if ((exponent || length > 300) && Double.isInfinite(p.getDoubleValue())) {
            throw new Invalid("malformed JSON: number out of range", p.currentTokenLocation().getByteOffset());
        }
    }

    private static void noLoneSurrogate(String text, JsonParser p) throws Invalid {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                throw new Invalid(
                    "malformed JSON: a string holds an unpaired surrogate", p.currentTokenLocation().getByteOffset()
                );
            }
        }
    }

    /** The one JSON value starting at {@code start} of valid JSON text, without whitespace between tokens. */
    public static byte[] compact(byte[] text, int start) {
        int n = text.length;
        int i = start;
        while (i < n && blank(text[i])) {
            i++;
        }
        int first = i;
        int depth = 0;
        boolean plain = true;
        int end = n;
        for (; i < n; i++) {
            byte c = text[i];
            if (c == '"') {
                i = stringEnd(text, i);
                if (depth == 0) {
                    end = i + 1;
                    break;
                }
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (--depth == 0) {
                    end = i + 1;
                    break;
                }
            } else if (blank(c)) {
                plain = false;
            } else if (depth == 0 && (i + 1 == n || delimiter(text[i + 1]))) {
                end = i + 1;
                break;
            }
        }
        if (plain) {
            return Arrays.copyOfRange(text, first, end);
        }
        byte[] out = new byte[end - first];
        int o = 0;
        for (i = first; i < end; i++) {
            byte c = text[i];
            if (c == '"') {
                int close = stringEnd(text, i);
                System.arraycopy(text, i, out, o, close + 1 - i);
                o += close + 1 - i;
                i = close;
            } else if (!blank(c)) {
                out[o++] = c;
            }
        }
        return Arrays.copyOf(out, o);
    }

    private static int stringEnd(byte[] text, int open) {
        int i = open + 1;
        while (text[i] != '"') {
            i += text[i] == '\\' ? 2 : 1;
        }
        return i;
    }

    private static boolean blank(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    private static boolean delimiter(byte c) {
        return blank(c) || c == ',' || c == '}' || c == ']';
    }

    // --- the JSON event format: writing -------------------------------------------------------------------------

    /** A growing byte buffer for one record's value. */
    public static final class Out {
        private byte[] buf;
        private int size;

        public Out(int capacity) {
            buf = new byte[capacity];
        }

        private void room(int more) {
            if (size + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
            }
        }

        public Out raw(byte[] bytes) {
            room(bytes.length);
            System.arraycopy(bytes, 0, buf, size, bytes.length);
            size += bytes.length;
            return this;
        }

        /** Text that is JSON already (an {@code any} attribute's), as UTF-8. */
        public Out json(String text) {
            return raw(text.getBytes(StandardCharsets.UTF_8));
        }

        public Out ascii(String text) {
            int n = text.length();
            room(n);
            for (int i = 0; i < n; i++) {
                buf[size++] = (byte) text.charAt(i);
            }
            return this;
        }

        public Out ch(char c) {
            room(1);
            buf[size++] = (byte) c;
            return this;
        }

        /** A JSON string as msgspec writes it: UTF-8, escaping only the quote, the backslash and control
         * characters. */
        public Out string(String text) {
            ch('"');
            int n = text.length();
            int from = 0;
            for (int i = 0; i < n; i++) {
                char c = text.charAt(i);
                if (c < 0x20 || c == '"' || c == '\\') {
                    utf8Text(text, from, i);
                    escape(c);
                    from = i + 1;
                }
            }
            utf8Text(text, from, n);
            return ch('"');
        }

        private void utf8Text(String text, int from, int to) {
            if (from == to) {
                return;
            }
            boolean ascii = true;
            for (int i = from; i < to && ascii; i++) {
                ascii = text.charAt(i) < 0x80;
            }
            if (ascii) {
                room(to - from);
                for (int i = from; i < to; i++) {
                    buf[size++] = (byte) text.charAt(i);
                }
            } else {
                raw(text.substring(from, to).getBytes(StandardCharsets.UTF_8));
            }
        }

        private void escape(char c) {
            switch (c) {
                case '"':
                    ascii("\\\"");
                    break;
                case '\\':
                    ascii("\\\\");
                    break;
                case '\n':
                    ascii("\\n");
                    break;
                case '\r':
                    ascii("\\r");
                    break;
                case '\t':
                    ascii("\\t");
                    break;
                case '\b':
                    ascii("\\b");
                    break;
                case '\f':
                    ascii("\\f");
                    break;
                default:
                    ascii("\\u").ascii(hex(c, 4).toLowerCase(java.util.Locale.ROOT));
                    break;
            }
        }

        public byte[] bytes() {
            return Arrays.copyOf(buf, size);
        }
    }
}
