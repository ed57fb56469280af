// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/CompactJson.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Compact JSON as the Python codecs write it (msgspec: no spaces, members in the order written, non-ASCII as UTF-8,
 * only the quote, the backslash and control characters escaped), into a growing byte buffer: the one JSON writer of
 * the JSON family's codecs (the messages) and the kafka family's (the JSON event format, and the compact text of
 * an {@code any} value). Values and keys are separated by commas as they are written.
 */
public final class CompactJson {
    private static final byte[] HEX_LOWER = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HEX_UPPER = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private byte[] buf;
    private int size;
    private final byte[] hex;
    private boolean first = true;
    private java.util.List<org.apache.spark.unsafe.types.VariantVal> held;

    /** {@code upperHex}: write the escapes of control characters with upper-case hex digits. */
    public CompactJson(boolean upperHex) {
        this(upperHex, 256);
    }

    /** {@code capacity}: the bytes the buffer starts with (it grows as needed). */
    public CompactJson(boolean upperHex, int capacity) {
        hex = upperHex ? HEX_UPPER : HEX_LOWER;
        buf = new byte[Math.max(capacity, 16)];
    }

    /**
     * A writer for a message's MessagePack framing ({@link PackedWrite}): each {@code any} value is held aside and
     * written as {@code @index}, which no JSON holds outside a string.
     */
    public static CompactJson holding() {
        CompactJson w = new CompactJson(false);
        w.held = new java.util.ArrayList<>();
        return w;
    }

    /** The values held aside ({@link #holding}), or null. */
    java.util.List<org.apache.spark.unsafe.types.VariantVal> held() {
        return held;
    }

    /** Holds {@code v} aside, where it belongs ({@link #holding}); false when this writer holds none. */
    boolean hold(org.apache.spark.unsafe.types.VariantVal v) {
        if (held == null) {
            return false;
        }
        separate();
        raw("@" + held.size());
        held.add(v);
        return true;
    }

    private void room(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }

    private void put(int b) {
        room(1);
        buf[size++] = (byte) b;
    }

    /** Bytes as they are (ASCII punctuation, delimiters). */
    public CompactJson raw(String ascii) {
        room(ascii.length());
        for (int i = 0; i < ascii.length(); i++) {
            buf[size++] = (byte) ascii.charAt(i);
        }
        return this;
    }

    private void separate() {
        if (!first) {
            put(',');
        }
        first = false;
    }

    public CompactJson beginObject() {
        separate();
        put('{');
        first = true;
        return this;
    }

    public CompactJson endObject() {
        put('}');
        first = false;
        return this;
    }

    public CompactJson beginArray() {
        separate();
        put('[');
        first = true;
        return this;
    }

    public CompactJson endArray() {
        put(']');
        first = false;
        return this;
    }

    /** A key; the value written next belongs to it. */
    public CompactJson key(String key) throws JsonProblem {
        separate();
        text(key);
        put(':');
        first = true;
        return this;
    }

    public CompactJson string(String value) throws JsonProblem {
        separate();
        text(value);
        return this;
    }

    public CompactJson number(String digits) {
        separate();
        raw(digits);
        return this;
    }

    public CompactJson literal(String word) {
        separate();
        raw(word);
        return this;
    }

    /** JSON text written elsewhere (UTF-8 encoded here). */
    public CompactJson json(String text) {
        return json(text.getBytes(StandardCharsets.UTF_8));
    }

    /** A JSON value's UTF-8 bytes, written elsewhere (compact already). */
    public CompactJson json(byte[] utf8) {
        separate();
        room(utf8.length);
        System.arraycopy(utf8, 0, buf, size, utf8.length);
        size += utf8.length;
        return this;
    }

    private void text(String s) throws JsonProblem {
        int n = s.length();
        room(n + 2);
        buf[size++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                if (size == buf.length) {
                    room(n - i + 1);
                }
                buf[size++] = (byte) c;
            } else {
                escape(s, i, c);
                if (Character.isHighSurrogate(c)) {
                    i++;
                }
            }
        }
        put('"');
    }

    private void escape(String s, int i, char c) throws JsonProblem {
        room(12);
        switch (c) {
            case '"':
                buf[size++] = '\\';
                buf[size++] = '"';
                return;
            case '\\':
                buf[size++] = '\\';
                buf[size++] = '\\';
                return;
            case '\n':
                buf[size++] = '\\';
                buf[size++] = 'n';
                return;
            case '\r':
                buf[size++] = '\\';
                buf[size++] = 'r';
                return;
            case '\t':
                buf[size++] = '\\';
                buf[size++] = 't';
                return;
            case '\b':
                buf[size++] = '\\';
                buf[size++] = 'b';
                return;
            case '\f':
                buf[size++] = '\\';
                buf[size++] = 'f';
                return;
            default:
                break;
        }
        if (c < 0x20) {
            buf[size++] = '\\';
            buf[size++] = 'u';
            buf[size++] = '0';
            buf[size++] = '0';
            buf[size++] = hex[c >> 4];
            buf[size++] = hex[c & 0xF];
        } else if (c < 0x800) {
            buf[size++] = (byte) (0xC0 | (c >> 6));
            buf[size++] = (byte) (0x80 | (c & 0x3F));
        } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                && Character.isLowSurrogate(s.charAt(i + 1))) {
            int code = Character.toCodePoint(c, s.charAt(i + 1));
            buf[size++] = (byte) (0xF0 | (code >> 18));
            buf[size++] = (byte) (0x80 | ((code >> 12) & 0x3F));
            buf[size++] = (byte) (0x80 | ((code >> 6) & 0x3F));
            buf[size++] = (byte) (0x80 | (code & 0x3F));
        } else if (Character.isSurrogate(c)) {
            throw new JsonProblem("str is not valid UTF-8 (surrogates not allowed)");
        } else {
            buf[size++] = (byte) (0xE0 | (c >> 12));
            buf[size++] = (byte) (0x80 | ((c >> 6) & 0x3F));
            buf[size++] = (byte) (0x80 | (c & 0x3F));
        }
    }

    public byte[] toBytes() {
        return Arrays.copyOf(buf, size);
    }
}
