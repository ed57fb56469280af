package streamcodecs.runtime;

import java.util.Arrays;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A struct a UDF is given, read by field name as the Python path reads it. Spark hands a UDF a struct's fields in
 * the column's own order and the codecs read them by position, so a struct built with its fields in another order
 * would be read as other fields. A struct that has the expected fields first, in order, at every depth, is taken as
 * it is (after one comparison for each distinct type): the fields after them, such as DECODED's {@code error}, are
 * never read. Another order is put in the expected one, leaving the others out; a missing field, or a struct, list
 * or map where the other is expected, is refused (IllegalArgumentException naming the field). A value's own type
 * (a BIGINT where an INT is expected) is the codec's to judge, in its words. The Python functions name every field
 * in the query, so Spark's analysis refuses a missing one first; this holds for SQL.
 */
public final class RowShape {
    private final String function;
    private final StructType expected;
    /** A given type found to be the expected one: compared by identity (Spark gives every row of a column one). */
    private volatile StructType same;

    public RowShape(String function, StructType expected) {
        this.function = function;
        this.expected = expected;
    }

    /** {@code row} with its fields in the expected order (null stays null). */
    public Row of(Row row) {
        if (row == null) {
            return null;
        }
        StructType given = row.schema();
        if (given == null || given == same) {
            return row;
        }
        if (alike(given, expected)) {
            same = given;
            return row;
        }
        return (Row) conformed(row, given, expected, null);
    }

    /** Whether a value of type {@code given} reads as one of {@code wanted} by position (see the class comment). */
    static boolean alike(DataType given, DataType wanted) {
        if (given instanceof StructType g && wanted instanceof StructType w) {
            StructField[] gf = g.fields();
            StructField[] wf = w.fields();
            if (gf.length < wf.length) {
                return false;
            }
            for (int i = 0; i < wf.length; i++) {
                if (!gf[i].name().equals(wf[i].name()) || !alike(gf[i].dataType(), wf[i].dataType())) {
                    return false;
                }
            }
            return true;
        }
        if (given instanceof ArrayType g && wanted instanceof ArrayType w) {
            return alike(g.elementType(), w.elementType());
        }
        if (given instanceof MapType g && wanted instanceof MapType w) {
            return alike(g.keyType(), w.keyType()) && alike(g.valueType(), w.valueType());
        }
        return !nested(given) && !nested(wanted);
    }

    private static boolean nested(DataType type) {
        return type instanceof StructType || type instanceof ArrayType || type instanceof MapType;
    }

    /** {@code expected} without its field {@code name}: what a function reads of a row type. */
    public static StructType without(StructType expected, String name) {
        return new StructType(Arrays.stream(expected.fields())
                .filter(f -> !f.name().equals(name)).toArray(StructField[]::new));
    }

    /** {@code value} of type {@code given} as one of {@code wanted}; {@code path}: its field's name (null: the row). */
    private Object conformed(Object value, DataType given, DataType wanted, String path) {
        if (value == null || alike(given, wanted)) {
            return value;
        }
        if (!(given instanceof StructType g) || !(wanted instanceof StructType w)) {
            throw new IllegalArgumentException(Messages.structFieldType(
                    function, path, given.simpleString(), wanted.simpleString()));
        }
        Row row = (Row) value;
        StructField[] wf = w.fields();
        Object[] values = new Object[wf.length];
        StructField[] fields = new StructField[wf.length];  // the given fields, in the expected order
        for (int i = 0; i < wf.length; i++) {
            String name = path == null ? wf[i].name() : path + "." + wf[i].name();
            int at = index(g, wf[i].name());
            if (at < 0) {
                throw new IllegalArgumentException(Messages.structFieldMissing(function, name));
            }
            fields[i] = g.fields()[at];
            values[i] = conformed(row.get(at), fields[i].dataType(), wf[i].dataType(), name);
        }
        return new GenericRowWithSchema(values, new StructType(fields));
    }

    private static int index(StructType type, String name) {
        StructField[] fields = type.fields();
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
