// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/BinarySpark.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.LongPredicate;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import scala.collection.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Values of the binary family's Java codecs to and from Spark's external types (the Spark UDFs' side), failing as
 * the Python (Arrow) path fails: text Spark cannot hold is an {@link Unfit} naming the field, and a row that cannot
 * be encoded an {@link EncodeException} with the Python codec's reason and field (its protocol is left out: the
 * UDF shows {@code `field`: reason}).
 */
public final class BinarySpark {
    private BinarySpark() {
    }

    /** A decoded value Spark cannot hold (text with an unpaired surrogate): the row's error. Stackless. */
    public static final class Unfit extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Unfit(String message) {
            super(message, null, false, false);
        }
    }

    /** A value converted to Spark's external type. */
    @FunctionalInterface
    public interface ToSpark<T> {
        Object apply(T value);
    }

    /** A Spark value converted to the codec's. */
    @FunctionalInterface
    public interface FromSpark<T> {
        T apply(Object value) throws EncodeException;
    }

    // ---------------------------------------------------------------- codec values -> Spark

    public static String text(String value, String path) {
        String why = BinaryWire.unfit(value);
        if (why != null) {
            throw new Unfit(Messages.notRepresentable(path, why));
        }
        return value;
    }

    public static <T> Object[] array(List<T> items, ToSpark<T> convert) {
        Object[] out = new Object[items.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = convert.apply(items.get(i));
        }
        return out;
    }

    // ---------------------------------------------------------------- Spark -> codec values

    private static EncodeException fail(String reason, String field) {
        return new EncodeException(null, reason, field);
    }

    /** Python's name of a value's type, as its error messages show it. */
    public static String pyType(Object value) {
        if (value == null) {
            return "NoneType";
        }
        if (value instanceof String) {
            return "str";
        }
        if (value instanceof byte[]) {
            return "bytes";
        }
        if (value instanceof Boolean) {
            return "bool";
        }
        if (value instanceof Float || value instanceof Double) {
            return "float";
        }
        if (value instanceof Number) {
            return "int";
        }
        if (value instanceof Row) {
            return "dict";
        }
        if (value instanceof List || value instanceof Seq) {
            return "list";
        }
        return value.getClass().getSimpleName();
    }

    /** The index of a struct field by name; a missing one fails as Python's KeyError does. */
    public static int field(Row row, String name, String owner) throws EncodeException {
        try {
            return row.fieldIndex(name);
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw fail(PythonText.repr(name), owner);
        }
    }

    public static Row struct(Object value, String owner) throws EncodeException {
        if (value instanceof Row) {
            return (Row) value;
        }
        throw fail("'" + pyType(value) + "' object is not subscriptable", owner);
    }

    /** A list of converted items; null fails where the Python path fails (converting, or in the codec). */
    public static <T> List<T> list(Object value, boolean converts, String where, FromSpark<T> convert)
        throws EncodeException {
        List<?> items;
        if (value instanceof Seq) {
            items = CollectionConverters.asJava((Seq<?>) value);
        } else if (value instanceof List) {
            items = (List<?>) value;
        } else if (value == null) {
            String why = converts ? "'NoneType' object is not iterable" : "object of type 'NoneType' has no len()";
            throw fail(why, where);
        } else {
            throw fail("expected a list, got " + pyType(value), where);
        }
        ArrayList<T> out = new ArrayList<>(items.size());
        for (Object item : items) {
            out.add(convert.apply(item));
        }
        return out;
    }

    private static long integer(Object value, String where) throws EncodeException {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Boolean) {
            return (Boolean) value ? 1 : 0;
        }
        throw fail(Messages.STRUCT_NOT_INT, where);
    }

    /** An integer outside its wire type's range, in the words the Python codec and the JSON families say it. */
    public static String outOfRange(long value, long low, long high) {
        return value > high ? Messages.intAtMost(high) : Messages.intAtLeast(low);
    }

    public static long longOf(Object value, String where) throws EncodeException {
        return integer(value, where);
    }

    public static int intOf(Object value, String where) throws EncodeException {
        long v = integer(value, where);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw fail(outOfRange(v, Integer.MIN_VALUE, Integer.MAX_VALUE), where);
        }
        return (int) v;
    }

    public static short shortOf(Object value, String where) throws EncodeException {
        long v = integer(value, where);
        if (v < Short.MIN_VALUE || v > Short.MAX_VALUE) {
            throw fail(outOfRange(v, Short.MIN_VALUE, Short.MAX_VALUE), where);
        }
        return (short) v;
    }

    public static byte byteOf(Object value, String where) throws EncodeException {
        long v = integer(value, where);
        if (v < Byte.MIN_VALUE || v > Byte.MAX_VALUE) {
            throw fail(outOfRange(v, Byte.MIN_VALUE, Byte.MAX_VALUE), where);
        }
        return (byte) v;
    }

    /** Python's {@code repr} of a value as the Python path holds it (a Spark scalar or null). */
    public static String pyRepr(Object value) {
        if (value == null) {
            return "None";
        }
        if (value instanceof Boolean) {
            return (Boolean) value ? "True" : "False";
        }
        if (value instanceof String) {
            return PythonText.repr((String) value);
        }
        if (value instanceof Double || value instanceof Float) {
            return PythonText.pythonFloat(((Number) value).doubleValue());
        }
        return String.valueOf(value);
    }

    /** A value the field refuses, in the definition's words ({@code refusal}: see {@link PythonText#refusal}). */
    private static EncodeException refused(String refusal, Object value, String where) {
        return fail(PythonText.refusal(refusal, pyType(value), pyRepr(value)), where);
    }

    /** A bool: exactly one (null, or anything else, is refused with the definition's {@code refusal}). */
    public static boolean booleanOf(Object value, String where, String refusal) throws EncodeException {
        if (value instanceof Boolean) {
            return (Boolean) value;
        }
        throw refused(refusal, value, where);
    }

    /**
     * A closed enum's value: an integer that is one of its members ({@code member}), else refused with the
     * definition's {@code refusal} (null, or an integer that would read back as another member or be refused).
     */
    public static long member(Object value, String where, String refusal, LongPredicate member)
        throws EncodeException {
        if ((value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte)
            && member.test(((Number) value).longValue())) {
            return ((Number) value).longValue();
        }
        throw refused(refusal, value, where);
    }

    public static double doubleOf(Object value, String where) throws EncodeException {
        if (value instanceof Number) {
            return ((Number) value).doubleValue();
        }
        if (value instanceof Boolean) {
            return (Boolean) value ? 1 : 0;
        }
        throw fail(Messages.STRUCT_NOT_FLOAT, where);
    }

    public static float floatOf(Object value, String where) throws EncodeException {
        double v = doubleOf(value, where);
        if (!Double.isInfinite(v) && Math.abs(v) > Float.MAX_VALUE) {
            throw fail(Messages.STRUCT_FLOAT_TOO_LARGE, where);
        }
        return (float) v;
    }

    /**
     * A UUID from its text ({@code path} names it when the text is not one; {@code where} names a null, refused with
     * the definition's {@code refusal}).
     */
    public static UUID uuid(Object value, String path, String where, String refusal) throws EncodeException {
        if (value instanceof String) {
            UUID parsed = BinaryWire.parseUuid((String) value);
            if (parsed == null) {
                throw fail(Messages.notAUuid(PythonText.repr((String) value)), path);
            }
            return parsed;
        }
        throw refused(refusal, value, where);
    }

    public static String text(Object value, String where) throws EncodeException {
        if (value instanceof String) {
            return (String) value;
        }
        throw fail(Messages.expectedStr(pyType(value)), where);
    }

    public static byte[] bytes(Object value, String where) throws EncodeException {
        if (value instanceof byte[]) {
            return (byte[]) value;
        }
        throw fail(Messages.expectedBytes(pyType(value)), where);
    }

    public static int padding(Object value, String where) throws EncodeException {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            long count = ((Number) value).longValue();
            if (count >= 0 && count <= Integer.MAX_VALUE) {
                return (int) count;
            }
        }
        String shown = value == null ? "None" : value instanceof String ? PythonText.repr((String) value)
            : String.valueOf(value);
        throw fail(Messages.paddingNegative(shown), where);
    }

    // ---------------------------------------------------------------- the UDFs' rows

    /**
     * A frame that could not be decoded: with {@code failfast} the query fails (naming the protocol, the problem and
     * the frame's first bytes), else the problem is the row's last column, {@code error}.
     */
    public static void failed(Object[] values, String problem, Boolean failfast, String protocol, byte[] frame) {
        if (Boolean.TRUE.equals(failfast)) {
            throw new IllegalArgumentException(BinaryWire.failure(protocol, problem, frame));
        }
        values[values.length - 1] = problem;
    }

    /** The message name of a DECODED row, or null for a null row or a row without a message. */
    public static String messageName(Row row) {
        if (row == null) {
            return null;
        }
        Object name = row.get(row.fieldIndex("message"));
        return name == null ? null : String.valueOf(name);
    }

    /** The value of message {@code name}'s column (null: the name is no message's) in a DECODED row. */
    public static Object messageColumn(Row row, String name, String column) throws EncodeException {
        if (column == null) {
            throw new EncodeException(null, Messages.unknownMessage(name), null);
        }
        int index;
        try {
            index = row.fieldIndex(column);
        } catch (IllegalArgumentException e) {
            throw new EncodeException(null, Messages.noColumnForMessage(name), column);
        }
        Object value = row.get(index);
        if (value == null) {
            throw new EncodeException(null, Messages.nullForMessage(name), column);
        }
        return value;
    }

    /**
     * Why the header of an inline frame at stream offset {@code at} cannot start a frame, or null: its type code is
     * not an inline frame's ({@code names}), or its payload length is out of range.
     */
    public static String inlineHeaderProblem(boolean inline, int code, int length, long at, String names,
        int headerSize, int lengthSize, int maxFrame) {
        if (!inline) {
            return Messages.notInline(code, names) + " (offset " + at + ")";
        }
        if (length < 0 || length > maxFrame - headerSize) {
            return Messages.payloadOutside(length, maxFrame - headerSize) + " (offset " + (at + headerSize - lengthSize)
                + ")";
        }
        return null;
    }

    /** A value that ends inside a frame at stream offset {@code at}: {@code left} bytes of the {@code need} it
     * takes. */
    public static String cutFrameProblem(int left, int need, long at) {
        return Messages.endsInsideFrame(left, need) + " (offset " + at + ")";
    }

    /** The problem of an inline frame starting at stream offset {@code at} whose payload could not be decoded
     * (offsets in the value made stream offsets, as the Python path gives). */
    public static String inlineFrameProblem(DecodeException e, long base, int start) {
        long offset = base + (e.offset() < 0 ? start : e.offset());
        return BinaryWire.reason(new DecodeException(null, e.reason(), -1, offset, e.field()));
    }

    /** An INLINE row of a problem at stream offset {@code offset}, {@code columns} wide; with {@code strict} the
     * query fails instead. */
    public static Row inlineProblemRow(long offset, String problem, boolean strict, byte[] value, String protocol,
        int columns) {
        if (strict) {
            throw new IllegalArgumentException(BinaryWire.failure(protocol, problem, value));
        }
        Object[] values = new Object[columns];
        values[0] = offset;
        values[columns - 1] = problem;
        return RowFactory.create(values);
    }

    /** The row's {@code `field`: reason} text of an EncodeException (the reason alone without a field). */
    public static String problem(EncodeException e) {
        return e.field() == null || e.field().isEmpty() ? e.reason() : "`" + e.field() + "`: " + e.reason();
    }
}
