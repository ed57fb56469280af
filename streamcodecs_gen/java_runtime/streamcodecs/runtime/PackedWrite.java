package streamcodecs.runtime;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantUtil;
import org.apache.spark.unsafe.types.VariantVal;

/**
 * A message of the JSON family written in its MessagePack framing variant as the Python codec writes it
 * ({@code msgspec.msgpack.encode} of the same fields): the message is written as JSON first, with its checks
 * ({@link CompactJson#holding}: its {@code any} values held aside, as {@code @index}), and that JSON is then written
 * as MessagePack, each held value as the Python value it stands for (bytes as bin, a timestamp as the timestamp
 * extension, NaN as a float). Integers take msgspec's smallest form, floats are float64, strings str, bytes bin.
 */
public final class PackedWrite {
    private static final BigInteger LOWEST = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger HIGHEST = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    /** The refusal of nesting deeper than decoding reads (naming the message). */
    public static final String TOO_DEEP = PackedRead.TOO_DEEP;

    private final byte[] json;
    private final List<VariantVal> held;
    private int pos;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    private int depth;
    private int deepest;

    private PackedWrite(byte[] json, List<VariantVal> held) {
        this.json = json;
        this.held = held;
    }

    /** The MessagePack of what {@code w} (made by {@link CompactJson#holding}) wrote. */
    public static byte[] of(CompactJson w) throws JsonProblem {
        PackedWrite p = new PackedWrite(w.toBytes(), w.held());
        p.value();
        if (p.deepest > Messages.MAX_DEPTH) {
            throw new JsonProblem(TOO_DEEP);
        }
        return p.out.toByteArray();
    }

    // ------------------------------------------------------------------------------------------- MessagePack heads

    private void put(int b) {
        out.write(b);
    }

    private void be(long v, int width) {
        for (int i = width - 1; i >= 0; i--) {
            out.write((int) (v >>> (8 * i)) & 0xFF);
        }
    }

    private void integer(long v) {
        if (v >= 0) {
            if (v < 128) {
                put((int) v);
            } else if (v < 256) {
                put(0xCC);
                be(v, 1);
            } else if (v < 65536) {
                put(0xCD);
                be(v, 2);
            } else if (v < 4294967296L) {
                put(0xCE);
                be(v, 4);
            } else {
                put(0xCF);
                be(v, 8);
            }
        } else if (v >= -32) {
            put((int) v & 0xFF);
        } else if (v >= -128) {
            put(0xD0);
            be(v, 1);
        } else if (v >= -32768) {
            put(0xD1);
            be(v, 2);
        } else if (v >= -2147483648L) {
            put(0xD2);
            be(v, 4);
        } else {
            put(0xD3);
            be(v, 8);
        }
    }

    private void integer(BigInteger v) throws JsonProblem {
        if (v.compareTo(LOWEST) < 0 || v.compareTo(HIGHEST) > 0) {
            throw new JsonProblem(Messages.PACKED_INT_RANGE);
        }
        if (v.bitLength() < 64) {
            integer(v.longValue());
        } else {
            put(0xCF);
            be(v.longValue(), 8);
        }
    }

    private void real(double d) {
        put(0xCB);
        be(Double.doubleToRawLongBits(d), 8);
    }

