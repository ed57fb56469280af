// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/PackedRead.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import com.fasterxml.jackson.databind.node.TreeTraversingParser;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The MessagePack framing variant of the JSON family (Storm's {@code serializer="msgpack"}), read as the Python
 * codec reads it: one whole value parsed as msgspec parses it into Python values (the same refusals, in its words, at
 * the same byte), kept as a tree the message's readers read as they read JSON's ({@link JsonScan#parser}).
 *
 * <p>Values JSON has no form for are tree nodes Jackson carries as embedded objects: bin as a binary node
 * ({@code bytes}), the timestamp extension (-1) as an {@link OffsetDateTime} ({@code datetime}), another extension
 * as an {@link Ext}, a map with a key that is not a string as an {@link OddMap}; a float NaN is a double node.
 */
public final class PackedRead {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** The refusal of MessagePack nested deeper than {@link Messages#MAX_DEPTH} (at the value's start). */
    public static final String TOO_DEEP = Messages.malformed(Messages.PACKED_SYNTAX, Messages.NESTED_TOO_DEEPLY);

    /** A MessagePack extension value other than the timestamp (msgspec's {@code Ext}). */
    public record Ext(int type, byte[] data) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Ext e && e.type == type && Arrays.equals(e.data, data);
        }

        @Override
        public int hashCode() {
            return 31 * type + Arrays.hashCode(data);
        }

        @Override
        public String toString() {
            return "Ext(" + type + ", " + data.length + " bytes)";
        }
    }

    /** A map with a key that is not a string: its entries in order (a Python dict of other keys). */
    public record OddMap(List<JsonNode> keys, List<JsonNode> values) {
    }

    /** The last second of the year 9999 (UTC), in seconds since the epoch. */
    private static final long LAST_SECOND = 253402300799L;

    private final byte[] data;
    private final int base;
    private final int end;
    private int pos;
    /** The containers open above the value being read: for each its kind (map: true), item, and start. */
    private final boolean[] maps = new boolean[Messages.MAX_DEPTH + 2];
    private final int[] items = new int[Messages.MAX_DEPTH + 2];
    private final int[] starts = new int[Messages.MAX_DEPTH + 2];
    private final boolean[] keys = new boolean[Messages.MAX_DEPTH + 2];
    private int depth;

    private PackedRead(byte[] data, int offset, int length) {
        this.data = data;
        this.base = offset;
        this.end = offset + length;
        this.pos = offset;
    }

    /**
     * The one whole MessagePack value of {@code data[offset, offset + length)} as a tree; refused as the Python
     * codec's general path refuses it (offsets from {@code offset}).
     */
    public static JsonNode read(byte[] data, int offset, int length) throws JsonProblem {
        PackedRead r = new PackedRead(data, offset, length);
        JsonNode root = r.value();
        if (r.pos < r.end) {
            throw r.malformed(Messages.JSON_TRAILING, r.pos);
        }
        if (root.isPojo() && ((POJONode) root).getPojo() instanceof OddMap odd) {
            root = strings(odd); // a message's own keys that are not strings: unknown keys, ignored
        }
        refuseOdd(root);
        return root;
    }

    /**
     * The top level of one whole value, as {@link JsonScan#read} notes a JSON text's ({@code keys}: those the
     * protocol's shapes look at).
     */
    public static JsonScan scan(byte[] data, int offset, int length, String tagKey, String[] keys)
            throws JsonProblem {
        JsonNode root = read(data, offset, length);
        return JsonScan.ofTree(root, kind(root), tagKey, keys, PackedRead::scalar);
    }

    /**
     * A decoding problem of the MessagePack value {@code data[offset, offset + length)} (at stream offset
     * {@code at}), naming where in it the refused value is when the problem says no offset (a repeated key's last
     * value: the one read).
     */
    public static DecodeException failure(String protocol, JsonProblem problem, byte[] data, int offset, int length,
            long at) {
        long where = problem.offset();
        if (where < 0) {
            where = valueAt(data, offset, length, problem.field(), problem.absent(), true);
        }
        return new DecodeException(protocol, problem.reason(), -1, at + where, problem.field());
    }

    /** The entries of an odd map whose keys are strings, as an object. */
    private static ObjectNode strings(OddMap odd) {
        ObjectNode object = NODES.objectNode();
        for (int i = 0; i < odd.keys().size(); i++) {
            if (odd.keys().get(i).isTextual()) {
                object.set(odd.keys().get(i).textValue(), odd.values().get(i));
            }
        }
        return object;
    }

    /** A parser over a tree {@link #read} made, at its first token: the message's readers read it as JSON's. */
    public static JsonParser parser(JsonNode tree) throws IOException {
        JsonParser p = new Parser(tree);
        p.nextToken();
        return p;
    }

    /** A parser over a MessagePack tree, which gives the value at its token back as a tree ({@code any}). */
    static final class Parser extends TreeTraversingParser {
        Parser(JsonNode tree) {
            super(tree);
        }

        /** The value at the current token, as a tree (a container's tokens read to its end). */
        JsonNode node() throws IOException {
            switch (currentToken()) {
                case START_OBJECT: {
                    ObjectNode object = NODES.objectNode();
                    while (nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                        String key = currentName();
                        nextToken();
                        object.set(key, node());
                    }
                    return object;
                }
                case START_ARRAY: {
                    ArrayNode array = NODES.arrayNode();
                    while (nextToken() != com.fasterxml.jackson.core.JsonToken.END_ARRAY) {
                        array.add(node());
                    }
                    return array;
                }
                case VALUE_EMBEDDED_OBJECT:
                    return embedded(getEmbeddedObject());
                case VALUE_STRING:
                    return NODES.textNode(getText());
                case VALUE_NUMBER_INT:
                    return NODES.numberNode(getBigIntegerValue());
                case VALUE_NUMBER_FLOAT:
                    return NODES.numberNode(getDoubleValue());
                case VALUE_TRUE:
                    return NODES.booleanNode(true);
                case VALUE_FALSE:
                    return NODES.booleanNode(false);
                default:
                    return NODES.nullNode();
            }
        }
    }

    private static JsonNode embedded(Object pojo) {
        return pojo instanceof byte[] bytes ? NODES.binaryNode(bytes) : NODES.pojoNode(pojo);
    }

    /** The refusal of an embedded value (bytes, a timestamp) where {@code type} is expected, in msgspec's words. */
    static JsonProblem expected(String type, Parser p) {
        return new JsonProblem(Messages.expectedType(type, kindOf(p.getEmbeddedObject())));
    }

    /** msgspec's name of a value's type ({@code Expected `str`, got `bytes`}). */
    public static String kind(JsonNode node) {
        switch (node.getNodeType()) {
            case BINARY:
                return "bytes";
            case POJO:
                return kindOf(((POJONode) node).getPojo());
            default:
                return JsonScan.kind(node); // (what JSON text holds too)
        }
    }

    /** msgspec's name of an embedded value's type. */
    public static String kindOf(Object pojo) {
        if (pojo instanceof OffsetDateTime) {
            return "datetime";
        }
        if (pojo instanceof OddMap) {
            return "object";
        }
        return pojo instanceof byte[] ? "bytes" : "ext";
    }

    private static Object scalar(JsonNode node) {
        switch (node.getNodeType()) {
            case BINARY:
                return new Bytes(((com.fasterxml.jackson.databind.node.BinaryNode) node).binaryValue());
            case POJO:
                Object pojo = ((POJONode) node).getPojo();
                return pojo instanceof OffsetDateTime t ? new Datetime(t) : pojo;
            default:
                return JsonScan.scalar(node); // (what JSON text holds too)
        }
    }

    /** A scanned timestamp (shown as Python's repr of the aware datetime the Python codec reads it as). */
    public record Datetime(OffsetDateTime value) {
        @Override
        public String toString() {
            OffsetDateTime t = value;
            StringBuilder out = new StringBuilder("datetime.datetime(").append(t.getYear()).append(", ")
                    .append(t.getMonthValue()).append(", ").append(t.getDayOfMonth()).append(", ")
                    .append(t.getHour()).append(", ").append(t.getMinute());
            int micros = t.getNano() / 1000;
            if (t.getSecond() != 0 || micros != 0) {
                out.append(", ").append(t.getSecond());
            }
            if (micros != 0) {
                out.append(", ").append(micros);
            }
            return out.append(", tzinfo=datetime.timezone.utc)").toString();
        }
    }

    /** A scanned bytes value (shown as Python's repr). */
    public record Bytes(byte[] value) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes b && Arrays.equals(b.value, value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return PythonText.bytesRepr(value);
        }
    }

    // ------------------------------------------------------------------------------------------- the value's heads

    private JsonProblem malformed(String why, int at) {
        return new JsonProblem(Messages.malformed(Messages.PACKED_SYNTAX, why), true, at - base);
    }

    private JsonProblem truncated() {
        return new JsonProblem(Messages.malformed(Messages.PACKED_SYNTAX, Messages.JSON_TRUNCATED), true, end - base);
    }

    private int need(int count) throws JsonProblem {
        if (end - pos < count) {
            throw truncated();
        }
        int at = pos;
        pos += count;
        return at;
    }

    private long unsigned(int width) throws JsonProblem {
        int at = need(width);
        long v = 0;
        for (int i = 0; i < width; i++) {
            v = (v << 8) | (data[at + i] & 0xFF);
        }
        return v;
    }

    private int length(int width) throws JsonProblem {
        long n = unsigned(width);
        return n > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) n;
    }

    private JsonNode value() throws JsonProblem {
        int start = pos;
        int head = data[need(1)] & 0xFF;
        if (head <= 0x7F) {
            return NODES.numberNode(head);
        }
        if (head >= 0xE0) {
            return NODES.numberNode(head - 256);
        }
        if (head <= 0x8F) {
            return map(head & 0x0F, start);
        }
        if (head <= 0x9F) {
            return array(head & 0x0F, start);
        }
        if (head <= 0xBF) {
            return string(head & 0x1F);
        }
        switch (head) {
            case 0xC0:
                return NODES.nullNode();
            case 0xC2:
                return NODES.booleanNode(false);
            case 0xC3:
                return NODES.booleanNode(true);
            case 0xC4:
                return NODES.binaryNode(bytes(length(1)));
            case 0xC5:
                return NODES.binaryNode(bytes(length(2)));
            case 0xC6:
                return NODES.binaryNode(bytes(length(4)));
            case 0xC7:
                return ext(length(1), start);
            case 0xC8:
                return ext(length(2), start);
            case 0xC9:
                return ext(length(4), start);
            case 0xCA:
                return NODES.numberNode((double) Float.intBitsToFloat((int) unsigned(4)));
            case 0xCB:
                return NODES.numberNode(Double.longBitsToDouble(unsigned(8)));
            case 0xCC:
                return NODES.numberNode(unsigned(1));
            case 0xCD:
                return NODES.numberNode(unsigned(2));
            case 0xCE:
                return NODES.numberNode(unsigned(4));
            case 0xCF: {
                long v = unsigned(8);
                return v >= 0 ? NODES.numberNode(v) : NODES.numberNode(new BigInteger(Long.toUnsignedString(v)));
            }
            case 0xD0:
                return NODES.numberNode((long) (byte) unsigned(1));
            case 0xD1:
                return NODES.numberNode((long) (short) unsigned(2));
            case 0xD2:
                return NODES.numberNode((long) (int) unsigned(4));
            case 0xD3:
                return NODES.numberNode(unsigned(8));
            case 0xD4:
                return ext(1, start);
            case 0xD5:
                return ext(2, start);
            case 0xD6:
                return ext(4, start);
            case 0xD7:
                return ext(8, start);
            case 0xD8:
                return ext(16, start);
            case 0xD9:
                return string(length(1));
            case 0xDA:
                return string(length(2));
            case 0xDB:
                return string(length(4));
            case 0xDC:
                return array(length(2), start);
            case 0xDD:
                return array(length(4), start);
            case 0xDE:
                return map(length(2), start);
            case 0xDF:
                return map(length(4), start);
            default: // 0xC1, never used
                throw malformed(Messages.packedOpcode(String.format("'\\x%02x'", head)), start);
        }
    }

    private byte[] bytes(int size) throws JsonProblem {
        int at = need(size);
        return Arrays.copyOfRange(data, at, at + size);
    }

    private JsonNode string(int size) throws JsonProblem {
        int at = need(size);
        PythonText.Utf8Error bad = PythonText.utf8Error(data, at, at + size);
        if (bad != null) {
            throw malformed(Messages.stringNotUtf8(bad.reason()), bad.at());
        }
        return NODES.textNode(new String(data, at, size, StandardCharsets.UTF_8));
    }

    /** An extension of {@code size} bytes (after its type byte); the timestamp (-1) read as msgspec reads it. */
    private JsonNode ext(int size, int start) throws JsonProblem {
        int type = data[need(1)];
        int at = need(size);
        if (type != -1) {
            return NODES.pojoNode(new Ext(type, Arrays.copyOfRange(data, at, at + size)));
        }
        long seconds;
        long nanos;
        if (size == 4) {
            seconds = read(at, 4);
            nanos = 0;
        } else if (size == 8) {
            long both = read(at, 8);
            nanos = both >>> 34;
            seconds = both & 0x3FFFFFFFFL;
        } else if (size == 12) {
            nanos = read(at, 4);
            seconds = read(at + 4, 8);
        } else {
            throw invalid(Messages.PACKED_TIMESTAMP, start);
        }
        if (nanos > 999_999_999L) {
            throw invalid(Messages.PACKED_TIMESTAMP_NANOSECONDS, start);
        }
        OffsetDateTime time;
        OffsetDateTime rounded;
        try {
            time = OffsetDateTime.ofInstant(Instant.ofEpochSecond(seconds, nanos / 1000 * 1000), ZoneOffset.UTC);
            // msgspec rounds the nanoseconds to the nearest microsecond (a half up, into the next second too), after
            // its bounds test of the seconds
            rounded = OffsetDateTime.ofInstant(Instant.ofEpochSecond(seconds, (nanos + 500) / 1000 * 1000),
                    ZoneOffset.UTC);
        } catch (java.time.DateTimeException e) {
            throw invalid(Messages.PACKED_TIMESTAMP_RANGE, start);
        }
        if (rounded.getYear() > 9999 && seconds <= LAST_SECOND + 1) {
            // msgspec's own bound lets the first second of the year 10000 through (and the last of 9999 rounded up
            // into it), which Python's datetime then refuses (a ValueError the Python codec words as the bound's
            // refusal, at the value's start)
            throw new JsonProblem(Messages.PACKED_TIMESTAMP_RANGE, false, 0);
        }
        if (time.getYear() < 1 || time.getYear() > 9999) {
            throw invalid(Messages.PACKED_TIMESTAMP_RANGE, start);
        }
        return NODES.pojoNode(rounded);
    }

    private long read(int at, int width) {
        long v = 0;
        for (int i = 0; i < width; i++) {
            v = (v << 8) | (data[at + i] & 0xFF);
        }
        return v;
    }

    /**
     * A value msgspec's parse refuses after reading it (a ValidationError): no byte named, its path in msgspec's
     * words for an untyped value ({@code [0]} an array's item, {@code [...]} a map's value), and the Python codec's
     * place for it (the item an array path leads to, up to the first map).
     */
    private JsonProblem invalid(String reason, int start) {
        String where = null; // in a map's key: msgspec says where in its reason (each key in the one around it)
        int from = 0;
        for (int k = 0; k < depth; k++) {
            if (maps[k] && keys[k]) {
                where = (where == null ? "$" : "key") + path(from, k) + (where == null ? "" : "` in `" + where);
                from = k + 1;
            }
        }
        if (where != null) {
            return new JsonProblem(reason + " - at `key" + path(from, depth) + "` in `" + where + "`", false, 0);
        }
        JsonProblem problem = new JsonProblem(reason, false, place(start) - base);
        for (int i = depth - 1; i >= 0; i--) {
            if (maps[i]) {
                problem.inMap();
            } else {
                problem.at(items[i]);
            }
        }
        return problem;
    }

    /** msgspec's path through the open containers {@code [from, to)} ({@code [0]} an item, {@code [...]} a value). */
    private String path(int from, int to) {
        StringBuilder out = new StringBuilder();
        for (int i = from; i < to; i++) {
            out.append(maps[i] ? "[...]" : "[" + items[i] + "]");
        }
        return out.toString();
    }

    private int place(int start) {
        for (int i = 0; i < depth; i++) {
            if (maps[i]) {
                return starts[i];
            }
        }
        return start;
    }

    private void open(boolean map, int start) throws JsonProblem {
        if (depth >= Messages.MAX_DEPTH) {
            throw new JsonProblem(TOO_DEEP, true, 0);
        }
        maps[depth] = map;
        items[depth] = 0;
        starts[depth] = start;
        keys[depth] = false;
        depth++;
    }

    private JsonNode array(int count, int start) throws JsonProblem {
        open(false, start);
        ArrayNode array = NODES.arrayNode(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            items[depth - 1] = i;
            starts[depth - 1] = pos;
            array.add(value());
        }
        depth--;
        return array;
    }

    private JsonNode map(int count, int start) throws JsonProblem {
        open(true, start);
        ObjectNode object = NODES.objectNode();
        OddMap odd = null;
        for (int i = 0; i < count; i++) {
            keys[depth - 1] = true;
            JsonNode key = value();
            keys[depth - 1] = false;
            JsonNode item = value();
            if (!hashable(key)) {
                throw malformed(Messages.PACKED_UNHASHABLE, pos); // (msgspec says the byte after the value)
            }
            if (odd == null && key.isTextual()) {
                object.set(key.textValue(), item); // a repeated key: its last value, at its first place
                continue;
            }
            if (odd == null) {
                odd = new OddMap(new ArrayList<>(), new ArrayList<>());
                for (java.util.Map.Entry<String, JsonNode> e : object.properties()) {
                    odd.keys().add(NODES.textNode(e.getKey()));
                    odd.values().add(e.getValue());
                }
            }
            put(odd, key, item);
        }
        depth--;
        return odd == null ? object : NODES.pojoNode(odd);
    }

    /** Whether a key is hashable in Python (a map and an extension are not; an array is a tuple of its items). */
    private static boolean hashable(JsonNode key) {
        if (key.isObject() || key.isPojo() && !(((POJONode) key).getPojo() instanceof OffsetDateTime)) {
            return false;
        }
        if (key.isArray()) {
            for (JsonNode item : key) {
                if (!hashable(item)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** An entry of a dict: a key equal to one already there (Python's ==) keeps its place and takes the value. */
    private static void put(OddMap odd, JsonNode key, JsonNode item) {
        for (int i = 0; i < odd.keys().size(); i++) {
            if (PackedValues.pythonEquals(odd.keys().get(i), key)) {
                odd.values().set(i, item);
                return;
            }
        }
        odd.keys().add(key);
        odd.values().add(item);
    }

    /**
     * Refuses a value holding a map key that is not a string or an extension other than the timestamp, wherever it
     * is (but a message's own keys, which are unknown keys and ignored), the first in the order of its bytes (after
     * it was read whole, as the Python codec walks what msgspec parsed): the definition's free-form values are JSON
     * values (a VARIANT in Spark), which have no form for them. Named at the map, or the extension, by its path.
     */
    private static void refuseOdd(JsonNode node) throws JsonProblem {
        switch (node.getNodeType()) {
            case OBJECT:
                for (java.util.Map.Entry<String, JsonNode> e : node.properties()) {
                    try {
                        refuseOdd(e.getValue());
                    } catch (JsonProblem problem) {
                        throw problem.at(e.getKey());
                    }
                }
                return;
            case ARRAY: {
                int index = 0;
                for (JsonNode item : node) {
                    try {
                        refuseOdd(item);
                    } catch (JsonProblem problem) {
                        throw problem.at(index);
                    }
                    index++;
                }
                return;
            }
            case POJO:
                break;
            default:
                return;
        }
        Object pojo = ((POJONode) node).getPojo();
        if (pojo instanceof Ext ext) {
            throw new JsonProblem(Messages.packedExtension(ext.type()));
        }
        if (pojo instanceof OddMap odd) {
            for (int i = 0; i < odd.keys().size(); i++) {
                JsonNode key = odd.keys().get(i);
                if (!key.isTextual()) {
                    throw new JsonProblem(Messages.packedKeyNotStr(kind(key)));
                }
                try {
                    refuseOdd(odd.values().get(i));
                } catch (JsonProblem problem) {
                    throw problem.at(key.textValue());
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------- nesting, places

    /**
     * Where the value at {@code field} (the Python codec's path) is in the MessagePack value
     * {@code data[offset, offset + length)}, from its start; with {@code missing}, the map lacking its last key
     * ({@code last}: a repeated key's last value, as the general path reads it).
     */
    public static int valueAt(byte[] data, int offset, int length, String field, boolean missing, boolean last) {
        return PackedValues.valueAt(data, offset, offset + length, field, missing, last) - offset;
    }
}
