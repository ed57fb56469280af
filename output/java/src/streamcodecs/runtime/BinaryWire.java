// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/BinaryWire.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Primitives of the big-endian binary wire family, as the Python runtime's {@code _runtime/binary.py}: an
 * {@link In} cursor over a frame whose reads never pass its end and fail with a {@link DecodeException} naming the
 * offset and the field (the same reason texts as the Python codec), and an {@link Out} buffer the encoders write
 * into, failing with an {@link EncodeException} naming the field.
 */
public final class BinaryWire {
    /** The empty payload (decoded payloads are never shared otherwise). */
    public static final byte[] EMPTY = new byte[0];
    /** The most bytes a u16-prefixed string takes. */
    public static final int MAX_U16 = 0xFFFF;

    private BinaryWire() {
    }

    /** The bit of a direction (its index in {@code directions}) in a message's direction mask; all bits for null
     * (any direction). */
    public static int directionMask(List<String> directions, String direction) {
        if (direction == null) {
            return -1;
        }
        int index = directions.indexOf(direction);
        if (index < 0) {
            throw new IllegalArgumentException(
                    Messages.unknownDirection(PythonText.repr(direction), PythonText.tuple(directions)));
        }
        return 1 << index;
    }

    /** Checks that a whole frame of {@code size} bytes holds its header. */
    public static void checkHeader(String protocol, int size, int headerSize) throws DecodeException {
        if (size < headerSize) {
            throw new DecodeException(protocol, Messages.shorterThanHeader(size, headerSize), -1, 0, null);
        }
    }

    /** Checks the payload length a whole frame's header gave ({@code lengthSize} bytes, ending the header): within
     * the largest frame, and exactly the bytes that follow the header. */
    public static void checkLength(String protocol, int length, int size, int headerSize, int lengthSize,
        int maxFrame) throws DecodeException {
        String problem = null;
        long at = 0;
        int end = headerSize + length;
        if (length < 0 || length > maxFrame - headerSize) {
            problem = Messages.payloadOutside(length, maxFrame - headerSize);
            at = headerSize - lengthSize;
        } else if (end > size) {
            problem = Messages.payloadPastGiven(length, size - headerSize);
            at = headerSize - lengthSize;
        } else if (end < size) {
            problem = Messages.bytesFollow(size - end);
            at = end;
        }
        if (problem != null) {
            throw new DecodeException(protocol, problem, -1, at, null);
        }
    }

    /** A message that is not sent in the direction of the mask (one bit) at offset {@code start}. */
    public static DecodeException notSent(String protocol, List<String> directions, int code, int mask, int start) {
        String direction = directions.get(Integer.numberOfTrailingZeros(mask));
        return new DecodeException(protocol, Messages.notInDirection(code, PythonText.repr(direction)), -1, start,
            null);
    }

    /** The reason of a decode failure as the Spark {@code error} column shows it: the text without the protocol. */
    public static String reason(DecodeException e) {
        return DecodeException.text(null, e.reason(), e.line(), e.offset(), e.field());
    }

