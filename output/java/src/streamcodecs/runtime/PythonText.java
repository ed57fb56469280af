// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/PythonText.java by ./generator.py; edit that file, not this copy.
package streamcodecs.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Text as the Python codecs see it, for every family's Java codec, so that reasons read the same on both paths:
 * Python's strict UTF-8 decoder (which bytes it refuses, where, and why) and Python's {@code repr} of a string.
 */
public final class PythonText {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private PythonText() {
    }

    /** Where Python's strict UTF-8 decoder stops, and its reason ({@code "invalid start byte"}, ...). */
    public record Utf8Error(int at, String reason) {
    }

    /**
     * The first error Python's {@code bytes.decode("utf-8")} reports in {@code data[from, to)}, or null when it is
     * valid UTF-8: overlong forms, surrogates and code points past U+10FFFF are refused at their first byte, as
     * "invalid continuation byte" where the first continuation byte is out of range, as CPython does.
     */
    public static Utf8Error utf8Error(byte[] data, int from, int to) {
        int i = from;
        while (i < to) {
            if (i + 8 <= to && ((long) LONGS.get(data, i) & 0x8080808080808080L) == 0) {
                i += 8; // eight ASCII bytes at once
                continue;
            }
            int c = data[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            int more;
            int low = 0x80;
            int high = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                more = 1;
            } else if (c >= 0xE0 && c <= 0xEF) {
                more = 2;
                low = c == 0xE0 ? 0xA0 : 0x80;
                high = c == 0xED ? 0x9F : 0xBF;
            } else if (c >= 0xF0 && c <= 0xF4) {
                more = 3;
                low = c == 0xF0 ? 0x90 : 0x80;
                high = c == 0xF4 ? 0x8F : 0xBF;
            } else {
                return new Utf8Error(i, "invalid start byte");
            }
            for (int k = 1; k <= more; k++) {
                if (i + k >= to) {
                    return new Utf8Error(i, "unexpected end of data");
                }
                int next = data[i + k] & 0xFF;
                if (next < low || next > high) {
                    return new Utf8Error(i, "invalid continuation byte");
                }
                low = 0x80;
                high = 0xBF;
            }
            i += more + 1;
        }
        return null;
    }

    /**
     * Python's {@code repr} of a string: single quotes unless it holds one and no double quote; a character that
     * Python does not print ({@code str.isprintable}: control, format, surrogate, private-use, unassigned, and
     * separators other than the space) as {@code \xhh}, {@code \\uhhhh} or {@code \Uhhhhhhhh}.
     */
    public static String repr(String text) {
        char quote = text.indexOf('\'') >= 0 && text.indexOf('"') < 0 ? '"' : '\'';
        StringBuilder out = new StringBuilder(text.length() + 2).append(quote);
        for (int i = 0; i < text.length();) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            if (c == quote || c == '\\') {
                out.append('\\').append((char) c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (printable(c)) {
                out.appendCodePoint(c);
            } else if (c <= 0xFF) {
                out.append(String.format("\\x%02x", c));
            } else if (c <= 0xFFFF) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.append(String.format("\\U%08x", c));
            }
        }
        return out.append(quote).toString();
    }

    private static boolean printable(int c) {
        if (c == ' ') {
            return true;
        }
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE,
                    Character.UNASSIGNED, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.SPACE_SEPARATOR -> false;
            default -> true;
        };
    }
}
