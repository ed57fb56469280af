package streamcodecs.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.POJONode;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Map;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantBuilder;
import org.apache.spark.unsafe.types.VariantVal;

/**
 * MessagePack values of the JSON family's MessagePack variant beyond one parse ({@link PackedRead}): how deep a value
 * nests and where a field's value is (followed head by head, as the Python codec's {@code jsonpacked} and
 * {@code jsonpaths} follow them), Python's equality of map keys, and an {@code any} value as a VARIANT.
 */
public final class PackedValues {
    private PackedValues() {
    }

    /** For each first byte: bytes before any length, bytes of the length, bytes after it besides the counted ones,
     * items it opens (-2: an array whose length counts its items, -3: a map, twice), -9 never used (0xc1). */
    private static final int[][] HEADS = new int[256][];

    static {
        for (int b = 0; b < 256; b++) {
            HEADS[b] = new int[] {1, 0, 0, 0};
        }
        for (int b = 0x80; b < 0x90; b++) {
            HEADS[b] = new int[] {1, 0, 0, 2 * (b & 0x0F)};
        }
        for (int b = 0x90; b < 0xA0; b++) {
            HEADS[b] = new int[] {1, 0, 0, b & 0x0F};
        }
        for (int b = 0xA0; b < 0xC0; b++) {
            HEADS[b] = new int[] {1 + (b & 0x1F), 0, 0, 0};
        }
        HEADS[0xC1] = new int[] {0, 0, 0, -9};
        int[][] counted = {{0xC4, 1}, {0xC5, 2}, {0xC6, 4}, {0xD9, 1}, {0xDA, 2}, {0xDB, 4}};
        for (int[] c : counted) {
            HEADS[c[0]] = new int[] {1, c[1], 0, 0};
        }
        int[][] exts = {{0xC7, 1}, {0xC8, 2}, {0xC9, 4}};
        for (int[] c : exts) {
            HEADS[c[0]] = new int[] {1, c[1], 1, 0};
        }
        int[][] fixed = {{0xCA, 5}, {0xCB, 9}, {0xCC, 2}, {0xCD, 3}, {0xCE, 5}, {0xCF, 9}, {0xD0, 2}, {0xD1, 3},
            {0xD2, 5}, {0xD3, 9}, {0xD4, 3}, {0xD5, 4}, {0xD6, 6}, {0xD7, 10}, {0xD8, 18}};
        for (int[] c : fixed) {
            HEADS[c[0]] = new int[] {c[1], 0, 0, 0};
        }
        HEADS[0xDC] = new int[] {1, 2, 0, -2};
        HEADS[0xDD] = new int[] {1, 4, 0, -2};
        HEADS[0xDE] = new int[] {1, 2, 0, -3};
        HEADS[0xDF] = new int[] {1, 4, 0, -3};
    }

    private static final java.util.regex.Pattern PATH =
            java.util.regex.Pattern.compile("\\.?(?<key>[^.\\[]+)|\\[(?<index>\\d+|\\.\\.\\.)\\]");

    private static boolean opener(int b) {
        return b >= 0x80 && b <= 0x9F || b >= 0xDC && b <= 0xDF;
    }

    private static long big(byte[] data, int at, int width) {
        long v = 0;
        for (int i = 0; i < width; i++) {
            v = (v << 8) | (data[at + i] & 0xFF);
        }
        return v;
    }

    /**
     * Where the value at {@code data[at]} ends (before {@code end}) and how deep its maps and arrays nest:
     * {@code {end, depth}}; the end is {@code end + 1} when it is cut short, {@code -1 - offset} at a byte that is
     * not MessagePack. Followed without recursion ({@code jsonpacked.packed_end}).
     */
    static long[] end(byte[] data, int at, int end) {
        ArrayList<Long> open = new ArrayList<>();
        int deepest = 0;
        while (at < end) {
            int head = data[at] & 0xFF;
            int[] h = HEADS[head];
            int fixed = h[0];
            int width = h[1];
            long items = h[3];
            if (items == -9) {
                return new long[] {-1 - at, deepest};
            }
            long step;
            if (width > 0) {
                if (end - at < fixed + width) {
                    break;
                }
                long length = big(data, at + fixed, width);
                if (items < 0) {
                    items = (items == -2 ? 1 : 2) * length;
                    step = fixed + width;
                } else {
                    step = fixed + width + h[2] + length;
                }
            } else {
                step = fixed;
            }
            if (items > 0) {
                at += (int) step;
                open.add(items);
                deepest = Math.max(deepest, open.size());
                continue;
            }
            if (end - at < step) {
                break;
            }
            at += (int) step;
            if (opener(head)) {
                deepest = Math.max(deepest, open.size() + 1);
            }
            while (!open.isEmpty()) {
                int last = open.size() - 1;
                long left = open.get(last) - 1;
                if (left > 0) {
                    open.set(last, left);
                    break;
                }
                open.remove(last);
            }
            if (open.isEmpty()) {
                return new long[] {at, deepest};
            }
        }
        return new long[] {end + 1, deepest};
    }

