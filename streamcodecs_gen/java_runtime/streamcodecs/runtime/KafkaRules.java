package streamcodecs.runtime;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules of the kafka wire family on the JVM, as {@code _runtime/kafkawire.py} is for Python: the validators and
 * canonical strings of the wire types (RFC 3986 URI and URI-reference, RFC 3339 timestamps, media types, base64,
 * attribute values), media-type helpers, the JSON values the event format reads ({@link Json}) and the problem
 * ({@link Invalid}). {@link KafkaWire} adds the per-type methods the generated codecs call; {@link KafkaJson} reads
 * and writes the JSON event format's text.
 *
 * <p>The patterns are the Python runtime's own (one place for each rule): the generated codec renders their text
 * and builds one {@code KafkaWire} from them. Every check throws {@link Invalid}, whose message is the rule broken
 * (the same text as Python's {@code Invalid}); the codec re-throws it naming the attribute.
 */
public abstract class KafkaRules {
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

    private final Pattern canonicalInteger;

    private final Set<String> validUri = ConcurrentHashMap.newKeySet();

    private final Set<String> validReference = ConcurrentHashMap.newKeySet();

    private final Set<String> validMediaType = ConcurrentHashMap.newKeySet();

    /** The rules, from the generator's patterns (each applied to whole texts, as {@code fullmatch}). */
    protected KafkaRules(
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
        String uuid,
        String canonicalInteger
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
        this.canonicalInteger = Pattern.compile(canonicalInteger);
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
            throw new Invalid(Messages.forbiddenCharacter(hex(code, 4)));
        }
        return text;
    }

    private static String hex(int code, int digits) {
        String text = Integer.toHexString(code).toUpperCase(Locale.ROOT);
        return "0".repeat(Math.max(0, digits - text.length())) + text;
    }

    static String jsonText(Json value) throws Invalid {
        if (value.kind != STRING) {
            throw new Invalid(Messages.notJsonKind("string", kindWords(value.kind)));
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

    String checkUri(String text) throws Invalid {
        if (validUri.contains(text)) {
            return text;
        }
        if (!simpleUri.matcher(text).matches() && !uri.matcher(text).matches()) {
            throw new Invalid(Messages.notAbsoluteUri(PythonText.repr(text)));
        }
        return remember(validUri, text);
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

    String checkUriReference(String text) throws Invalid {
        if (plainPath(text) || validReference.contains(text)) {
            return text;
        }
        if (!simpleReference.matcher(text).matches() && !uriReference.matcher(text).matches()) {
            throw new Invalid(Messages.notUriReference(PythonText.repr(text)));
        }
        return remember(validReference, text);
    }

    String checkMediaType(String text) throws Invalid {
        if (validMediaType.contains(text)) {
            return text;
        }
        if (!mediaType.matcher(text).matches()) {
            throw new Invalid(Messages.notMediaType(PythonText.repr(text)));
        }
        return remember(validMediaType, text);
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

    /** A date-time with its offset; {@code t}/{@code z} in either case; digits beyond microseconds dropped. */
    OffsetDateTime parseTimestamp(String text) throws Invalid {
        if (!timestamp.matcher(text).matches()) {
            throw new Invalid(Messages.notRfc3339(PythonText.repr(text)));
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
            throw new Invalid(Messages.invalidDateTime("year 0 is out of range", PythonText.repr(text)));
        }
        try {
            return OffsetDateTime.of(
                year, month, day, digits(text, 11, 13), digits(text, 14, 16), digits(text, 17, 19), micros * 1000,
                offset
            ).minusMinutes(beyond);
        } catch (DateTimeException e) {
            throw new Invalid(Messages.invalidDateTime("day is out of range for month", PythonText.repr(text)));
        }
    }

    private static int digits(String text, int start, int end) {
        int value = 0;
        for (int i = start; i < end; i++) {
            value = value * 10 + text.charAt(i) - '0';
        }
        return value;
    }

    /** {@code value} as {@link Rfc3339#text} writes it; refused in {@link Rfc3339#problem}'s words when it has no
     * such text. */
    String timestampText(OffsetDateTime value) throws Invalid {
        String problem = Rfc3339.problem(value);
        if (problem != null) {
            throw new Invalid(problem);
        }
        return Rfc3339.text(value);
    }

    // --- booleans and integers (canonical strings in headers, JSON booleans and integers in the format) --------

    Boolean parseBool(String text) throws Invalid {
        if (text.equals("true")) {
            return Boolean.TRUE;
        }
        if (text.equals("false")) {
            return Boolean.FALSE;
        }
        throw new Invalid(Messages.notBooleanText(PythonText.repr(text)));
    }

    Boolean jsonBool(Json value) throws Invalid {
        if (value.kind != TRUE && value.kind != FALSE) {
            throw new Invalid(Messages.notJsonKind("boolean", kindWords(value.kind)));
        }
        return value.kind == TRUE;
    }

    /** An integer's canonical text ({@code -?digits}, no leading zero), in the range {@code low..high} of its type
     * (the type record's). */
    public long integer(String text, long low, long high) throws Invalid {
        if (!canonicalInteger.matcher(text).matches()) {
            throw new Invalid(Messages.notCanonicalInteger(PythonText.repr(text)));
        }
        return inRange(new java.math.BigInteger(text), low, high);
    }

    /** A JSON integer of the event format, in the range {@code low..high}. */
    public static long jsonInteger(Json value, long low, long high) throws Invalid {
        if (value.kind != INTEGER) {
            throw new Invalid(Messages.notJsonKind("integer", kindWords(value.kind)));
        }
        return inRange(new java.math.BigInteger(value.text), low, high);
    }

    /** The integer's canonical text, when it is in the range {@code low..high} (a Java type may hold more). */
    public static String integerText(long value, long low, long high) throws Invalid {
        if (value < low || value > high) {
            throw new Invalid(outOfRange(java.math.BigInteger.valueOf(value), low, high));
        }
        return Long.toString(value);
    }

    private static long inRange(java.math.BigInteger value, long low, long high) throws Invalid {
        if (value.bitLength() > 63 || value.longValue() < low || value.longValue() > high) {
            throw new Invalid(outOfRange(value, low, high));
        }
        return value.longValue();
    }

    /** The refusal of an integer beyond {@code low..high}, naming the type's bits as Python's does (those of
     * {@code high - low}). */
    private static String outOfRange(java.math.BigInteger value, long low, long high) {
        int bits = java.math.BigInteger.valueOf(high).subtract(java.math.BigInteger.valueOf(low)).bitLength();
        return Messages.integerOutOfRange(value, bits, low, high);
    }

    // --- floats (JSON number syntax in headers, written as Python's repr) ------------------------------------------

    static double finite(double value, double largest) throws Invalid {
        if (!Double.isFinite(value) || Math.abs(value) > largest) {
            throw new Invalid(Messages.notFiniteNumber(PythonText.pythonFloat(value)));
        }
        return value;
    }

    double numberText(String text, double largest) throws Invalid {
        if (!number.matcher(text).matches()) {
            throw new Invalid(Messages.notNumberText(PythonText.repr(text)));
        }
        return finite(Double.parseDouble(text), largest);
    }

    static double jsonNumber(Json value, double largest) throws Invalid {
        if (value.kind != INTEGER && value.kind != FLOAT) {
            throw new Invalid(Messages.notJsonKind("number", kindWords(value.kind)));
        }
        return finite(Double.parseDouble(value.text), largest);
    }

    // --- UUID (8-4-4-4-12 hex digits, written in lower case) -------------------------------------------------------

    UUID parseUuid(String text) throws Invalid {
        if (!uuid.matcher(text).matches()) {
            throw new Invalid(Messages.notUuidText(PythonText.repr(text)));
        }
        return new UUID(
            Long.parseUnsignedLong(text.substring(0, 8) + text.substring(9, 13) + text.substring(14, 18), 16),
            Long.parseUnsignedLong(text.substring(19, 23) + text.substring(24), 16)
        );
    }

    // --- any JSON value (held as its text as msgspec writes the value Python decodes) ---------------------------

    /** Any JSON value in a header, as its compact text (see {@link KafkaJson#anyJson(byte[], int)}); null for JSON
     * null (an absent attribute, as in Python). */
    String parseAny(String text) throws Invalid {
        String json = KafkaJson.anyJson(text.getBytes(StandardCharsets.UTF_8), -1);
        return json.equals("null") ? null : json;
    }

    /** A member of the JSON format (not null: that is an absent attribute) as its compact text. */
    String jsonAny(Json value) throws Invalid {
        switch (value.kind) {
            case STRING:
                return new String(KafkaJson.quoted(value.text), StandardCharsets.UTF_8);
            case INTEGER:
                return new java.math.BigInteger(value.text).toString();
            case FLOAT:
                return PythonText.msgspecFloat(Double.parseDouble(value.text));
            case OBJECT:
            case ARRAY:
                return KafkaJson.anyJson(value.source, value.start);
            default:
                return value.text;
        }
    }

    // --- base64, attribute values -----------------------------------------------------------------------------

    /** RFC 4648 section 4, padded; other characters, missing padding or whitespace are errors. */
    byte[] parseBase64(String text) throws Invalid {
        if (!base64.matcher(text).matches()) {
            throw new Invalid(Messages.NOT_BASE64);
        }
        return Base64.getDecoder().decode(text);
    }

    /** Bytes as padded standard base64. */
    public static String base64Text(byte[] value) {
        return Base64.getEncoder().encodeToString(value);
    }

    /** A header carries no type: the value stays the text. */
    public String attributeValueFromText(String text) throws Invalid {
        return checkText(text);
    }

    /** {@code int32} from a member of the JSON event format: rendered in {@link KafkaWire} from the type's record
     * (its range is defined once, there), and an undeclared attribute's integer is an int32. */
    public abstract Integer int32FromJson(Json value) throws Invalid;

    /** {@code int32}'s canonical text, rendered as {@link #int32FromJson} is. */
    public abstract String int32ToText(Integer value) throws Invalid;

    /** A JSON string, boolean or integer (an int32). */
    public Object attributeValueFromJson(Json value) throws Invalid {
        switch (value.kind) {
            case STRING:
                return checkText(value.text);
            case TRUE:
                return Boolean.TRUE;
            case FALSE:
                return Boolean.FALSE;
            case INTEGER:
                return int32FromJson(value);
            default:
                throw new Invalid(Messages.undeclaredJsonKind(kindWords(value.kind)));
        }
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
            return int32ToText((Integer) value);
        }
        throw new Invalid(
            Messages.undeclaredValueType(value == null ? "NoneType" : value.getClass().getSimpleName())
        );
    }
}
