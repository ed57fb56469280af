package streamcodecs.runtime;

import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where in a JSON text a refused value is, as the Python runtime finds it (jsonplaces.value_at): the value at a
 * problem's field path, or for a missing field the object that lacks it, or without a field the top-level value.
 * Only on the error path, and only on a text that is JSON (a syntax error is reported before any such problem).
 */
public final class JsonPlaces {
    private JsonPlaces() {
    }

    private static final Pattern PATH = Pattern.compile("\\.?(?<key>[^.\\[]+)|\\[(?<index>\\d+|\\.\\.\\.)\\]");

    /**
     * The offset, from {@code offset}, of the value at {@code field} in {@code data[offset, offset + length)}
     * ({@code missing}: of the object that lacks the path's last key). Of a repeated key, the value read: the last
     * with {@code last} (as the general path's tree holds it), else the one the typed path refused, which reads each
     * in turn: the last that starts at or before {@code reading} (where its parser was then, from {@code offset};
     * -1: not known, the first), as jsonplaces.value_at finds it. A path the text does not hold all of ends where it
     * stops: an entry of a map ({@code [...]}) is not named, so the map; a key of an array is the message whose one
     * field the array is, an index of a scalar the lone scalar read as a list of one, so that value.
     */
    public static int valueAt(byte[] data, int offset, int length, String field, boolean missing, boolean last,
            long reading) {
        int end = offset + length;
        long before = reading < 0 ? -1 : offset + reading;
        int pos = space(data, offset, end);
        List<String[]> steps = new ArrayList<>();
        Matcher m = PATH.matcher(field == null ? "" : field);
        while (m.find()) {
            steps.add(new String[] {m.group("key"), m.group("index")});
        }
        if (missing && !steps.isEmpty()) {
            steps.remove(steps.size() - 1);
        }
        for (String[] step : steps) {
            if (pos >= end) {
                break;
            }
            byte kind = data[pos];
            String key = step[0];
            String index = step[1];
            if ("...".equals(index)) {
                break;
            }
            if (key != null && kind != '{') { // not an object: an array stands for its message's one field
                if (kind == '[') {
                    continue;
                }
                break;
            }
            if (index != null && kind != '[') { // not an array: a lone scalar stands for its list of one
                if (kind == '{') {
                    break;
                }
                continue;
            }
            int found = inside(data, pos, end, key, index == null ? 0 : Integer.parseInt(index), last, before);
            if (found < 0) {
                break;
            }
            pos = found;
        }
        return pos - offset;
    }

    /**
     * The offset, from {@code offset}, of the value of the top-level object's member {@code name} in
     * {@code data[offset, offset + length)} (of a repeated name, the last, as the event's members hold it), or of the
     * top-level value when it has none (or is no object, or without a name), as jsonplaces.member_at finds it.
     */
    public static int memberAt(byte[] data, int offset, int length, String name) {
        int end = offset + length;
        int pos = space(data, offset, end);
        if (name == null || pos >= end || data[pos] != '{') {
            return pos - offset;
        }
        int found = inside(data, pos, end, name, 0, true, -1);
        return (found < 0 ? pos : found) - offset;
    }

    /**
     * Where a JSON text nested deeper than {@link Messages#MAX_DEPTH} is refused, from {@code offset}: at the bracket
     * that opens one level too many (outside its strings), as jsontext.too_deep_at finds it.
     */
    public static int tooDeepAt(byte[] data, int offset, int length) {
        int end = offset + length;
        int depth = 0;
        for (int i = offset; i < end; i++) {
            byte b = data[i];
            if (b == '"') {
                i = stringEnd(data, i, end) - 1;
            } else if (b == '[' || b == '{') {
                if (++depth > Messages.MAX_DEPTH) {
                    return i - offset;
                }
            } else if (b == ']' || b == '}') {
                depth--;
            }
        }
        return 0; // not reached: only a text nested too deeply is asked about
    }

    /** The start of member {@code key} of the object at {@code pos} (of a repeated key: its last with {@code last},
     * else the last that starts at or before {@code before}, or without that the first), or of item {@code index} of
     * the array there; -1 when it has none. */
    private static int inside(byte[] data, int pos, int end, String key, int index, boolean last, long before) {
        byte close = (byte) (key != null ? '}' : ']');
        pos = space(data, pos + 1, end);
        int found = -1;
        int count = 0;
        while (pos < end && data[pos] != close) {
            if (key != null) {
                int nameEnd = stringEnd(data, pos, end);
                String name = name(data, pos, nameEnd);
                pos = space(data, space(data, nameEnd, end) + 1, end); // past the colon
                if (key.equals(name)) {
                    if (!last && (found >= 0 && pos > before || before < 0)) {
                        return found >= 0 ? found : pos;
                    }
                    found = pos;
                }
            } else if (count == index) {
                return pos;
            }
            count++;
            pos = space(data, valueEnd(data, pos, end), end);
            if (pos < end && data[pos] == ',') {
                pos = space(data, pos + 1, end);
            }
        }
        return found;
    }

    /** A member name as its string holds it (its escapes read). */
    private static String name(byte[] data, int start, int end) {
        for (int i = start + 1; i < end - 1; i++) {
            if (data[i] == '\\') {
                try (JsonParser p = JsonParsing.parser(data, start, end - start)) {
                    p.nextToken();
                    return p.getText();
                } catch (IOException e) {
                    return null;
                }
            }
        }
        return new String(data, start + 1, end - start - 2, StandardCharsets.UTF_8);
    }

    /** The end of the string that starts (with its quote) at {@code pos}. */
    private static int stringEnd(byte[] data, int pos, int end) {
        for (int i = pos + 1; i < end; i++) {
            if (data[i] == '\\') {
                i++;
            } else if (data[i] == '"') {
                return i + 1;
            }
        }
        return end;
    }

    /** The end of the JSON value that starts at {@code pos}. */
    private static int valueEnd(byte[] data, int pos, int end) {
        byte first = data[pos];
        if (first == '"') {
            return stringEnd(data, pos, end);
        }
        if (first != '[' && first != '{') {
            int i = pos;
            while (i < end && data[i] != ',' && data[i] != ']' && data[i] != '}' && !space(data[i])) {
                i++;
            }
            return i;
        }
        int depth = 0;
        for (int i = pos; i < end; i++) {
            byte b = data[i];
            if (b == '"') {
                i = stringEnd(data, i, end) - 1;
            } else if (b == '[' || b == '{') {
                depth++;
            } else if (b == ']' || b == '}') {
                depth--;
                if (depth == 0) {
                    return i + 1;
                }
            }
        }
        return end;
    }

    private static boolean space(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    private static int space(byte[] data, int i, int end) {
        while (i < end && space(data[i])) {
            i++;
        }
        return i;
    }
}
