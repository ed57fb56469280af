// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/JsonMessages.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * The JSON family's rules above single values, for a protocol's generated {@code Codec}: directions by name, which
 * problem a message that no direction decodes reports, and the problems as the codec's exceptions and as the Spark
 * functions' rows (worded as the Python codec and its Spark functions word them).
 */
public final class JsonMessages {
    private JsonMessages() {
    }

    /** The index of a framing in {@code serializers} (its first, JSON, for null). */
    public static int serializer(String[] serializers, String name) {
        if (name == null) {
            return 0;
        }
        for (int i = 0; i < serializers.length; i++) {
            if (serializers[i].equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(
                Messages.unknownSerializer(PythonText.repr(name), PythonText.tuple(List.of(serializers))));
    }

    /** The index of a direction in {@code directions}; -1 for null (every direction, in order). */
    public static int direction(String[] directions, String name) {
        if (name == null) {
            return -1;
        }
        for (int i = 0; i < directions.length; i++) {
            if (directions[i].equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(
                Messages.unknownDirection(PythonText.repr(name), PythonText.tuple(List.of(directions))));
    }

    /** {@code index}, when it is a direction's in {@code directions} or -1 (every direction): else the refusal of an
     * unknown direction, naming the index. */
    public static int direction(String[] directions, int index) {
        if (index < -1 || index >= directions.length) {
            throw new IllegalArgumentException(
                    Messages.unknownDirection(index, PythonText.tuple(List.of(directions))));
        }
        return index;
    }

    /** Why a scanned value cannot be a tagged message of any direction (not an object, no tag, a tag that is not a
     * string), or null when it has a string tag. */
    public static JsonProblem tagProblem(JsonScan scan, String tagKey) {
        if (!"object".equals(scan.kind)) {
            return new JsonProblem(Messages.expectedType("object", scan.kind));
        }
        if (!scan.hasTag) {
            return JsonProblem.missing(tagKey);
        }
        if (!(scan.tag instanceof String)) {
            return new JsonProblem(Messages.expectedTagType("str")).at(tagKey);
        }
        return null;
    }

    /** A tag that no message of {@code direction} ({@code null}: of any) has, at the tag (as jsonpaths'
     * unknown_tag_problem says it, on every path). */
    public static JsonProblem unknownTag(String tagKey, Object tag, String direction) {
        String where = direction != null ? " in direction '" + direction + "'" : "";
        return new JsonProblem(Messages.noMessageMatches(tagKey + ": " + JsonScan.pyRepr(tag)) + where).at(tagKey);
    }

    /** The failure to report of those of the directions tried: that of {@code owner} (the one direction that has
     * the message's tag, or -1), else the first. */
    public static JsonProblem telling(JsonProblem[] failures, int owner) {
        if (owner >= 0 && failures[owner] != null) {
            return failures[owner];
        }
        for (JsonProblem failure : failures) {
            if (failure != null) {
                return failure;
            }
        }
        throw new IllegalStateException("no direction was tried");
    }

    /** The problem of a value that no message of the direction ({@code null}: of any) matches. */
    public static JsonProblem noMessage(JsonScan scan, String tagKey, String direction) {
        if (scan.hasTag) {
            return unknownTag(tagKey, scan.tag, direction);
        }
        String where = direction != null ? " in direction '" + direction + "'" : "";
        if (scan.tree != null && scan.tree.isObject()) {
            if (scan.tree.isEmpty()) {
                return new JsonProblem(Messages.NO_MESSAGE_EMPTY_OBJECT + where);
            }
            return new JsonProblem(Messages.noMessageHasKeys(shownKeys(scan.tree)) + where);
        }
        return new JsonProblem(Messages.noMessageMatches(scan.describe(tagKey)) + where);
    }

    /** An object's keys in a problem, as Python reprs in their order: the first {@link Messages#SHOWN_KEYS}, and
     * how many more (as jsonpaths.shown_keys shows them). */
    private static String shownKeys(JsonNode object) {
        StringBuilder shown = new StringBuilder();
        Iterator<String> names = object.fieldNames();
        for (int i = 0; i < Messages.SHOWN_KEYS && names.hasNext(); i++) {
            shown.append(i > 0 ? ", " : "").append(PythonText.repr(names.next()));
        }
        int more = object.size() - Messages.SHOWN_KEYS;
        return more > 0 ? Messages.shownKeys(shown, more) : shown.toString();
    }

    /** A decoding problem of the protocol; {@code line} (or -1) is named. */
    public static DecodeException failure(String protocol, JsonProblem problem, long line) {
        return new DecodeException(protocol, problem.reason(), line, problem.offset(), problem.field());
    }

    /**
     * A decoding problem of the JSON text {@code data[offset, offset + length)}, naming where in it the refused value
     * is when the problem says no offset ({@link JsonPlaces#valueAt}; {@code last}: a repeated key's last value is
     * the one read, else the one the parser was reading when the problem was raised).
     */
    public static DecodeException failure(String protocol, JsonProblem problem, long line, byte[] data, int offset,
            int length, boolean last) {
        long at = problem.offset();
        if (at < 0) {
            at = JsonPlaces.valueAt(data, offset, length, problem.field(), problem.absent(), last, problem.reading());
        }
        return new DecodeException(protocol, problem.reason(), line, at, problem.field());
    }

    /** An end line with no JSON before it: refused where the JSON was needed, after the {@code length} bytes
     * before the end line. */
    public static JsonProblem emptyMessage(int length) {
        return new JsonProblem(Messages.EMPTY_MESSAGE, false, length);
    }

    /** An encoding problem of message {@code name}, naming the field in it. */
    public static EncodeException encodeFailure(String protocol, String name, JsonProblem problem) {
        return new EncodeException(protocol, problem.reason(), path(name, problem));
    }

    private static String path(String name, JsonProblem problem) {
        String field = problem.field();
        return field == null ? name : name + "." + field;
    }

    /** An exception's message without the protocol's prefix (what the Spark functions' error column holds). */
    public static String reason(String protocol, Exception e) {
        String text = e.getMessage();
        return text.startsWith(protocol + ": ") ? text.substring(protocol.length() + 2) : text;
    }

    /** DECODED's row of a malformed message ({@code columns} wide): the error alone. */
    public static Row errorRow(int columns, String error) {
        Object[] values = new Object[columns];
        values[columns - 1] = error;
        return RowFactory.create(values);
    }

    /** ENCODED's row of a problem of message {@code name}. */
    public static Row encodeProblemRow(String name, JsonProblem problem) {
        return RowFactory.create(null, path(name, problem) + ": " + problem.reason());
    }

    /** ENCODED's row of a message whose column is null. */
    public static Row nullMessageRow(String column, String name) {
        return RowFactory.create(null, "`" + column + "`: null for message " + name);
    }
}
