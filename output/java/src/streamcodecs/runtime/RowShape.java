// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/RowShape.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

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
 * would be read as other fields. A row of the expected type (names, order and types; nullability aside) is taken as
 * it is, after one comparison for each distinct type; a struct with the fields in another order is put in the
 * expected one; a missing field, or one of another type, is refused (IllegalArgumentException naming the field). The
 * Python function's column names every field, so Spark's analysis refuses a missing one first; this holds for SQL.
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

    /** Whether a value of type {@code given} reads as one of {@code wanted}: names, order, types (nulls aside). */
    static boolean alike(DataType given, DataType wanted) {
        if (given instanceof StructType g && wanted instanceof StructType w) {
            StructField[] gf = g.fields();
            StructField[] wf = w.fields();
            if (gf.length != wf.length) {
                return false;
            }
            for (int i = 0; i < gf.length; i++) {
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
        return given.equals(wanted);
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
        for (int i = 0; i < wf.length; i++) {
            String name = path == null ? wf[i].name() : path + "." + wf[i].name();
            int at = index(g, wf[i].name());
            if (at < 0) {
                throw new IllegalArgumentException(Messages.structFieldMissing(function, name));
            }
            values[i] = conformed(row.get(at), g.fields()[at].dataType(), wf[i].dataType(), name);
        }
        return new GenericRowWithSchema(values, w);
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
