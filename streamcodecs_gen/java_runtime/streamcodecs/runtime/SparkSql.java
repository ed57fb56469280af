package streamcodecs.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.classic.ColumnNodeToExpressionConverter$;
import org.apache.spark.sql.classic.ExpressionUtils;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StringType;
import scala.Function1;
import scala.Tuple3;
import scala.collection.immutable.Seq;

/**
 * The one class of the jar that uses Spark's internal API, for the SQL functions of {@code spark.sql.extensions}:
 * {@link SparkSessionExtensions#injectFunction} takes catalyst's {@code FunctionIdentifier}, {@code ExpressionInfo}
 * and a builder of catalyst {@code Expression}s, and the classic API turns those expressions into public
 * {@link Column}s ({@code ExpressionUtils}) and back ({@code ColumnNodeToExpressionConverter}). Everything else
 * the SQL functions do is public API ({@link SqlFunctions}: the same Java UDFs and the same column expressions as
 * the Python functions).
 *
 * <p>Internal API may change in any Spark release, so the functions are registered only on the Spark version the jar
 * was compiled against (its major and minor version, recorded in the jar as {@code META-INF/streamcodecs/spark-version}
 * by the generator; the jar's fingerprint covers it). On another version each function fails when a query calls it,
 * saying so, instead of failing with a linkage error or with a wrong result; the Python functions do not depend on
 * this class.
 */
public final class SparkSql {
    private static final String BUILT_FOR = resource("/META-INF/streamcodecs/spark-version");

    private SparkSql() {
    }

    /** What a SQL function makes of its arguments: the expression it stands for, as a column. */
    @FunctionalInterface
    public interface Builder {
        Column build(Arguments arguments);
    }

    /** The arguments of one call of a SQL function. */
    public static final class Arguments {
        private final String function;
        private final Seq<Expression> children;

        Arguments(String function, Seq<Expression> children) {
            this.function = function;
            this.children = children;
        }

        /** The SQL function called. */
        public String function() {
            return function;
        }

        /** How many arguments the call has. */
        public int size() {
            return children.size();
        }

        /** Argument {@code i} as a column. */
        public Column column(int i) {
            return ExpressionUtils.column(children.apply(i));
        }

        /**
         * Argument {@code i} as a constant string: {@code absent} when the call has fewer arguments, null for
         * {@code NULL}; any other value is refused, naming the argument.
         */
        public String text(int i, String name, String absent) {
            if (i >= children.size()) {
                return absent;
            }
            Expression e = children.apply(i);
            boolean text = e.dataType() instanceof StringType
                || e.dataType().equals(DataTypes.NullType);
            if (!text || !e.foldable()) {
                throw new IllegalArgumentException(function + ": " + name + " must be a constant string or NULL, not "
                    + e.sql());
            }
            Object value = e.eval(null);
            return value == null ? null : value.toString();
        }
    }

    /** The Spark version the jar was compiled against, as the generator recorded it ({@code 4.3.0}). */
    public static String builtFor() {
        return BUILT_FOR;
    }

    /**
     * Why the jar's SQL functions cannot run on Spark {@code running}, or null when they can (the same major and minor
     * version as {@code built}).
     */
    public static String mismatch(String built, String running) {
        if (majorMinor(built).equals(majorMinor(running))) {
            return null;
        }
        return "this streamcodecs jar's SQL functions were built for Spark " + built + " and use its internal API; "
            + "this is Spark " + running + ": use the streamcodecs package built for it (its Python functions "
            + "work here)";
    }

    /**
     * Registers the SQL function {@code name} ({@code DESCRIBE FUNCTION} shows {@code usage}, {@code _FUNC_} being its
     * name), taking {@code required} to {@code most} arguments, as {@code builder} builds it.
     */
    public static void inject(SparkSessionExtensions extensions, Class<?> owner, String name, String signature,
            String usage, int required, int most, Builder builder) {
        ExpressionInfo info = new ExpressionInfo(owner.getName(), null, name, usage, "", "", "", "", "", "",
            "java_udf");
        String refused = mismatch(BUILT_FOR, org.apache.spark.package$.MODULE$.SPARK_VERSION());
        Function1<Seq<Expression>, Expression> build = children -> {
            if (refused != null) {
                throw new UnsupportedOperationException(name + ": " + refused);
            }
            int given = children.size();
            if (given < required || given > most) {
                String count = required == most ? String.valueOf(required) : required + " to " + most;
                throw new IllegalArgumentException(name + " takes " + count + " arguments (" + signature + "), not "
                    + given);
            }
            Column built = builder.build(new Arguments(name, children));
            return ColumnNodeToExpressionConverter$.MODULE$.apply(built.node());
        };
        extensions.injectFunction(new Tuple3<>(FunctionIdentifier.apply(name), info, build));
    }

    private static String majorMinor(String version) {
        String[] parts = version.split("[.]", 3);
        return parts.length < 2 ? version : parts[0] + "." + parts[1];
    }

    private static String resource(String path) {
        try (InputStream in = SparkSql.class.getResourceAsStream(path)) {
            return in == null ? "unknown" : new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