    /** How deep the values of {@code data[from, to)} nest (the deepest of them; up to a byte that is not one). */
    static int depth(byte[] data, int from, int to) {
        int at = from;
        int deepest = 0;
        while (at < to) {
            long[] e = end(data, at, to);
            deepest = Math.max(deepest, (int) e[1]);
            if (e[0] < 0 || e[0] > to) {
                break;
            }
            at = (int) e[0];
        }
        return deepest;
    }

    /** Of the value at {@code pos}: map (1), array (0) or neither (-1), its entries, where the first starts. */
    private static long[] items(byte[] data, int pos) {
        int head = data[pos] & 0xFF;
        if (head >= 0x80 && head <= 0x9F) {
            return new long[] {head < 0x90 ? 1 : 0, head & 0x0F, pos + 1};
        }
        if (head == 0xDC || head == 0xDE) {
            return new long[] {head == 0xDE ? 1 : 0, big(data, pos + 1, 2), pos + 3};
        }
        if (head == 0xDD || head == 0xDF) {
            return new long[] {head == 0xDF ? 1 : 0, big(data, pos + 1, 4), pos + 5};
        }
        return new long[] {-1, 0, pos};
    }

    /** The string a whole value is, or null (a key that is not a string). */
    private static String text(byte[] data, int at, int end) {
        try {
            JsonNode node = PackedRead.read(data, at, end - at);
            return node.isTextual() ? node.textValue() : null;
        } catch (JsonProblem e) {
            return null;
        }
    }

    /** {@link PackedRead#valueAt}, in absolute offsets ({@code jsonpaths.packed_value_at}). */
    static int valueAt(byte[] data, int from, int to, String field, boolean missing, boolean last) {
        int pos = from;
        ArrayList<String[]> steps = new ArrayList<>();
        java.util.regex.Matcher m = PATH.matcher(field == null ? "" : field);
        while (m.find()) {
            steps.add(new String[] {m.group("key"), m.group("index")});
        }
        if (missing && !steps.isEmpty()) {
            steps.remove(steps.size() - 1);
        }
        for (String[] step : steps) {
            String key = step[0];
            String index = step[1];
            if ("...".equals(index)) {
                break;
            }
            long[] it = items(data, pos);
            int kind = (int) it[0];
            long count = it[1];
            int at = (int) it[2];
            if (key != null && kind != 1) {
                if (kind == 0) {
                    continue;
                }
                break;
            }
            if (index != null && kind != 0) {
                if (kind == -1) {
                    continue;
                }
                break;
            }
            int found = -1;
            for (long item = 0; item < count; item++) {
                if (key != null) {
                    int value = (int) end(data, at, to)[0];
                    if (value < 0 || value > to) {
                        break;
                    }
                    if (key.equals(text(data, at, value))) {
                        found = value;
                        if (!last) {
                            break;
                        }
                    }
                    at = value;
                } else if (item == Long.parseLong(index)) {
                    found = at;
                    break;
                }
                int next = (int) end(data, at, to)[0];
                if (next < 0 || next > to) {
                    break;
                }
                at = next;
            }
            if (found < 0) {
                break;
            }
            pos = found;
        }
        return pos;
    }

    // ------------------------------------------------------------------------------------------- Python's values

