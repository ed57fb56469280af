// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/JsonScan.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.util.function.Function;

/**
 * The top level of a JSON text: what the general path recognises a message by (its kind, its tag, the values of
 * the keys a protocol's shapes look at), read as the typed path reads it ({@link #scan}) or as the general path
 * does ({@link #read}, which keeps the whole value as a tree).
 */
public final class JsonScan {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** A scanned JSON null. */
    public static final Object NULL = new Object();
    /** A scanned value that is not a scalar: an array. */
    public static final Object ARRAY = new Object();
    /** A scanned value that is not a scalar: an object. */
    public static final Object OBJECT = new Object();

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

    JsonScan(int keys) {
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

    static String pyRepr(Object value) {
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
    private static final String TRAILING = Messages.malformed("JSON", Messages.jsonSyntax(Messages.JSON_TRAILING));

    public static JsonScan scan(byte[] data, int offset, int length, String tagKey, String[] keys) throws JsonProblem {
        JsonScan scan = new JsonScan(keys.length);
        try (JsonParser p = JsonParsing.parser(data, offset, length)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw JsonParsing.truncation(length);
            }
            scan.kind = JsonParsing.got(t);
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
                throw new JsonProblem(TRAILING, true, at);
            }
        } catch (IOException e) {
            throw JsonParsing.malformed(e, data, offset, length);
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
     * says. The message is then read from {@link #tree} ({@link #parser(JsonNode)}).
     */
    public static JsonScan read(byte[] data, int offset, int length, String tagKey, String[] keys) throws JsonProblem {
        JsonNode root;
        try (JsonParser p = JsonParsing.parser(data, offset, length)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw JsonParsing.truncation(length);
            }
            root = node(p);
            if (p.nextToken() != null) {
                long at = p.currentTokenLocation().getByteOffset();
                throw new JsonProblem(TRAILING, true, at);
            }
        } catch (IOException e) {
            throw JsonParsing.malformed(e, data, offset, length);
        }
        return ofTree(root, kind(root), tagKey, keys, JsonScan::scalar);
    }

    /**
     * The top level of a parsed value ({@code root}, of kind {@code kind}): of an object, the tag and the values at
     * {@code keys}, each as {@code scalar} shows it (a JSON text's and a MessagePack value's scalars differ).
     */
    static JsonScan ofTree(
            JsonNode root, String kind, String tagKey, String[] keys, Function<JsonNode, Object> scalar) {
        JsonScan scan = new JsonScan(keys.length);
        scan.tree = root;
        scan.kind = kind;
        if (root.isObject()) {
            JsonNode tag = root.get(tagKey);
            if (tag != null) {
                scan.hasTag = true;
                scan.tag = scalar.apply(tag);
            }
            for (int i = 0; i < keys.length; i++) {
                JsonNode value = root.get(keys[i]);
                if (value != null) {
                    scan.present[i] = true;
                    scan.values[i] = scalar.apply(value);
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

    static String kind(JsonNode node) {
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

    static Object scalar(JsonNode node) {
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
}
