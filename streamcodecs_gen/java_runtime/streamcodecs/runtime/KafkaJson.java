package streamcodecs.runtime;

import static streamcodecs.runtime.KafkaRules.ARRAY;
import static streamcodecs.runtime.KafkaRules.FALSE;
import static streamcodecs.runtime.KafkaRules.FLOAT;
import static streamcodecs.runtime.KafkaRules.INTEGER;
import static streamcodecs.runtime.KafkaRules.NULL;
import static streamcodecs.runtime.KafkaRules.OBJECT;
import static streamcodecs.runtime.KafkaRules.STRING;
import static streamcodecs.runtime.KafkaRules.TRUE;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import streamcodecs.runtime.KafkaRules.Invalid;
import streamcodecs.runtime.KafkaRules.Json;

/**
 * The kafka wire family's JSON text: strict UTF-8, the JSON event format read with Jackson's streaming parser (its
 * members, one JSON value, compact text) and any JSON value written as msgspec writes the value Python decodes from
 * it ({@link CompactJson}). Problems are {@link KafkaRules.Invalid}, worded as the Python runtime's.
 */
public final class KafkaJson {
    private KafkaJson() {
    }

    // --- JSON values as the event format reads them ------------------------------------------------------------

    /** Strict JSON, nested at most {@link JsonParsing#MAX_DEPTH} deep; strings and names as long as a record's. */
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(JsonParsing.MAX_DEPTH)
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .build())
            .build();

    // --- any JSON value (held as its text as msgspec writes the value Python decodes) ---------------------------

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
        int length = text.length - from;
        try (JsonParser p = JSON.createParser(JsonParsing.undetected(text, from, length), from, length)) {
            JsonToken token = p.nextToken();
            if (token == null) {
                throw truncated(text);
            }
            CompactJson out = new CompactJson(false, 64);
            normal(p, token, out);
            if (start < 0) {
                end(p);
            }
            return new String(out.toBytes(), StandardCharsets.UTF_8);
        } catch (JsonProblem e) {
            throw new Invalid(e.reason()); // not reached: every string is checked for lone surrogates first
        } catch (Invalid e) {
            throw start < 0 ? orTruncated(e, text) : e;
        } catch (JsonProcessingException e) {
            throw malformed(e, text);
        } catch (IOException e) {
            throw new Invalid(malformedJson(e.getMessage()));
        }
    }

    /** A text as a JSON string, as msgspec writes it (the text holds no lone surrogate). */
    static byte[] quoted(String text) {
        try {
            return new CompactJson(false, text.length() + 8).string(text).toBytes();
        } catch (JsonProblem e) {
            throw new IllegalArgumentException(e.reason()); // not reached: the callers' texts are checked
        }
    }

    /** A text cut short: {@code Input data was truncated}, at its end (where more input was needed). */
    private static Invalid truncated(byte[] text) {
        return new Invalid(malformedJson(Messages.JSON_TRUNCATED), text.length);
    }

    private static void normal(JsonParser p, JsonToken token, CompactJson out)
            throws IOException, Invalid, JsonProblem {
        switch (token) {
            case START_OBJECT: {
                Map<String, byte[]> members = new LinkedHashMap<>();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                    if (t == null) {
                        throw new Invalid(malformedJson(Messages.JSON_TRUNCATED), p.currentLocation().getByteOffset());
                    }
                    String name = p.currentName();
                    noLoneSurrogate(name, p);
                    CompactJson member = new CompactJson(false, 32);
                    normal(p, p.nextToken(), member);
                    members.put(name, member.toBytes());
                }
                out.beginObject();
                for (Map.Entry<String, byte[]> member : members.entrySet()) {
                    out.key(member.getKey()).json(member.getValue());
                }
                out.endObject();
                return;
            }
            case START_ARRAY: {
                out.beginArray();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                    if (t == null) {
                        throw new Invalid(malformedJson(Messages.JSON_TRUNCATED), p.currentLocation().getByteOffset());
                    }
                    normal(p, t, out);
                }
                out.endArray();
                return;
            }
            case VALUE_STRING: {
                String text = p.getText();
                noLoneSurrogate(text, p);
                out.string(text);
                return;
            }
            case VALUE_NUMBER_INT:
                out.number(new java.math.BigInteger(p.getText()).toString());
                return;
            case VALUE_NUMBER_FLOAT: {
                double value = Double.parseDouble(p.getText());
                if (Double.isInfinite(value)) {
                    throw new Invalid(malformedJson("number out of range"), p.currentTokenLocation().getByteOffset());
                }
                out.number(PythonText.msgspecFloat(value));
                return;
            }
            case VALUE_TRUE:
                out.literal("true");
                return;
            case VALUE_FALSE:
                out.literal("false");
                return;
            case VALUE_NULL:
                out.literal("null");
                return;
            default:
                throw new Invalid(malformedJson("unexpected " + token), p.currentTokenLocation().getByteOffset());
        }
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
            throw new Invalid(Messages.jsonNotUtf8(bad.reason()), bad.at());
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

    // --- the JSON event format: reading -------------------------------------------------------------------------

    /** The members of a JSON object (the last of repeated names wins, at the place of the first), read with
     * Jackson's streaming parser; the whole text must be one JSON value. Malformed JSON, or a value that is not
     * an object, is {@link Invalid} (with the offset). */
    public static Map<String, Json> members(byte[] text) throws Invalid {
        strictText(text);
        try (JsonParser p = JSON.createParser(JsonParsing.undetected(text, 0, text.length))) {
            JsonToken token = p.nextToken();
            if (token == null) {
                throw truncated(text);
            }
            if (token != JsonToken.START_OBJECT) {
                int kind = value(p, token, -1).kind;
                end(p);
                throw new Invalid(Messages.eventNotObject(KafkaRules.pythonType(kind)));
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
        } catch (Invalid e) {
            throw orTruncated(e, text);
        } catch (JsonProcessingException e) {
            throw malformed(e, text);
        } catch (IOException e) {
            throw new Invalid(malformedJson(e.getMessage()));
        }
    }

    /** The bytes as one JSON value with the whitespace between tokens removed (strings, numbers, member order and
     * repeated names kept as written); anything else is {@link Invalid}. */
    public static byte[] oneJsonValue(byte[] text) throws Invalid {
        strictText(text);
        try (JsonParser p = JSON.createParser(JsonParsing.undetected(text, 0, text.length))) {
            JsonToken token = p.nextToken();
            if (token == null) {
                throw truncated(text);
            }
            value(p, token, 0);
            end(p);
        } catch (Invalid e) {
            throw orTruncated(e, text);
        } catch (JsonProcessingException e) {
            throw malformed(e, text);
        } catch (IOException e) {
            throw new Invalid(malformedJson(e.getMessage()));
        }
        return compact(text, 0);
    }

    /** A JSON text's syntax error, in the catalog's words around the parser's ({@link Messages#malformed}). */
    private static String malformedJson(String why) {
        return Messages.malformed("JSON", why);
    }

    private static Invalid malformed(JsonProcessingException e, byte[] text) {
        if (JsonParsing.tooDeep(e)) { // at the bracket that opens one level too many
            return new Invalid(JsonChecks.TOO_DEEP, JsonPlaces.tooDeepAt(text, 0, text.length));
        }
        if (JsonParsing.truncated(text, 0, text.length)) {
            return truncated(text); // msgspec's verdict and words, where Jackson words an early end its own way
        }
        String message = e.getOriginalMessage();
        int newline = message.indexOf('\n');
        if (newline >= 0) {
            message = message.substring(0, newline);
        }
        long offset = e.getLocation() == null ? -1 : e.getLocation().getByteOffset();
        return new Invalid(malformedJson(message), offset);
    }

    private static void end(JsonParser p) throws IOException, Invalid {
        if (p.nextToken() != null) {
            throw new Invalid(malformedJson(Messages.JSON_TRAILING), p.currentTokenLocation().getByteOffset());
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
                        throw new Invalid(malformedJson(Messages.JSON_TRUNCATED), p.currentLocation().getByteOffset());
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
            throw new Invalid(malformedJson("number out of range"), p.currentTokenLocation().getByteOffset());
        }
    }

    private static final String UNPAIRED = malformedJson("a string holds an unpaired surrogate");

    /**
     * {@code found}, a problem of {@code text} met while reading it, or its truncation where msgspec's reading of
     * the text ends before that problem: a string's high surrogate escape with fewer than the six bytes of a low
     * one's after it is a text cut short there, not a lone surrogate ({@link JsonParsing#truncated}).
     */
    private static Invalid orTruncated(Invalid found, byte[] text) {
        return UNPAIRED.equals(found.getMessage()) && JsonParsing.truncated(text, 0, text.length)
                ? truncated(text)
                : found;
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
                throw new Invalid(UNPAIRED, p.currentTokenLocation().getByteOffset());
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
}
