import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.types.VariantType;
import org.apache.spark.sql.types.VariantType$;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantBuilder;
import org.apache.spark.unsafe.types.VariantVal;
import scala.Function1;
import scala.Tuple2;
import scala.collection.Seq;

/**
 * The Java side of the differential fuzzer (fuzz/differential.py): calls a protocol's Spark UDF classes directly,
 * without Spark, on arguments built as Spark hands them to a Java UDF, and answers with the result as Spark would
 * store it, in the fuzzer's plain JSON form.
 *
 * <p>Standard input: one set-up line, {@code {"package": P, "udfs": {"protocol.Class": {"args": [type...],
 * "returns": type}}}} (types as Spark's DataType JSON); then batches: a line holding a count, and that many request
 * lines, {@code ["protocol.Class", arg...]}. Each batch is read whole before any answer is written (so neither side blocks on
 * a full pipe), one answer line per request. Values, in requests and answers alike: structs as lists of their
 * fields, arrays as lists, binary as {@code {"b": base64}}, a float as {@code {"f": hex of its IEEE 754 double}}, a
 * timestamp as {@code {"t": microseconds}}, a VARIANT as {@code {"v": json}} and a map as
 * {@code {"m": [[key, value]...]}}. A UDF that throws answers {@code {"thrown": text}} (in Spark that would fail
 * the job: always a finding). A request {@code ["!variant", {"v": json}]} answers the JSON text Spark's
 * {@code to_json} gives for that VARIANT. A request {@code ["!codec", ...]} calls a protocol's codec directly (see
 * {@link #codec}).
 */
public final class Differential {
    /** Requests hold whole frames as base64 (a frame at Pravega's MAX_FRAME is 22 MB of it): no limit. */
    private static final StreamReadConstraints UNLIMITED = StreamReadConstraints.builder()
            .maxStringLength(Integer.MAX_VALUE)
            .maxNameLength(Integer.MAX_VALUE)
            .maxNestingDepth(Integer.MAX_VALUE)
            .maxNumberLength(Integer.MAX_VALUE)
            .build();
    private static final ObjectMapper MAPPER =
            new ObjectMapper(JsonFactory.builder().streamReadConstraints(UNLIMITED).build());
    private static final JsonFactory OUT = JsonFactory.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
    private static final JsonFactory VARIANT_TEXT = JsonFactory.builder().streamReadConstraints(UNLIMITED).build();

    /** The package of the classes called ({@code streamcodecs.}). */
    private static String prefix;

    private record Udf(Object instance, Method call, DataType[] args, Function1<Object, Object>[] in,
            DataType returns, Function1<Object, Object> toCatalyst, Function1<Object, Object> toScala) {
    }

