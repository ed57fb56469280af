package streamcodecs.runtime;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.node.TreeTraversingParser;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * The JSON family's parsing (KCL, Storm): Jackson's strict parser, the family's strict text (UTF-8, no lone
 * surrogate escapes), and the problems of a parser's tokens in msgspec's words ({@code Expected `str`, got `int`},
 * {@code malformed JSON: ...}).
 */
public final class JsonParsing {
    private JsonParsing() {
    }

    /**
     * The deepest nesting of arrays and objects a message may have; deeper JSON is refused in the Python codec's
     * words ({@code nested too deeply}). Jackson's default limit, which the KCL MultiLangDaemon and the CloudEvents
     * Java SDK read with; the Python codec applies the same one (messages.MAX_DEPTH), whatever its stack.
     */
    public static final int MAX_DEPTH = Messages.MAX_DEPTH;

    /** Strict JSON (no NaN, comments or single quotes); strings and keys as long as a message may be. */
    public static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .maxNestingDepth(MAX_DEPTH)
                    .build())
            .build();

    /**
     * A parser of the UTF-8 text {@code data[offset, offset + length)}. Jackson takes a text for UTF-16 or UTF-32
     * when a zero byte stands in its first two, and skips a byte-order mark; the family's texts are UTF-8 with no
     * mark (RFC 8259, 8.1), as msgspec reads them, and those bytes are not JSON there. So Jackson is given them as
     * 0x01, which is not JSON either at the same place: it refuses the text where msgspec does (a mark's first
     * byte, a zero), instead of reading it in another encoding or after the mark.
     */
    public static JsonParser parser(byte[] data, int offset, int length) throws IOException {
        return FACTORY.createParser(undetected(data, offset, length), offset, length);
    }

    /** Jackson's {@link JsonFactory#createParser(byte[], int, int)} may read {@code data[offset, offset + length)}
     * in another encoding than UTF-8: {@code data}, else a copy with the bytes that decide it made 0x01. */
    static byte[] undetected(byte[] data, int offset, int length) {
        if (length < 2) {
            return data;
        }
        int b0 = data[offset] & 0xFF;
        int b1 = data[offset + 1] & 0xFF;
        boolean mark = b0 == 0xFE && b1 == 0xFF || b0 == 0xFF && b1 == 0xFE
                || b0 == 0xEF && b1 == 0xBB && length > 2 && (data[offset + 2] & 0xFF) == 0xBF;
        if (!mark && b0 != 0 && b1 != 0) {
            return data;
        }
        byte[] copy = data.clone();
        if (mark || b0 == 0) {
            copy[offset] = 1;
        }
        if (b1 == 0) {
            copy[offset + 1] = 1;
        }
        return copy;
    }

    /**
     * The problem a parser's exception on {@code data[from, from + length)} means: malformed JSON, at its byte
     * offset; a text cut short ({@link #truncated}) is {@code Input data was truncated} at its end, where more
     * input was needed.
     */
    public static JsonProblem malformed(IOException e, byte[] data, int from, int length) {
        if (tooDeep(e)) { // at the bracket that opens one level too many
            String why = Messages.malformed("JSON", Messages.NESTED_TOO_DEEPLY);
            return new JsonProblem(why, true, JsonPlaces.tooDeepAt(data, from, length));
        }
        if (e instanceof StreamConstraintsException) {
            return new JsonProblem(Messages.malformed("JSON", firstLine(e.getMessage())), true, -1);
        }
        if (truncated(data, from, length)) { // msgspec's verdict: Jackson ends some malformed texts with an EOF too
            return truncation(length);
        }
        long offset = -1;
        String text = e.getMessage();
        if (e instanceof JsonProcessingException jpe) {
            text = jpe.getOriginalMessage();
            if (jpe.getLocation() != null && jpe.getLocation().getByteOffset() >= 0) {
                offset = Math.max(0, jpe.getLocation().getByteOffset() - 1);
            }
        }
        return new JsonProblem(Messages.malformed("JSON", Messages.jsonSyntax(firstLine(text))), true, offset);
    }

    /** A text of {@code length} bytes cut short: {@code Input data was truncated}, at its end. */
    public static JsonProblem truncation(int length) {
        return new JsonProblem(Messages.malformed("JSON", Messages.JSON_TRUNCATED), true, length);
    }

    /**
     * Whether msgspec (the Python codec's parser) calls {@code data[offset, offset + length)} truncated rather than
     * malformed: its input ends where its grammar needs more, before anything it refuses. Jackson words the same
     * texts otherwise (an unexpected end of input, an unrecognised token), and a syntax error may be worded either
     * way but a truncation must read the same in both codecs, so the decision is msgspec's, followed here: a
     * literal ({@code true}, {@code false}, {@code null}) needs its length left, else the input is truncated
     * whatever those bytes are; a number ends at the end of the input without being cut short, but a sign, a
     * decimal point or an exponent must be followed by a digit (else the number is malformed); a string, an
     * escape, an array or an object left open is truncated, as is an input of whitespace only. Called only on the
     * error path, on a text of the family's strict form (UTF-8, nested at most {@link #MAX_DEPTH} deep).
     */
    public static boolean truncated(byte[] data, int offset, int length) {
        int[] at = {offset};
        int end = offset + length;
        int found = value(data, at, end);
        if (found != 0) {
            return found < 0;
        }
        return false; // a whole value: whatever follows it is trailing characters, not a truncation
    }

    /** Reads one value at {@code at[0]} as msgspec does: 0 when whole, -1 when the input ends first, 1 when
     * malformed. */
    private static int value(byte[] data, int[] at, int end) {
        int i = skipSpace(data, at[0], end);
        if (i >= end) {
            return -1;
        }
        byte c = data[i];
        switch (c) {
            case 't':
            case 'n':
            case 'f': {
                String literal = c == 't' ? "true" : c == 'n' ? "null" : "false";
                if (end - i < literal.length()) {
                    return -1;
                }
                for (int k = 0; k < literal.length(); k++) {
                    if (data[i + k] != literal.charAt(k)) {
                        return 1;
                    }
                }
                at[0] = i + literal.length();
                return 0;
            }
            case '"':
                return string(data, at, i, end);
            case '[':
            case '{':
                return container(data, at, i, end, c == '{');
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number(data, at, i, end);
                }
                return 1;
        }
    }

    private static int container(byte[] data, int[] at, int start, int end, boolean object) {
        byte close = (byte) (object ? '}' : ']');
        int i = skipSpace(data, start + 1, end);
        if (i >= end) {
            return -1;
        }
        if (data[i] == close) {
            at[0] = i + 1;
            return 0;
        }
        while (true) {
            if (object) {
                if (data[i] != '"') {
                    return 1;
                }
                int found = string(data, at, i, end);
                if (found != 0) {
                    return found;
                }
                i = skipSpace(data, at[0], end);
                if (i >= end) {
                    return -1;
                }
                if (data[i] != ':') {
                    return 1;
                }
                i++;
            }
            at[0] = i;
            int found = value(data, at, end);
            if (found != 0) {
                return found;
            }
            i = skipSpace(data, at[0], end);
            if (i >= end) {
                return -1;
            }
            if (data[i] == close) {
                at[0] = i + 1;
                return 0;
            }
            if (data[i] != ',') {
                return 1;
            }
            i = skipSpace(data, i + 1, end);
            if (i >= end) {
                return -1;
            }
        }
    }

    private static int string(byte[] data, int[] at, int start, int end) {
        for (int i = start + 1; i < end; i++) {
            int c = data[i] & 0xFF;
            if (c == '"') {
                at[0] = i + 1;
                return 0;
            }
            if (c < 0x20) {
                return 1;
            }
            if (c == '\\') {
                if (i + 1 >= end) {
                    return -1;
                }
                byte e = data[++i];
                if (e == 'u') {
                    if (end - (i + 1) < 4) {
                        return -1;
                    }
                    int unit = hex4(data, i + 1);
                    i += 4;
                    if (unit < 0 || (unit >= 0xDC00 && unit <= 0xDFFF)) {
                        return 1;
                    }
                    if (unit >= 0xD800 && unit <= 0xDBFF) { // a high surrogate: msgspec wants its low one's escape
                        if (end - (i + 1) < 6) {
                            return -1;
                        }
                        int low = data[i + 1] == '\\' && data[i + 2] == 'u' ? hex4(data, i + 3) : -1;
                        if (low < 0xDC00 || low > 0xDFFF) {
                            return 1;
                        }
                        i += 6;
                    }
                } else if ("\"\\/bfnrt".indexOf(e) < 0) {
                    return 1;
                }
            }
        }
        return -1;
    }

    private static int number(byte[] data, int[] at, int start, int end) {
        int i = start;
        if (data[i] == '-') {
            i++;
        }
        if (i >= end || !digit(data[i])) {
            return 1;
        }
        if (data[i] == '0') {
            i++;
            if (i < end && digit(data[i])) {
                return 1;
            }
        } else {
            while (i < end && digit(data[i])) {
                i++;
            }
        }
        if (i < end && data[i] == '.') {
            i++;
            if (i >= end || !digit(data[i])) {
                return 1;
            }
            while (i < end && digit(data[i])) {
                i++;
            }
        }
        if (i < end && (data[i] == 'e' || data[i] == 'E')) {
            i++;
            if (i < end && (data[i] == '+' || data[i] == '-')) {
                i++;
            }
            if (i >= end || !digit(data[i])) {
                return 1;
            }
            while (i < end && digit(data[i])) {
                i++;
            }
        }
        at[0] = i;
        return 0;
    }

    private static boolean digit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static int skipSpace(byte[] data, int i, int end) {
        while (i < end && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r')) {
            i++;
        }
        return i;
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
     * family's strict text (RFC 8259 8.1 and 8.2), as the Python codec checks it (jsontext.check_text), invalid UTF-8
     * first. An escape is a backslash and what it takes: a backslash and one character, or {@code \\u} and four hex
     * digits.
     */
    public static JsonProblem textProblem(byte[] data, int offset, int length) {
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
                    return new JsonProblem(Messages.malformed("JSON", Messages.loneSurrogate(written)),
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

    private static JsonProblem utf8Problem(String why, int at) {
        return new JsonProblem(Messages.malformed("JSON", Messages.stringNotUtf8(why)), true, at);
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

    public static JsonProblem expected(String type, JsonParser p) {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_NUMBER_INT) {
            return wrongNumber(type, p);
        }
        if (t == JsonToken.VALUE_EMBEDDED_OBJECT && p instanceof PackedRead.Parser packed) {
            return PackedRead.expected(type, packed);
        }
        return new JsonProblem(Messages.expectedType(type, got(t)));
    }

    /**
     * A number where another type is expected, in msgspec's words: an integer beyond 64 bits is read as a float,
     * and a number beyond a double's range is {@code Number out of range}.
     */
    private static JsonProblem wrongNumber(String type, JsonParser p) {
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
            if ("float".equals(kind) && Double.isInfinite(p.getDoubleValue()) && !(p instanceof PackedRead.Parser)) {
                // (a JSON number beyond a double's range; MessagePack's infinities are floats like any other)
                return new JsonProblem(Messages.NUMBER_OUT_OF_RANGE);
            }
        } catch (IOException e) {
            return new JsonProblem(Messages.expectedType(type, kind));
        }
        return new JsonProblem(Messages.expectedType(type, kind));
    }

    /** A repeated tag key inside a message: as msgspec reads it, it must be the message's own tag again; another
     * value is refused where it is (jsonplaces.tag_again_at: the message was picked by the first). */
    public static void readTag(JsonParser p, String tag) throws IOException, JsonProblem {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw new JsonProblem(Messages.expectedTagType("str"), false, p.currentTokenLocation().getByteOffset());
        }
        String text = p.getText();
        if (!text.equals(tag)) {
            throw new JsonProblem(Messages.invalidTag(text), false, p.currentTokenLocation().getByteOffset());
        }
    }

    /** Checks the current token starts an object; false when it is null and null is allowed. */
    public static boolean object(JsonParser p, boolean nullable) throws JsonProblem {
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT) {
            return true;
        }
        if (nullable && t == JsonToken.VALUE_NULL) {
            return false;
        }
        throw expected(nullable ? "object | null" : "object", p);
    }

}