    /**
     * A FAILFAST failure's message, as the Python path's: the protocol, the row's problem and the start of its
     * bytes in hex.
     */
    public static String failure(String protocol, String problem, byte[] data) {
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < Math.min(data.length, 48); i++) {
            hex.append(String.format("%02x", data[i] & 0xFF));
        }
        return protocol + ": " + Messages.inputStarts(problem, data.length, hex, data.length > 48 ? "..." : "");
    }

    /**
     * Why a decoded string cannot be a Spark string (UTF-8, so no unpaired surrogate, which modified UTF-8 and a
     * Java String allow), worded as Python's UnicodeEncodeError; null when it can.
     */
    public static String unfit(String text) {
        int index = 0;
        for (int i = 0; i < text.length(); i++, index++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                int end = i + 1; // Python names the whole run of unpaired surrogates
                while (end < text.length() && Character.isSurrogate(text.charAt(end))
                        && !(Character.isHighSurrogate(text.charAt(end)) && end + 1 < text.length()
                                && Character.isLowSurrogate(text.charAt(end + 1)))) {
                    end++;
                }
                if (end - i > 1) {
                    return String.format(
                        "'utf-8' codec can't encode characters in position %d-%d: surrogates not allowed", index,
                        index + end - i - 1);
                }
                return String.format(
                    "'utf-8' codec can't encode character '\\u%04x' in position %d: surrogates not allowed", (int) c,
                    index);
            }
        }
        return null;
    }

    /** A UUID from text as Python's {@code uuid.UUID(text)} reads it (braces, urn:uuid:, hyphens anywhere). */
    public static UUID parseUuid(String text) {
        String hex = text.replace("urn:", "").replace("uuid:", "");
        int start = 0;
        int stop = hex.length();
        while (start < stop && (hex.charAt(start) == '{' || hex.charAt(start) == '}')) {
            start++;
        }
        while (stop > start && (hex.charAt(stop - 1) == '{' || hex.charAt(stop - 1) == '}')) {
            stop--;
        }
        hex = hex.substring(start, stop).replace("-", "");
        if (hex.length() != 32) {
            return null;
        }
        long high = 0;
        long low = 0;
        for (int i = 0; i < 32; i++) {
            int digit = Character.digit(hex.charAt(i), 16);
            if (digit < 0 || hex.charAt(i) > 0x7F) {
                return null;
            }
            if (i < 16) {
                high = high << 4 | digit;
            } else {
                low = low << 4 | digit;
            }
        }
        return new UUID(high, low);
    }

    /** A cursor over {@code buf[pos:end]}: the frame's payload, or a struct inside it. */
    public static final class In {
        private final String protocol;
        public final byte[] buf;
        public int pos;
        public int end;

        public In(String protocol, byte[] buf, int pos, int end) {
            this.protocol = protocol;
            this.buf = buf;
            this.pos = pos;
            this.end = end;
        }

        public DecodeException fail(String reason, long offset, String field) {
            return new DecodeException(protocol, reason, -1, offset, field);
        }

        public int remaining() {
            return end - pos;
        }

        /** Fails unless {@code size} bytes remain (the size of the fixed run of fields starting with {@code field}). */
        public void need(int size, String field) throws DecodeException {
            if (end - pos < size) {
                throw fail(Messages.needsBytes(size, Math.max(end - pos, 0)), pos, field);
            }
        }

        // Unchecked reads: the caller checked the run's size with need().

        public byte int8() {
            return buf[pos++];
        }

        public boolean bool() {
            return buf[pos++] != 0;
        }

        public short int16() {
            short value = (short) ((buf[pos] & 0xFF) << 8 | buf[pos + 1] & 0xFF);
            pos += 2;
            return value;
        }

        public int int32() {
            byte[] b = buf;
            int p = pos;
            pos = p + 4;
            return (b[p] & 0xFF) << 24 | (b[p + 1] & 0xFF) << 16 | (b[p + 2] & 0xFF) << 8 | b[p + 3] & 0xFF;
        }

        public long int64() {
            return (long) int32() << 32 | int32() & 0xFFFFFFFFL;
        }

        /** A big-endian signed integer of 1, 2 or 4 bytes (a frame header's type code or length). */
        public int signed(int bytes) {
            return bytes == 1 ? int8() : bytes == 2 ? int16() : int32();
        }

        /** A big-endian unsigned integer of 1, 2 or 4 bytes (an unsigned wire type's value). */
        public long unsigned(int bytes) {
            return bytes == 1 ? int8() & 0xFFL : bytes == 2 ? int16() & 0xFFFFL : int32() & 0xFFFFFFFFL;
        }

        public float float32() {
            return Float.intBitsToFloat(int32());
        }

        public double float64() {
            return Double.longBitsToDouble(int64());
        }

        public UUID uuid() {
            return new UUID(int64(), int64());
        }

        /** Where the string at {@code pos} ends: a u16 byte count, then that many bytes, which must fit the frame. */
        private int counted(String field) throws DecodeException {
            need(2, field);
            int size = (buf[pos] & 0xFF) << 8 | buf[pos + 1] & 0xFF;
            if (pos + 2 + size > end) {
                throw fail(Messages.stringPastFrame(size), pos, field);
            }
            return pos + 2 + size;
        }

        /** A u16 byte count, then Java's modified UTF-8 (DataInput.readUTF, with the Python codec's messages). */
        public String mutf8(String field) throws DecodeException {
            int stop = counted(field);
            int start = pos + 2;
            int size = stop - start;
            byte[] b = buf;
            int i = start;
            while (i < stop && b[i] >= 0) {
                i++;
            }
            if (i == stop) {
                pos = stop;
                return new String(b, start, size, StandardCharsets.ISO_8859_1); // ASCII: Latin-1 is the fast copy
            }
            char[] units = new char[size];
            int n = 0;
            for (int j = start; j < i; j++) {
                units[n++] = (char) b[j];
            }
            while (i < stop) {
                int c = b[i] & 0xFF;
                if (c < 0x80) {
                    units[n++] = (char) c;
                    i++;
                } else if (c >= 0xC0 && c < 0xE0) {
                    if (i + 2 > stop) {
                        throw badMutf8(Messages.MUTF8_PARTIAL, start, field);
                    }
                    int c2 = b[i + 1] & 0xFF;
                    if ((c2 & 0xC0) != 0x80) {
                        throw badMutf8(Messages.mutf8Around(i + 1 - start), start, field);
                    }
                    units[n++] = (char) ((c & 0x1F) << 6 | c2 & 0x3F);
                    i += 2;
                } else if (c >= 0xE0 && c < 0xF0) {
                    if (i + 3 > stop) {
                        throw badMutf8(Messages.MUTF8_PARTIAL, start, field);
                    }
                    int c2 = b[i + 1] & 0xFF;
                    int c3 = b[i + 2] & 0xFF;
                    if ((c2 & 0xC0) != 0x80 || (c3 & 0xC0) != 0x80) {
                        throw badMutf8(Messages.mutf8Around(i + 2 - start), start, field);
                    }
                    units[n++] = (char) ((c & 0x0F) << 12 | (c2 & 0x3F) << 6 | c3 & 0x3F);
                    i += 3;
                } else {
                    throw badMutf8(Messages.mutf8Around(i - start), start, field);
                }
            }
            pos = stop;
            return new String(units, 0, n);
        }

        private DecodeException badMutf8(String why, int start, String field) {
            return fail(Messages.invalidMutf8(why), start, field);
        }

        /** A u16 byte count, then UTF-8, refused where Python's strict UTF-8 decoder refuses it (same reasons). */
        public String string(String field) throws DecodeException {
            int stop = counted(field);
            int start = pos + 2;
            int size = stop - start;
            PythonText.Utf8Error bad = PythonText.utf8Error(buf, start, stop);
            if (bad != null) {
                throw fail(Messages.invalidUtf8(bad.reason()), bad.at(), field);
            }
            pos = stop;
            return new String(buf, start, size, StandardCharsets.UTF_8);
        }

        /** An int32 length, then the bytes; with {@code negativeEmpty} a negative length reads as empty. */
        public byte[] bytes(String field, boolean negativeEmpty) throws DecodeException {
            need(4, field);
            int at = pos;
            int size = int32();
            if (size < 0 && negativeEmpty) {
                return EMPTY;
            }
            if (size < 0 || size > end - pos) {
                throw fail(Messages.lengthDoesNotFit(size, end - pos), at, field);
            }
            byte[] out = Arrays.copyOfRange(buf, pos, pos + size);
            pos += size;
            return out;
        }

        /** The bytes up to the end. */
        public byte[] rest() {
            byte[] out = Arrays.copyOfRange(buf, pos, end);
            pos = end;
            return out;
        }

        /** The count of bytes up to the end (padding; not checked to be zero, as Java does not). */
        public int padding() {
            int count = end - pos;
            pos = end;
            return count;
        }

        /**
         * An int32 item count that the bytes left can hold ({@code minSize} each); with {@code negativeEmpty} a
         * negative count reads as no items.
         */
        public int count(String field, int minSize, boolean negativeEmpty) throws DecodeException {
            need(4, field);
            int count = int32();
            if (count < 0 && negativeEmpty) {
                return 0;
            }
            if (count < 0 || (long) count * minSize > end - pos) {
                throw fail(Messages.countDoesNotFit(count, end - pos), pos - 4, field);
            }
            return count;
        }
    }

    /** A growing buffer the encoders write a frame into, header first. */
    public static final class Out {
        private final String protocol;
        private byte[] buf;
        private int size;

        public Out(String protocol, int capacity) {
            this.protocol = protocol;
            this.buf = new byte[Math.max(capacity, 16)];
        }

        public EncodeException fail(String reason, String field) {
            return new EncodeException(protocol, reason, field);
        }

        public int size() {
            return size;
        }

        private void room(int more) {
            if (size + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
            }
        }

        public byte[] toByteArray() {
            return size == buf.length ? buf : Arrays.copyOf(buf, size);
        }

        public void int8(int value) {
            room(1);
            buf[size++] = (byte) value;
        }

        public void bool(boolean value) {
            int8(value ? 1 : 0);
        }

        public void int16(int value) {
            room(2);
            buf[size++] = (byte) (value >> 8);
            buf[size++] = (byte) value;
        }

        public void int32(int value) {
            room(4);
            putI32(size, value);
            size += 4;
        }

        /** Overwrites the int32 at {@code at} (a length or size written before what it counts). */
        public void putI32(int at, int value) {
            buf[at] = (byte) (value >> 24);
            buf[at + 1] = (byte) (value >> 16);
            buf[at + 2] = (byte) (value >> 8);
            buf[at + 3] = (byte) value;
        }

        /** Overwrites {@code bytes} big-endian bytes at {@code at} (a length written after what it counts). */
        public void put(int at, long value, int bytes) {
            for (int i = bytes - 1; i >= 0; i--) {
                buf[at + i] = (byte) value;
                value >>= 8;
            }
        }

        /** A list's int32 item count. */
        public void count(List<?> items, String field) throws EncodeException {
            if (items == null) {
                throw fail("object of type 'NoneType' has no len()", field);
            }
            int32(items.size());
        }

        public void int64(long value) {
            int32((int) (value >> 32));
            int32((int) value);
        }

        /**
         * A big-endian unsigned integer of 1, 2 or 4 bytes (an unsigned wire type's value, held in a wider Java
         * type); a value out of its range is refused in the words the Python codec says it.
         */
        public void unsigned(long value, int bytes, String field) throws EncodeException {
            long high = (1L << (8 * bytes)) - 1;
            if (value < 0) {
                throw fail(Messages.intAtLeast(0), field);
            }
            if (value > high) {
                throw fail(Messages.intAtMost(high), field);
            }
            room(bytes);
            put(size, value, bytes);
            size += bytes;
        }

        public void float32(float value) {
            int32(Float.floatToRawIntBits(value));
        }

        public void float64(double value) {
            int64(Double.doubleToRawLongBits(value));
        }

        /** A UUID; null is refused with {@code refusal} (the definition's text, see {@link PythonText#refusal}). */
        public void uuid(UUID value, String field, String refusal) throws EncodeException {
            if (value == null) {
                throw fail(PythonText.refusal(refusal, "NoneType", "None"), field);
            }
            int64(value.getMostSignificantBits());
            int64(value.getLeastSignificantBits());
        }

        /** Java's modified UTF-8 with a u16 byte count (DataOutput.writeUTF). */
        public void mutf8(String value, String field) throws EncodeException {
            if (value == null) {
                throw fail(Messages.expectedStr("NoneType"), field);
            }
            int length = value.length();
            int bytes = length;
            for (int i = 0; i < length; i++) {
                char c = value.charAt(i);
                if (c >= 0x80 || c == 0) {
                    bytes += c >= 0x800 ? 2 : 1;
                }
            }
            if (bytes > MAX_U16) {
                throw fail(Messages.mutf8TooLong(bytes), field);
            }
            room(2 + bytes);
            buf[size++] = (byte) (bytes >> 8);
            buf[size++] = (byte) bytes;
            for (int i = 0; i < length; i++) {
                char c = value.charAt(i);
                if (c > 0 && c < 0x80) {
                    buf[size++] = (byte) c;
                } else if (c < 0x800) {
                    buf[size++] = (byte) (0xC0 | c >> 6 & 0x1F);
                    buf[size++] = (byte) (0x80 | c & 0x3F);
                } else {
                    buf[size++] = (byte) (0xE0 | c >> 12 & 0x0F);
                    buf[size++] = (byte) (0x80 | c >> 6 & 0x3F);
                    buf[size++] = (byte) (0x80 | c & 0x3F);
                }
            }
        }

        /** UTF-8 with a u16 byte count. */
        public void string(String value, String field) throws EncodeException {
            if (value == null) {
                throw fail(Messages.expectedStr("NoneType"), field);
            }
            String bad = unfit(value);
            if (bad != null) {
                throw fail(Messages.notUtf8Encodable("surrogates not allowed"), field);
            }
            byte[] data = value.getBytes(StandardCharsets.UTF_8);
            if (data.length > MAX_U16) {
                throw fail(Messages.utf8TooLong(data.length), field);
            }
            int16(data.length);
            raw(data);
        }

        /** An int32 length, then the bytes. */
        public void bytes(byte[] value, String field) throws EncodeException {
            if (value == null) {
                throw fail(Messages.expectedBytes("NoneType"), field);
            }
            int32(value.length);
            raw(value);
        }

        /** The bytes as they are (a payload up to the end of the frame). */
        public void rest(byte[] value, String field) throws EncodeException {
            if (value == null) {
                throw fail(Messages.expectedBytes("NoneType"), field);
            }
            raw(value);
        }

        /**
         * {@code count} zero bytes; more than {@code limit} (the protocol's largest frame) are refused before they
         * are made, in the definition's words ({@code refusal}: {@code {value}} the count, {@code {limit}} the limit).
         */
        public void padding(int count, String field, int limit, String refusal) throws EncodeException {
            if (count < 0) {
                throw fail(Messages.paddingNegative(count), field);
            }
            if (count > limit) {
                throw fail(refusal.replace("{value}", Integer.toString(count)).replace("{limit}",
                    Integer.toString(limit)), field);
            }
            room(count);
            Arrays.fill(buf, size, size + count, (byte) 0);
            size += count;
        }

        public void raw(byte[] value) {
            room(value.length);
            System.arraycopy(value, 0, buf, size, value.length);
            size += value.length;
        }
    }
}
