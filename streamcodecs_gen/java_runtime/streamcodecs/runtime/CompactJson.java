package streamcodecs.runtime;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Compact JSON as the Python codec writes it (msgspec: no spaces, keys in the order written, non-ASCII as UTF-8,
 * control characters as {@code \\u00XX}), into a growing byte buffer.
 */
public final class CompactJson {
    private static final byte[] HEX_LOWER = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HEX_UPPER = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private byte[] buf = new byte[256];
    private int size;
    private final byte[] hex;
    private boolean first = true;

    /** {@code upperHex}: write the escapes of control characters with upper-case hex digits. */
    public CompactJson(boolean upperHex) {
        hex = upperHex ? HEX_UPPER : HEX_LOWER;
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
    public void raw(String ascii) {
        room(ascii.length());
        for (int i = 0; i < ascii.length(); i++) {
            buf[size++] = (byte) ascii.charAt(i);
        }
    }

    private void separate() {
        if (!first) {
            put(',');
        }
        first = false;
    }

    public void beginObject() {
        separate();
        put('{');
        first = true;
    }

    public void endObject() {
        put('}');
        first = false;
    }

    public void beginArray() {
        separate();
        put('[');
        first = true;
    }

    public void endArray() {
        put(']');
        first = false;
    }

    /** A key; the value written next belongs to it. */
    public void key(String key) throws JsonProblem {
        separate();
        text(key);
        put(':');
        first = true;
    }

    public void string(String value) throws JsonProblem {
        separate();
        text(value);
    }

    public void number(String digits) {
        separate();
        raw(digits);
    }

    public void literal(String word) {
        separate();
        raw(word);
    }

    /** JSON text written elsewhere (UTF-8 encoded here). */
    public void json(String text) {
        separate();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        room(bytes.length);
        System.arraycopy(bytes, 0, buf, size, bytes.length);
        size += bytes.length;
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