    public static void main(String[] argv) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        JsonNode setup = MAPPER.readTree(in.readLine());
        prefix = setup.get("package").asText() + ".";
        Map<String, Udf> udfs = new HashMap<>();
        for (Map.Entry<String, JsonNode> e : setup.get("udfs").properties()) {
            udfs.put(e.getKey(), udf(prefix + e.getKey(), e.getValue()));
        }
        out.write("ready\n");
        out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            int count = Integer.parseInt(line.trim());
            List<String> requests = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                requests.add(in.readLine());
            }
            for (String request : requests) {
                String answer;
                try {
                    answer = answer(udfs, MAPPER.readTree(request));
                } catch (RuntimeException | IOException e) { // the driver's own failure: a finding to look at too
                    answer = MAPPER.writeValueAsString(Map.of("thrown", "driver: " + e));
                }
                out.write(answer);
                out.write('\n');
            }
            out.flush();
        }
    }

    @SuppressWarnings("unchecked")
    private static Udf udf(String className, JsonNode spec) throws Exception {
        Class<?> type = Class.forName(className);
        Object instance = type.getDeclaredConstructor().newInstance();
        JsonNode argTypes = spec.get("args");
        Method call = null;
        for (Method m : type.getMethods()) {
            if (m.getName().equals("call") && !m.isBridge() && m.getParameterCount() == argTypes.size()) {
                call = m;
            }
        }
        if (call == null) {
            throw new IllegalArgumentException("no call method of " + argTypes.size() + " arguments in " + className);
        }
        DataType[] args = new DataType[argTypes.size()];
        Function1<Object, Object>[] converters = new Function1[args.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = DataType.fromJson(argTypes.get(i).toString());
            Function1<Object, Object> toCatalyst = CatalystTypeConverters.createToCatalystConverter(args[i]);
            Function1<Object, Object> toScala = CatalystTypeConverters.createToScalaConverter(args[i]);
            converters[i] = v -> toScala.apply(toCatalyst.apply(v));
        }
        DataType returns = DataType.fromJson(spec.get("returns").toString());
        return new Udf(instance, call, args, converters, returns,
                CatalystTypeConverters.createToCatalystConverter(returns),
                CatalystTypeConverters.createToScalaConverter(returns));
    }

    private static String answer(Map<String, Udf> udfs, JsonNode request) throws IOException {
        if (request.get(0).asText().equals("!codec")) {
            return codec(prefix, request);
        }
        if (request.get(0).asText().equals("!variant")) {
            // A VARIANT's JSON text as Spark's to_json gives it (what the Python path is handed for a VARIANT).
            StringWriter text = new StringWriter();
            try (JsonGenerator g = OUT.createGenerator(text)) {
                g.writeString(((VariantVal) external(request.get(1), VariantType$.MODULE$)).toJson(ZoneOffset.UTC));
            }
            return text.toString();
        }
        Udf udf = udfs.get(request.get(0).asText());
        Object[] args = new Object[udf.args.length];
        for (int i = 0; i < args.length; i++) {
            // As Spark hands the value to a Java UDF: to its internal form and back to the external one.
            args[i] = udf.in[i].apply(external(request.get(i + 1), udf.args[i]));
        }
        StringWriter text = new StringWriter();
        try (JsonGenerator g = OUT.createGenerator(text)) {
            Object result;
            try {
                result = udf.call.invoke(udf.instance, args);
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause();
                g.writeStartObject();
                g.writeStringField("thrown", cause.getClass().getName() + ": " + cause.getMessage());
                g.writeEndObject();
                return finish(g, text);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
            Object stored;
            try {
                stored = udf.toScala.apply(udf.toCatalyst.apply(result)); // as Spark stores and shows it
            } catch (RuntimeException e) {
                g.writeStartObject();
                g.writeStringField("thrown", "storing the result: " + e.getClass().getName() + ": " + e.getMessage());
                g.writeEndObject();
                return finish(g, text);
            }
            write(g, stored, udf.returns);
        }
        return text.toString();
    }

    private static String finish(JsonGenerator g, StringWriter text) throws IOException {
        g.flush();
        return text.toString();
    }

    /**
     * {@code ["!codec", protocol, serializer, direction or null, {"b": frame}]}: the protocol's codec called
     * directly (its framing variants have no Spark function yet): {@code [message name, null, {"b": what encode
     * writes of the message in that framing} or {"e": encode's refusal}]}, or {@code [null, decode's refusal,
     * null]}.
     */
    private static String codec(String prefix, JsonNode request) throws IOException {
        String protocol = request.get(1).asText();
        String serializer = request.get(2).asText();
        String direction = request.get(3).isNull() ? null : request.get(3).asText();
        byte[] data = Base64.getDecoder().decode(request.get(4).get("b").asText());
        try {
            Class<?> codec = Class.forName(prefix + protocol + ".Codec");
            Class<?> message = Class.forName(prefix + protocol + ".Messages$Message");
            Object decoded;
            try {
                decoded = codec.getMethod("decode", byte[].class, String.class, String.class)
                        .invoke(null, data, direction, serializer);
            } catch (InvocationTargetException e) {
                if (!e.getCause().getClass().getSimpleName().equals("DecodeException")) {
                    return thrown(e.getCause());
                }
                return MAPPER.writeValueAsString(Arrays.asList(null, e.getCause().getMessage(), null));
            }
            String name = (String) message.getMethod("messageName").invoke(decoded);
            Map<String, String> again = new LinkedHashMap<>();
            try {
                byte[] written = (byte[]) codec.getMethod("encode", message, String.class)
                        .invoke(null, decoded, serializer);
                again.put("b", Base64.getEncoder().encodeToString(written));
            } catch (InvocationTargetException e) {
                if (!e.getCause().getClass().getSimpleName().equals("EncodeException")) {
                    return thrown(e.getCause());
                }
                again.put("e", e.getCause().getMessage());
            }
            return MAPPER.writeValueAsString(Arrays.asList(name, null, again));
        } catch (ReflectiveOperationException e) {
            return thrown(e);
        }
    }

    private static String thrown(Throwable e) throws IOException {
        return MAPPER.writeValueAsString(Map.of("thrown", e.getClass().getName() + ": " + e.getMessage()));
    }

    /** A request's value as a Java program would build it for Spark (lists, maps, rows, instants). */
    private static Object external(JsonNode node, DataType type) throws IOException {
        if (node == null || node.isNull()) {
            return null;
        }
        if (type instanceof BinaryType) {
            return Base64.getDecoder().decode(node.get("b").asText());
        }
        if (type instanceof StringType) {
            return node.asText();
        }
        if (type instanceof LongType) {
            return node.asLong();
        }
        if (type instanceof IntegerType) {
            return node.asInt();
        }
        if (type instanceof ShortType) {
            return (short) node.asInt();
        }
        if (type instanceof ByteType) {
            return (byte) node.asInt();
        }
        if (type instanceof BooleanType) {
            return node.asBoolean();
        }
        if (type instanceof DoubleType) {
            return Double.longBitsToDouble(Long.parseUnsignedLong(node.get("f").asText(), 16));
        }
        if (type instanceof FloatType) {
            return (float) Double.longBitsToDouble(Long.parseUnsignedLong(node.get("f").asText(), 16));
        }
        if (type instanceof TimestampType) {
            return DateTimeUtils.microsToInstant(node.get("t").asLong());
        }
        if (type instanceof VariantType) {
            try (JsonParser p = VARIANT_TEXT.createParser(node.get("v").asText())) {
                p.nextToken();
                Variant v = VariantBuilder.parseJson(p, false);
                return new VariantVal(v.getValue(), v.getMetadata());
            }
        }
        if (type instanceof ArrayType array) {
            List<Object> items = new ArrayList<>();
            for (JsonNode item : node) {
                items.add(external(item, array.elementType()));
            }
            return items;
        }
        if (type instanceof MapType map) {
            Map<Object, Object> entries = new LinkedHashMap<>();
            for (JsonNode pair : node.get("m")) {
                entries.put(external(pair.get(0), map.keyType()), external(pair.get(1), map.valueType()));
            }
            return entries;
        }
        if (type instanceof StructType struct) {
            Object[] values = new Object[struct.fields().length];
            for (int i = 0; i < values.length; i++) {
                values[i] = external(node.get(i), struct.fields()[i].dataType());
            }
            return RowFactory.create(values);
        }
        throw new IllegalArgumentException("no request values of type " + type.simpleString());
    }

    /** A value as Spark shows it (after its round trip through Spark's internal form), in the answer's form. */
    private static void write(JsonGenerator g, Object value, DataType type) throws IOException {
        if (value == null) {
            g.writeNull();
        } else if (type instanceof StructType struct) {
            Row row = (Row) value;
            g.writeStartArray();
            for (int i = 0; i < struct.fields().length; i++) {
                write(g, row.get(i), struct.fields()[i].dataType());
            }
            g.writeEndArray();
        } else if (type instanceof ArrayType array) {
            g.writeStartArray();
            scala.collection.Iterator<?> items = ((Seq<?>) value).iterator();
            while (items.hasNext()) {
                write(g, items.next(), array.elementType());
            }
            g.writeEndArray();
        } else if (type instanceof MapType map) {
            g.writeStartObject();
            g.writeArrayFieldStart("m");
            scala.collection.Iterator<?> pairs = ((scala.collection.Map<?, ?>) value).iterator();
            while (pairs.hasNext()) {
                Tuple2<?, ?> pair = (Tuple2<?, ?>) pairs.next();
                g.writeStartArray();
                write(g, pair._1(), map.keyType());
                write(g, pair._2(), map.valueType());
                g.writeEndArray();
            }
            g.writeEndArray();
            g.writeEndObject();
        } else if (type instanceof BinaryType) {
            g.writeStartObject();
            g.writeStringField("b", Base64.getEncoder().encodeToString((byte[]) value));
            g.writeEndObject();
        } else if (type instanceof DoubleType || type instanceof FloatType) {
            double d = ((Number) value).doubleValue();
            g.writeStartObject();
            g.writeStringField("f", String.format("%016x", Double.doubleToRawLongBits(d)));
            g.writeEndObject();
        } else if (type instanceof TimestampType) {
            g.writeStartObject();
            g.writeNumberField("t", DateTimeUtils.fromJavaTimestamp((Timestamp) value));
            g.writeEndObject();
        } else if (type instanceof VariantType) {
            VariantVal v = (VariantVal) value;
            g.writeStartObject();
            g.writeStringField("v", new Variant(v.getValue(), v.getMetadata()).toJson(ZoneOffset.UTC));
            g.writeEndObject();
        } else if (value instanceof String s) {
            g.writeString(s);
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (value instanceof Number n) {
            g.writeNumber(n.longValue());
        } else {
            throw new IllegalArgumentException("no answer form for " + value.getClass() + " of " + type.simpleString());
        }
    }
}