    private void string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        int n = b.length;
        if (n < 32) {
            put(0xA0 | n);
        } else if (n < 256) {
            put(0xD9);
            be(n, 1);
        } else if (n < 65536) {
            put(0xDA);
            be(n, 2);
        } else {
            put(0xDB);
            be(n, 4);
        }
        out.write(b, 0, n);
    }

    private void binary(byte[] b) {
        int n = b.length;
        if (n < 256) {
            put(0xC4);
            be(n, 1);
        } else if (n < 65536) {
            put(0xC5);
            be(n, 2);
        } else {
            put(0xC6);
            be(n, 4);
        }
        out.write(b, 0, n);
    }

    private void header(int count, int fix, int sixteen) {
        if (count < 16) {
            put(fix | count);
        } else if (count < 65536) {
            put(sixteen);
            be(count, 2);
        } else {
            put(sixteen + 1);
            be(count, 4);
        }
    }

    /** A timestamp extension as msgspec writes it: 32 bits of seconds, else 64 (nanoseconds and 34 bits), else 96. */
    private void timestamp(long seconds, long nanos) {
        if (seconds >= 0 && seconds < (1L << 34)) {
            if (nanos == 0 && seconds < (1L << 32)) {
                put(0xD6);
                put(0xFF);
                be(seconds, 4);
            } else {
                put(0xD7);
                put(0xFF);
                be((nanos << 34) | seconds, 8);
            }
        } else {
            put(0xC7);
            put(12);
            put(0xFF);
            be(nanos, 4);
            be(seconds, 8);
        }
    }

    private void open() {
        depth++;
        deepest = Math.max(deepest, depth);
    }

    // ------------------------------------------------------------------------------------------- the JSON written

    /** The JSON value at {@code pos} (as CompactJson writes it: no spaces), as MessagePack. */
    private void value() throws JsonProblem {
        byte c = json[pos];
        switch (c) {
            case '{': {
                pos++;
                open();
                List<byte[]> entries = new ArrayList<>();
                int count = 0;
                String key = null;
                try {
                    while (json[pos] != '}') {
                        if (json[pos] == ',') {
                            pos++;
                        }
                        key = text();
                        pos++; // ':'
                        int before = out.size();
                        string(key);
                        value();
                        count++;
                        entries.add(cut(before));
                    }
                } catch (JsonProblem e) {
                    throw e.at(key);
                }
                pos++;
                depth--;
                header(count, 0x80, 0xDE);
                for (byte[] entry : entries) {
                    out.write(entry, 0, entry.length);
                }
                return;
            }
            case '[': {
                pos++;
                open();
                List<byte[]> items = new ArrayList<>();
                int index = 0;
                try {
                    while (json[pos] != ']') {
                        if (json[pos] == ',') {
                            pos++;
                        }
                        int before = out.size();
                        value();
                        items.add(cut(before));
                        index++;
                    }
                } catch (JsonProblem e) {
                    throw e.at(index);
                }
                pos++;
                depth--;
                header(items.size(), 0x90, 0xDC);
                for (byte[] item : items) {
                    out.write(item, 0, item.length);
                }
                return;
            }
            case '"':
                string(text());
                return;
            case 't':
                pos += 4;
                put(0xC3);
                return;
            case 'f':
                pos += 5;
                put(0xC2);
                return;
            case 'n':
                pos += 4;
                put(0xC0);
                return;
            case '@': {
                int start = ++pos;
                while (pos < json.length && json[pos] >= '0' && json[pos] <= '9') {
                    pos++;
                }
                int index = Integer.parseInt(new String(json, start, pos - start, StandardCharsets.US_ASCII));
                VariantVal v = held.get(index);
                if (v == null) {
                    put(0xC0);
                } else {
                    variant(new Variant(v.getValue(), v.getMetadata()));
                }
                return;
            }
            default:
                number();
        }
    }

    /** The bytes written since {@code before}, taken back out (a container's items go after its header). */
    private byte[] cut(int before) {
        byte[] all = out.toByteArray();
        byte[] tail = java.util.Arrays.copyOfRange(all, before, all.length);
        out.reset();
        out.write(all, 0, before);
        return tail;
    }

    private void number() throws JsonProblem {
        int start = pos;
        boolean real = false;
        while (pos < json.length && "+-0123456789.eE".indexOf(json[pos]) >= 0) {
            real |= json[pos] == '.' || json[pos] == 'e' || json[pos] == 'E';
            pos++;
        }
        String digits = new String(json, start, pos - start, StandardCharsets.US_ASCII);
        if (real) {
            real(Double.parseDouble(digits));
        } else {
            integer(new BigInteger(digits));
        }
    }

    /** A JSON string as CompactJson writes it (UTF-8, a few escapes). */
    private String text() {
        pos++; // '"'
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (json[pos] != '"') {
            byte c = json[pos++];
            if (c != '\\') {
                b.write(c);
                continue;
            }
            byte e = json[pos++];
            switch (e) {
                case 'n':
                    b.write('\n');
                    break;
                case 'r':
                    b.write('\r');
                    break;
                case 't':
                    b.write('\t');
                    break;
                case 'b':
                    b.write('\b');
                    break;
                case 'f':
                    b.write('\f');
                    break;
                case 'u': {
                    int code = Integer.parseInt(new String(json, pos, 4, StandardCharsets.US_ASCII), 16);
                    pos += 4;
                    byte[] u = String.valueOf((char) code).getBytes(StandardCharsets.UTF_8);
                    b.write(u, 0, u.length);
                    break;
                }
                default:
                    b.write(e); // '"', '\\', '/'
            }
        }
        pos++;
        return new String(b.toByteArray(), StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------------------------------- held values

    /** A VARIANT as the Python value it stands for (see {@link PackedValues#any}) is written. */
    private void variant(Variant v) throws JsonProblem {
        VariantUtil.Type type = v.getType();
        switch (type) {
            case NULL:
                put(0xC0);
                return;
            case BOOLEAN:
                put(v.getBoolean() ? 0xC3 : 0xC2);
                return;
            case LONG:
                integer(v.getLong());
                return;
            case DOUBLE:
                real(v.getDouble());
                return;
            case FLOAT:
                real(v.getFloat());
                return;
            case DECIMAL: {
                BigDecimal d = v.getDecimal();
                if (d.scale() <= 0) {
                    integer(d.toBigIntegerExact());
                } else {
                    real(d.doubleValue());
                }
                return;
            }
            case STRING:
                string(v.getString());
                return;
            case BINARY:
                binary(v.getBinary());
                return;
            case TIMESTAMP: {
                long micros = v.getLong();
                if (!Rfc3339.inTheYears(micros)) {
                    // Spark holds it, but neither decode (the codecs read msgspec's years) nor a Python datetime does
                    throw new JsonProblem(Messages.instantOutOfRange(micros));
                }
                timestamp(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
                return;
            }
            case ARRAY: {
                int n = v.arraySize();
                open();
                header(n, 0x90, 0xDC);
                for (int i = 0; i < n; i++) {
                    try {
                        variant(v.getElementAtIndex(i));
                    } catch (JsonProblem e) {
                        throw e.at(i);
                    }
                }
                depth--;
                return;
            }
            case OBJECT: {
                int n = v.objectSize();
                open();
                header(n, 0x80, 0xDE);
                for (int i = 0; i < n; i++) {
                    Variant.ObjectField f = v.getFieldAtIndex(i);
                    string(f.key);
                    try {
                        variant(f.value);
                    } catch (JsonProblem e) {
                        throw e.inMap();
                    }
                }
                depth--;
                return;
            }
            default: {
                // a date, a timestamp without a zone, a UUID: the text JSON has for it, as a string
                String text = v.toJson(ZoneOffset.UTC);
                string(text.substring(1, text.length() - 1));
            }
        }
    }
}
