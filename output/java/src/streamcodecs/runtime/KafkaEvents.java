// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/KafkaEvents.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The rules of the kafka wire family that do not depend on a protocol's attributes, over one protocol's framing: how
 * a record's content mode is told apart, how binary-mode headers map to attributes, how the JSON event format's
 * data members and undeclared attributes are read and written ({@link KafkaProblems} has the problems' texts). A
 * protocol's generated {@code Codec} holds one instance (a constant) and reads and writes its own attributes, in
 * field order, between calls to it.
 */
public final class KafkaEvents extends KafkaProblems {
    /** What the bytes of an event's data are. */
    public enum Data {
        /** Bytes as they are. */
        BYTES,
        /** The UTF-8 text of one JSON value. */
        JSON,
        /** The UTF-8 characters of a text (a JSON string under a content type that is not JSON). */
        TEXT,
    }

    /** The top-level media type of text (RFC 2046): data under it is text, as JSON data is. */
    private static final String TEXT_TYPE = "text";

    /** The headers and value of a Kafka record as the codec writes it: header names and values in order. */
    public record Record(List<String> names, List<byte[]> values, byte[] value) {
    }

    /** Attribute names and how problems say their rule. */
    public record Names(Pattern pattern, Set<String> reserved, String rule) {
    }

    /** Binary content mode: the attribute headers' prefix, headers that carry an attribute under another name
     * (the attribute, then its header), the charsets text data may be written in (the first is the default), and
     * the content type JSON data without one is written under. */
    public record Binary(String prefix, Map<String, String> ownHeaders, List<String> textCharsets,
        String impliedContentType) {
    }

    /** Structured content mode: the header that tells the modes apart, the prefix of its value that means
     * structured, the event format's media type, its charsets, and the content type written with it. */
    public record Structured(String header, String prefix, String mediaType, List<String> charsets,
        String contentType) {
    }

    /** The JSON event format's data members and what declares JSON data: subtypes, suffixes, the content type an
     * absent one stands for, and whether that one declares JSON. */
    public record JsonFormat(String data, String dataBase64, List<String> subtypes, List<String> suffixes,
        String impliedType, boolean impliedIsJson) {
    }

    private final KafkaWire wire;
    private final String[] attributes;
    private final Map<String, Integer> headers;
    private final int contentTypeAt;
    private final Names names;
    private final Binary binary;
    private final Structured structured;
    private final JsonFormat json;
    private final byte[] structuredContentType;
    private final byte[] impliedContentType;
    private final boolean jsonImplied;
    private final boolean impliedText;
    private final Set<String> structuredOk = ConcurrentHashMap.newKeySet();
    private final Map<String, Boolean> jsonTypes = new ConcurrentHashMap<>();

    /**
     * {@code attributes}: the declared attributes' names in field order; {@code headers}: the header of each, in
     * the same order; {@code contentTypeAt}: the index of the one naming the data's media type.
     */
    public KafkaEvents(String protocol, KafkaWire wire, String[] attributes, String[] headers, int contentTypeAt,
        Names names, Binary binary, Structured structured, JsonFormat json) {
        super(protocol);
        this.wire = wire;
        this.attributes = attributes.clone();
        this.headers = new HashMap<>();
        for (int i = 0; i < headers.length; i++) {
            this.headers.put(headers[i], i);
        }
        this.contentTypeAt = contentTypeAt;
        this.names = names;
        this.binary = binary;
        this.structured = structured;
        this.json = json;
        this.structuredContentType = structured.contentType().getBytes(StandardCharsets.US_ASCII);
        this.impliedContentType = binary.impliedContentType().getBytes(StandardCharsets.US_ASCII);
        this.jsonImplied = json.impliedIsJson();
        this.impliedText = jsonImplied || json.impliedType().startsWith(TEXT_TYPE + "/");
    }

    /** The protocol's rules of the wire types. */
    public KafkaWire wire() {
        return wire;
    }

    // --- content types ------------------------------------------------------------------------------------------

    /** Whether a media type declares JSON (remembered: media types repeat). */
    public boolean isJson(String mediaType) {
        Boolean known = jsonTypes.get(mediaType);
        if (known == null) {
            known = KafkaWire.declaresJson(mediaType, json.subtypes(), json.suffixes());
            if (jsonTypes.size() < 1024) {
                jsonTypes.put(mediaType, known);
            }
        }
        return known;
    }

    /** Whether data under this content type ({@code null}: absent) is JSON. */
    public boolean jsonData(String contentType) {
        return contentType == null ? jsonImplied : isJson(contentType);
    }

    /** The content type JSON data without one stands for (made explicit in Spark's rows). */
    public String impliedJsonType() {
        return json.impliedType();
    }

    /** The data as text when its content type says it is text (JSON, {@code text/*}, or absent) and it is UTF-8;
     * else null. */
    public String dataText(String contentType, byte[] data) {
        if (data == null) {
            return null;
        }
        boolean text;
        if (contentType == null) {
            text = impliedText;
        } else {
            String essence = KafkaWire.essence(contentType);
            int slash = essence.indexOf('/');
            text = isJson(contentType) || (slash < 0 ? essence : essence.substring(0, slash)).equals(TEXT_TYPE);
        }
        if (!text) {
            return null;
        }
        try {
            return KafkaJson.utf8(data);
        } catch (KafkaWire.Invalid e) {
            return null;
        }
    }

    // --- binary content mode ------------------------------------------------------------------------------------

    /** The attribute a header's name names: its index, or -2 for an undeclared one, or -1 for none. */
    private int attributeOf(String name) {
        Integer at = headers.get(name);
        if (at != null) {
            return at;
        }
        String key = KafkaWire.asciiLower(name);
        if (key != name) {
            at = headers.get(key);
            if (at != null) {
                return at;
            }
        }
        return key.startsWith(binary.prefix()) ? -2 : -1;
    }

    /** Whether a record with this content type ({@code null}: none) is in structured content mode. */
    public boolean structured(String contentType) {
        String prefix = structured.prefix();
        return contentType != null && contentType.length() >= prefix.length()
            && KafkaWire.asciiLower(contentType.substring(0, prefix.length())).equals(prefix);
    }

    /** The last content-type header as text, or null (absent, null or not UTF-8). */
    public String contentTypeHeader(KafkaWire.Headers headers) {
        byte[] found = null;
        for (int i = 0, n = headers.size(); i < n; i++) {
            String name = headers.name(i);
            if (name != null && structured.header().equals(KafkaWire.asciiLower(name))) {
                found = headers.value(i);
            }
        }
        try {
            return found == null ? null : KafkaJson.utf8(found);
        } catch (KafkaWire.Invalid e) {
            return null;
        }
    }

    /** {@code "structured"} or {@code "binary"}: the mode a record is read in. */
    public String contentMode(KafkaWire.Headers headers) {
        return structured(contentTypeHeader(headers)) ? "structured" : "binary";
    }

    /** The content type of a record whose headers {@link #readHeaders} read into {@code found}, when it is in
     * structured mode; else null. */
    public String structuredContentType(String[] found) {
        String contentType = found[contentTypeAt];
        return structured(contentType) ? contentType : null;
    }

    /**
     * Reads a record's attribute headers: each declared attribute's text into {@code found} (by its index; the last
     * header wins), and returns the undeclared ones' texts by name in order (null: none). A bad header is a
     * problem only for a record in binary mode: a structured record ignores its prefixed headers, bad or not (its
     * content type is then all that {@code found} holds).
     */
    public Map<String, String> readHeaders(KafkaWire.Headers headers, String[] found) throws DecodeException {
        try {
            return attributeHeaders(headers, found);
        } catch (DecodeException problem) {
            String contentType = contentTypeHeader(headers);
            if (!structured(contentType)) {
                throw problem;
            }
            found[contentTypeAt] = contentType;
            return null;
        }
    }

    private Map<String, String> attributeHeaders(KafkaWire.Headers headers, String[] found) throws DecodeException {
        Map<String, String> others = null;
        for (int i = 0, n = headers.size(); i < n; i++) {
            String name = headers.name(i);
            int at = attributeOf(name);
            if (at == -1) {
                continue;
            }
            String attribute = at >= 0 ? null : KafkaWire.asciiLower(name).substring(binary.prefix().length());
            if (attribute != null) {
                String instead = binary.ownHeaders().get(attribute);
                if (instead != null) {
                    throw decodeError(Messages.headerGoesIn(repr(name), repr(attribute), repr(instead)), attribute);
                }
                if (!validName(attribute)) {
                    throw decodeError(
                        Messages.headerNotAttributeName(repr(name), repr(attribute), names.rule()), attribute
                    );
                }
            }
            String field = attribute != null ? attribute : attributes[at];
            byte[] raw = headers.value(i);
            if (raw == null) {
                throw decodeError(Messages.headerNull(repr(name)), field);
            }
            String text;
            try {
                text = KafkaJson.utf8(raw);
            } catch (KafkaWire.Invalid e) {
                throw decodeError(Messages.headerNotUtf8(repr(name), e.getMessage()), field);
            }
            if (attribute == null) {
                found[at] = text;
            } else {
                if (others == null) {
                    others = new LinkedHashMap<>();
                }
                others.put(attribute, text);
            }
        }
        return others;
    }

    private boolean validName(String name) {
        return names.pattern().matcher(name).matches() && !names.reserved().contains(name);
    }

    /** The undeclared attributes of a binary-mode record (their header texts, or null: none), by name in order. */
    public Map<String, Object> undeclaredFromHeaders(Map<String, String> others) throws DecodeException {
        Map<String, Object> undeclared = new LinkedHashMap<>();
        if (others != null) {
            for (Map.Entry<String, String> entry : others.entrySet()) {
                try {
                    undeclared.put(entry.getKey(), wire.attributeValueFromText(entry.getValue()));
                } catch (KafkaWire.Invalid e) {
                    throw decodeError(Messages.attributeProblem(repr(entry.getKey()), e.getMessage()), entry.getKey());
                }
            }
        }
        return undeclared;
    }

    // --- the JSON event format (structured content mode) --------------------------------------------------------

    /** Checks a structured-mode record: its content type names the supported event format, and it has a value. */
    public void checkStructured(String contentType, byte[] value) throws DecodeException {
        if (!structuredOk.contains(contentType)) {
            if (!KafkaWire.essence(contentType).equals(structured.mediaType())) {
                throw decodeError(
                    Messages.notEventFormat(repr(contentType), structured.mediaType()), attributes[contentTypeAt]
                );
            }
            String charset = wire.parameter(contentType, "charset");
            if (charset != null && !structured.charsets().contains(KafkaWire.asciiLower(charset))) {
                throw decodeError(
                    Messages.charsetNotSupported(repr(contentType), repr(charset)), attributes[contentTypeAt]
                );
            }
            if (structuredOk.size() < 256) {
                structuredOk.add(contentType);
            }
        }
        if (value == null) {
            throw decodeError(Messages.STRUCTURED_NEEDS_VALUE, null);
        }
    }

    /** The members of an event in the JSON event format (UTF-8 JSON text), by name. */
    public Map<String, KafkaWire.Json> members(byte[] text) throws DecodeException {
        try {
            return KafkaJson.members(text);
        } catch (KafkaWire.Invalid e) {
            throw new DecodeException(protocol, e.getMessage(), -1, e.offset(), null);
        }
    }

    /**
     * A problem of the event in the JSON text {@code text} named where it is when it names no offset: the value of
     * the member it names, else the event ({@link JsonPlaces#memberAt}, as the Python codec names it).
     */
    public DecodeException located(DecodeException e, byte[] text) {
        if (e.offset() >= 0) {
            return e;
        }
        int at = JsonPlaces.memberAt(text, 0, text.length, e.field());
        return new DecodeException(protocol, e.reason(), e.line(), at, e.field());
    }

    /** Takes the data member ({@code data}) out of an event's members: its value, or null. */
    public KafkaWire.Json takeData(Map<String, KafkaWire.Json> members) {
        return members.remove(json.data());
    }

    /** Takes the member of base64 data ({@code data_base64}) out of an event's members: its value, or null. */
    public KafkaWire.Json takeDataBase64(Map<String, KafkaWire.Json> members) {
        return members.remove(json.dataBase64());
    }

    /** What an event's data members ({@code data} and {@code data_base64}, null: absent) hold (null: no data),
     * checked; {@code contentType} is the event's. */
    public Data dataKind(KafkaWire.Json data, KafkaWire.Json encoded, String contentType) throws DecodeException {
        if (encoded != null && !encoded.isNull()) {
            if (data != null) {
                String both = Messages.membersExclusive(repr(json.data()), repr(json.dataBase64()));
                throw decodeError(both, json.dataBase64());
            }
            return Data.BYTES;
        }
        if (data == null) {
            return null;
        }
        if (jsonData(contentType)) {
            return Data.JSON;
        }
        if (data.kind == KafkaWire.STRING) {
            return Data.TEXT;
        }
        throw decodeError(
            Messages.memberNotJsonString(json.data(), repr(contentType), KafkaWire.kindWords(data.kind)), json.data()
        );
    }

    /** The bytes of an event's data (its members {@code data} and {@code data_base64} in {@code text}), held as
     * {@link #dataKind} said. */
    public byte[] data(KafkaWire.Json data, KafkaWire.Json encoded, byte[] text, Data kind) throws DecodeException {
        if (kind == null) {
            return null;
        }
        switch (kind) {
            case BYTES:
                try {
                    return wire.base64FromJson(encoded);
                } catch (KafkaWire.Invalid e) {
                    throw decodeError("member " + repr(json.dataBase64()) + " " + e.getMessage(), json.dataBase64());
                }
            case JSON:
                return KafkaJson.compact(text, data.start);
            default:
                return data.text.getBytes(StandardCharsets.UTF_8);
        }
    }

    /** The undeclared attributes among the members left of an event (null members are absent ones). */
    public Map<String, Object> undeclaredFromJson(Map<String, KafkaWire.Json> members) throws DecodeException {
        Map<String, Object> undeclared = new LinkedHashMap<>();
        for (Map.Entry<String, KafkaWire.Json> member : members.entrySet()) {
            String name = member.getKey();
            if (member.getValue().isNull()) {
                continue;
            }
            if (!validName(name)) {
                throw decodeError(Messages.memberNotAttributeName(repr(name), names.rule()), name);
            }
            try {
                undeclared.put(name, wire.attributeValueFromJson(member.getValue()));
            } catch (KafkaWire.Invalid e) {
                throw decodeError(Messages.attributeProblem(repr(name), e.getMessage()), name);
            }
        }
        return undeclared;
    }

    // --- encoding -----------------------------------------------------------------------------------------------

    /** A structured-mode record of an event in the JSON event format. */
    public Record structuredRecord(byte[] event) {
        return new Record(List.of(structured.header()), List.of(structuredContentType), event);
    }

    /** The header of a structured-mode record (its name and value). */
    public String structuredHeader() {
        return structured.header();
    }

    /** The value of a structured-mode record's header. */
    public byte[] structuredHeaderValue() {
        return structuredContentType;
    }

    /** Adds a header: its name, and its value as UTF-8 text. */
    public static void addHeader(List<String> names, List<byte[]> values, String name, String text) {
        names.add(name);
        values.add(text.getBytes(StandardCharsets.UTF_8));
    }

    private String extensionName(Object name) throws EncodeException {
        if (!(name instanceof String) || !validName((String) name)) {
            String text = String.valueOf(name);
            throw encodeError(Messages.undeclaredName(repr(text), names.rule()), text);
        }
        return (String) name;
    }

    /** Adds the headers of the undeclared attributes ({@code null}: none). */
    public void extensionHeaders(Map<String, Object> extensions, List<String> names, List<byte[]> values)
        throws EncodeException {
        if (extensions == null) {
            return;
        }
        for (Map.Entry<String, Object> entry : extensions.entrySet()) {
            String name = extensionName(entry.getKey());
            try {
                values.add(wire.attributeValueToText(entry.getValue()).getBytes(StandardCharsets.UTF_8));
            } catch (KafkaWire.Invalid e) {
                throw encodeError(Messages.attributeProblem(repr(name), e.getMessage()), name);
            }
            names.add(binary.prefix() + name);
        }
    }

    /**
     * The binary-mode record of an event whose attribute headers are written: its data ({@code kind}: how it is
     * held, null: bytes) as the value, under the content type (the content-type header, if any, is at
     * {@code contentTypeAt}: JSON data without one gets the implied content type there).
     */
    public Record binaryRecord(List<String> names, List<byte[]> values, byte[] data, Data kind, String contentType,
        int contentTypeAt) throws EncodeException {
        if (data == null) {
            return new Record(names, values, null);
        }
        kind = kind == null ? Data.BYTES : kind;
        if (kind == Data.BYTES) {
            return new Record(names, values, data);
        }
        if (contentType == null && (kind == Data.JSON || jsonImplied)) { // a JSON value: say so
            names.add(contentTypeAt, structured.header());
            values.add(contentTypeAt, impliedContentType);
            return new Record(names, values, kind == Data.JSON ? data : jsonString(data));
        }
        if (kind == Data.JSON) {
            if (contentType != null && !isJson(contentType) && data.length > 0 && data[0] != '"') {
                throw nonJson(contentType);
            }
            return new Record(names, values, data);
        }
        if (contentType != null && isJson(contentType)) {
            return new Record(names, values, jsonString(data));
        }
        return new Record(names, values, textValue(data, contentType));
    }

    private static byte[] jsonString(byte[] utf8) {
        return KafkaJson.quoted(new String(utf8, StandardCharsets.UTF_8));
    }

    private EncodeException nonJson(String contentType) {
        return encodeError(Messages.notJsonContent("JSON", json.data(), repr(contentType)), json.data());
    }

    /** Text data under a non-JSON content type: in its charset parameter (default the first text charset). */
    private byte[] textValue(byte[] utf8, String contentType) throws EncodeException {
        List<String> charsets = binary.textCharsets();
        String charset = contentType == null ? null : wire.parameter(contentType, "charset");
        charset = charset == null ? charsets.get(0) : KafkaWire.asciiLower(charset);
        if (!charsets.contains(charset)) {
            throw encodeError(
                Messages.textNotInCharset(json.data(), String.join(", ", charsets), repr(charset)), json.data()
            );
        }
        if (charset.equals("us-ascii")) {
            String text = new String(utf8, StandardCharsets.UTF_8);
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) >= 0x80) {
                    throw encodeError(
                        "str data does not fit charset us-ascii: ordinal not in range(128) at character " + i,
                        json.data()
                    );
                }
            }
        }
        return utf8;
    }

    /** Writes the members of the undeclared attributes ({@code null}: none) in the JSON event format. */
    public void extensionMembers(Map<String, Object> extensions, CompactJson out)
            throws EncodeException, JsonProblem {
        if (extensions == null) {
            return;
        }
        for (Map.Entry<String, Object> entry : extensions.entrySet()) {
            String name = extensionName(entry.getKey());
            Object value = entry.getValue();
            out.key(name);
            try {
                if (value instanceof Boolean || value instanceof Integer) {
                    out.literal(wire.attributeValueToText(value));
                } else {
                    out.string(wire.attributeValueToText(value));
                }
            } catch (KafkaWire.Invalid e) {
                throw encodeError(Messages.attributeProblem(repr(name), e.getMessage()), name);
            }
        }
    }

    /** Writes the data member of an event in the JSON event format ({@code data} null: none; {@code kind}: how it
     * is held, null: bytes) and closes the event. */
    public byte[] endJson(CompactJson out, byte[] data, Data kind, String contentType)
            throws EncodeException, JsonProblem {
        if (data != null) {
            if (kind == null || kind == Data.BYTES) {
                // Bytes under a content type that declares JSON hold a JSON value: written as that value. Other
                // bytes, and bytes with no content type (nothing may be assumed about them), are binary data.
                if (contentType != null && isJson(contentType)) {
                    out.key(json.data()).json(jsonValue(data, contentType));
                } else {
                    out.key(json.dataBase64()).string(KafkaWire.base64Text(data));
                }
            } else if (kind == Data.JSON) {
                if (!jsonData(contentType) && data.length > 0 && data[0] != '"') {
                    throw nonJson(contentType);
                }
                out.key(json.data()).json(data);
            } else {
                out.key(json.data()).string(new String(data, StandardCharsets.UTF_8));
            }
        }
        return out.endObject().toBytes();
    }

    /** Bytes under a JSON content type, as the JSON value they hold (whitespace between tokens removed). */
    private byte[] jsonValue(byte[] data, String contentType) throws EncodeException {
        try {
            return KafkaJson.oneJsonValue(data);
        } catch (KafkaWire.Invalid e) {
            String where = e.offset() < 0 ? "" : " (byte " + e.offset() + ")";
            throw encodeError(Messages.notOneJsonValue(repr(contentType), e.getMessage(), where), json.data());
        }
    }
}