    /** Python's {@code ==} of two map keys (1, 1.0 and True are one key; a list key is a tuple). */
    static boolean pythonEquals(JsonNode a, JsonNode b) {
        if (a.isNumber() || a.isBoolean()) {
            if (!(b.isNumber() || b.isBoolean())) {
                return false;
            }
            return number(a).compareTo(number(b)) == 0 && !nan(a) && !nan(b);
        }
        if (a.isArray()) {
            if (!b.isArray() || a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!pythonEquals(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a.isPojo() && b.isPojo()) {
            return ((POJONode) a).getPojo().equals(((POJONode) b).getPojo());
        }
        return a.equals(b);
    }

    private static boolean nan(JsonNode n) {
        return n.isNumber() && !n.isIntegralNumber() && Double.isNaN(n.doubleValue());
    }

    private static BigDecimal number(JsonNode n) {
        if (n.isBoolean()) {
            return n.booleanValue() ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        if (n.isIntegralNumber()) {
            return new BigDecimal(n.bigIntegerValue());
        }
        double d = n.doubleValue();
        return Double.isNaN(d) || Double.isInfinite(d) ? BigDecimal.valueOf(Long.MAX_VALUE).pow(40) : new BigDecimal(d);
    }

    // ------------------------------------------------------------------------------------------- any, as a VARIANT

    /**
     * An {@code any} value read from a MessagePack tree as a VARIANT (null for nil), holding the Python codec's
     * value: an integer as a long (a decimal beyond it), a float as a double (NaN and infinities too: MessagePack
     * carries them), bytes as binary, the timestamp as a timestamp (a map key that is not
     * a string and an extension other than the timestamp, which a VARIANT has no form for, were refused by
     * {@link PackedRead#read}).
     */
    static VariantVal any(JsonNode node) throws JsonProblem {
        if (node.isNull()) {
            return null;
        }
        VariantBuilder builder = new VariantBuilder(false);
        try {
            append(builder, node);
        } catch (IOException e) {
            throw new IllegalStateException("a VARIANT of a number", e);
        }
        Variant v = builder.result();
        return new VariantVal(v.getValue(), v.getMetadata());
    }

    private static void append(VariantBuilder b, JsonNode node) throws JsonProblem, IOException {
        switch (node.getNodeType()) {
            case NULL:
                b.appendNull();
                return;
            case BOOLEAN:
                b.appendBoolean(node.booleanValue());
                return;
            case STRING:
                b.appendString(node.textValue());
                return;
            case BINARY:
                b.appendBinary(node.binaryValue());
                return;
            case NUMBER:
                if (node.isIntegralNumber()) {
                    if (node.canConvertToLong()) {
                        b.appendLong(node.longValue());
                    } else {
                        b.appendVariant(VariantBuilder.parseJson(node.bigIntegerValue().toString(), false));
                    }
                } else {
                    b.appendDouble(node.doubleValue()); // a float stays one (an integral decimal would not)
                }
                return;
            case ARRAY: {
                int start = b.getWritePos();
                ArrayList<Integer> offsets = new ArrayList<>(node.size());
                int index = 0;
                try {
                    for (JsonNode item : node) {
                        offsets.add(b.getWritePos() - start);
                        append(b, item);
                        index++;
                    }
                } catch (JsonProblem e) {
                    throw e.at(index);
                }
                b.finishWritingArray(start, offsets);
                return;
            }
            case OBJECT: {
                int start = b.getWritePos();
                ArrayList<VariantBuilder.FieldEntry> fields = new ArrayList<>(node.size());
                try {
                    for (Map.Entry<String, JsonNode> e : node.properties()) {
                        fields.add(new VariantBuilder.FieldEntry(e.getKey(), b.addKey(e.getKey()),
                                b.getWritePos() - start));
                        append(b, e.getValue());
                    }
                } catch (JsonProblem e) {
                    throw e.inMap();
                }
                b.finishWritingObject(start, fields);
                return;
            }
            default:
                break;
        }
        Object pojo = ((POJONode) node).getPojo();
        if (!(pojo instanceof OffsetDateTime t)) {
            throw new IllegalStateException("a value PackedRead refuses: " + pojo); // (extensions, odd maps)
        }
        b.appendTimestamp(Math.addExact(Math.multiplyExact(t.toEpochSecond(), 1_000_000L), t.getNano() / 1000));
    }
}
