package streamcodecs.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Text as the Python codecs see it, for every family's Java codec, so that reasons read the same on both paths:
 * Python's strict UTF-8 decoder (which bytes it refuses, where, and why), Python's {@code repr} of a string, and
 * floats as Python's {@code repr} and msgspec write them (the shortest decimal that reads back as the same double).
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
     * An encode refusal in the definition's words, as the Python codec fills them in ({@code str.format}):
     * {@code {type}} is Python's name of the value's type, {@code {value}} its {@code repr}. The text comes from
     * the generator, which gives the same to the Python codec.
     */
    public static String refusal(String text, String type, String repr) {
        return text.replace("{type}", type).replace("{value}", repr);
    }

    /** Python's {@code repr} of a tuple of strings: {@code ('a', 'b')}, {@code ('a',)}. */
    public static String tuple(List<String> items) {
        StringBuilder out = new StringBuilder("(");
        for (String item : items) {
            out.append(out.length() > 1 ? ", " : "").append(repr(item));
        }
        return out.append(items.size() == 1 ? ",)" : ")").toString();
    }

    /**
     * Python's {@code repr} of a string: single quotes unless it holds one and no double quote; a character that
     * Python does not print ({@code str.isprintable}: control, format, surrogate, private-use, unassigned, and
     * separators other than the space, in the generator's Unicode version: {@link PythonPrintable}) as
     * {@code \xhh}, {@code \\uhhhh} or {@code \Uhhhhhhhh}.
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
            } else if (PythonPrintable.printable(c)) {
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

    /** Python's {@code repr} of a bytes value ({@code b'a\\x00'}). */
    public static String bytesRepr(byte[] value) {
        boolean single = false;
        boolean dbl = false;
        for (byte b : value) {
            single |= b == '\'';
            dbl |= b == '"';
        }
        char quote = single && !dbl ? '"' : '\'';
        StringBuilder out = new StringBuilder(value.length + 3).append('b').append(quote);
        for (byte x : value) {
            int b = x & 0xFF;
            if (b == quote || b == '\\') {
                out.append('\\').append((char) b);
            } else if (b == '\t') {
                out.append("\\t");
            } else if (b == '\n') {
                out.append("\\n");
            } else if (b == '\r') {
                out.append("\\r");
            } else if (b < 0x20 || b >= 0x7F) {
                out.append(String.format("\\x%02x", b));
            } else {
                out.append((char) b);
            }
        }
        return out.append(quote).toString();
    }

    /**
     * A double as Python's {@code repr} writes it: the shortest decimal that reads back as the same double (of
     * those, the nearest), in positional notation when its exponent is in -4..15 ({@code 0.0001},
     * {@code 1234.5}, {@code 1e+16}, {@code 1e-05}, {@code 10000000000.0}), {@code inf}, {@code nan}.
     * (JDK 17's {@code Double.toString} differs: {@code 1.0E10}, and not always shortest.)
     */
    public static String pythonFloat(double value) {
        return formatFloat(value, -4, true);
    }

    /**
     * A finite double as msgspec writes it in JSON: the same digits as Python's {@code repr}, positional when the
     * exponent is in -5..15 ({@code 0.00001}), else {@code 1e16}, {@code 1.5e-6} (no {@code +}, no padding).
     */
    public static String msgspecFloat(double value) {
        return formatFloat(value, -5, false);
    }

    /** The shortest decimal of {@code value}, positional for exponents {@code lowest..15}; {@code python}: the
     * exponent of the scientific form is signed and of two digits at least, as Python writes it. */
    private static String formatFloat(double value, int lowest, boolean python) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == 0) {
            return 1 / value < 0 ? "-0.0" : "0.0";
        }
        BigDecimal shortest = shortest(Math.abs(value));
        String digits = shortest.unscaledValue().toString();
        int exponent = digits.length() - 1 - shortest.scale(); // of the first digit
        StringBuilder out = new StringBuilder(24);
        if (value < 0) {
            out.append('-');
        }
        if (exponent < lowest || exponent >= 16) {
            out.append(digits.charAt(0));
            if (digits.length() > 1) {
                out.append('.').append(digits, 1, digits.length());
            }
            int e = Math.abs(exponent);
            if (python) {
                out.append(exponent < 0 ? "e-" : "e+").append(e < 10 ? "0" : "").append(e);
            } else {
                out.append(exponent < 0 ? "e-" : "e").append(e);
            }
        } else if (exponent < 0) {
            out.append("0.").append("0".repeat(-exponent - 1)).append(digits);
        } else if (digits.length() <= exponent + 1) {
            out.append(digits).append("0".repeat(exponent + 1 - digits.length())).append(".0");
        } else {
            out.append(digits, 0, exponent + 1).append('.').append(digits, exponent + 1, digits.length());
        }
        return out.toString();
    }

    /** The nearest decimal of so many digits, and the ones just below and above it. */
    private static final RoundingMode[] ROUNDINGS = {RoundingMode.HALF_EVEN, RoundingMode.FLOOR, RoundingMode.CEILING};

    /** The shortest decimal that reads back as {@code value} (positive, finite), trailing zeros stripped; of two
     * such decimals of as many digits, the nearer. */
    private static BigDecimal shortest(double value) {
        BigDecimal exact = new BigDecimal(value);
        for (int digits = 1; digits < 17; digits++) {
            BigDecimal best = null;
            for (RoundingMode mode : ROUNDINGS) {
                BigDecimal candidate = exact.round(new MathContext(digits, mode));
                if (candidate.doubleValue() == value && (best == null
                    || candidate.subtract(exact).abs().compareTo(best.subtract(exact).abs()) < 0)) {
                    best = candidate;
                }
            }
            if (best != null) {
                return best.stripTrailingZeros();
            }
        }
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
    }
}
