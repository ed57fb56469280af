package streamcodecs.runtime;

import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * The kafka wire family's per-wire-type methods the generated codecs call, over {@link KafkaRules}: for each wire
 * type's stem ({@code uri}, {@code int32}, ...), {@code <stem>FromText} and {@code <stem>ToText} (a binary-mode
 * header's text) and {@code <stem>FromJson} and {@code <stem>ToJson} (a member of the JSON event format), each one
 * call to its type's rule. One instance per protocol, built from the Python runtime's patterns.
 */
public final class KafkaWire extends KafkaRules {
    /** The rules, from the Python runtime's patterns (each applied to whole texts, as {@code fullmatch}). */
    public KafkaWire(
        String forbidden,
        String simpleUri,
        String uri,
        String simpleReference,
        String uriReference,
        String mediaType,
        String parameter,
        String timestamp,
        String base64,
        String number,
        String uuid
    ) {
        super(
            forbidden, simpleUri, uri, simpleReference, uriReference, mediaType, parameter, timestamp, base64, number,
            uuid
        );
    }

    public String stringFromText(String text) throws Invalid {
        return checkText(text);
    }

    public String stringFromJson(Json value) throws Invalid {
        return checkText(jsonText(value));
    }

    public String stringToText(String value) throws Invalid {
        return checkText(value);
    }

    public String uriFromText(String text) throws Invalid {
        return checkUri(text);
    }

    public String uriFromJson(Json value) throws Invalid {
        return uriFromText(jsonText(value));
    }

    public String uriToText(String value) throws Invalid {
        return uriFromText(value);
    }

    public String uriReferenceFromText(String text) throws Invalid {
        return checkUriReference(text);
    }

    public String uriReferenceFromJson(Json value) throws Invalid {
        return uriReferenceFromText(jsonText(value));
    }

    public String uriReferenceToText(String value) throws Invalid {
        return uriReferenceFromText(value);
    }

    public String mediaTypeFromText(String text) throws Invalid {
        return checkMediaType(text);
    }

    public String mediaTypeFromJson(Json value) throws Invalid {
        return mediaTypeFromText(jsonText(value));
    }

    public String mediaTypeToText(String value) throws Invalid {
        return mediaTypeFromText(value);
    }

    public OffsetDateTime timestampFromText(String text) throws Invalid {
        return parseTimestamp(text);
    }

    public OffsetDateTime timestampFromJson(Json value) throws Invalid {
        return timestampFromText(jsonText(value));
    }

    public String timestampToText(OffsetDateTime value) throws Invalid {
        return timestampText(value);
    }

    public Boolean boolFromText(String text) throws Invalid {
        return parseBool(text);
    }

    public Boolean boolFromJson(Json value) throws Invalid {
        return jsonBool(value);
    }

    public String boolToText(Boolean value) throws Invalid {
        return value ? "true" : "false";
    }

    public String boolToJson(Boolean value) throws Invalid {
        return boolToText(value);
    }

    public Byte int8FromText(String text) throws Invalid {
        return (byte) integer(text, 8);
    }

    public Byte int8FromJson(Json value) throws Invalid {
        return (byte) jsonInteger(value, 8);
    }

    public String int8ToText(Byte value) throws Invalid {
        return value.toString();
    }

    public String int8ToJson(Byte value) throws Invalid {
        return int8ToText(value);
    }

    public Short int16FromText(String text) throws Invalid {
        return (short) integer(text, 16);
    }

    public Short int16FromJson(Json value) throws Invalid {
        return (short) jsonInteger(value, 16);
    }

    public String int16ToText(Short value) throws Invalid {
        return value.toString();
    }

    public String int16ToJson(Short value) throws Invalid {
        return int16ToText(value);
    }

    public Integer int32FromText(String text) throws Invalid {
        return (int) integer(text, 32);
    }

    public Integer int32FromJson(Json value) throws Invalid {
        return (int) jsonInteger(value, 32);
    }

    public String int32ToText(Integer value) throws Invalid {
        return value.toString();
    }

    public String int32ToJson(Integer value) throws Invalid {
        return int32ToText(value);
    }

    public Long int64FromText(String text) throws Invalid {
        return integer(text, 64);
    }

    public Long int64FromJson(Json value) throws Invalid {
        return jsonInteger(value, 64);
    }

    public String int64ToText(Long value) throws Invalid {
        return value.toString();
    }

    public String int64ToJson(Long value) throws Invalid {
        return int64ToText(value);
    }

    public Double float64FromText(String text) throws Invalid {
        return numberText(text, Double.POSITIVE_INFINITY);
    }

    public Double float64FromJson(Json value) throws Invalid {
        return jsonNumber(value, Double.POSITIVE_INFINITY);
    }

    public String float64ToText(Double value) throws Invalid {
        return PythonText.pythonFloat(finite(value, Double.POSITIVE_INFINITY));
    }

    /** The JSON number msgspec writes for the float (the JSON event format). */
    public String float64ToJson(Double value) throws Invalid {
        return PythonText.msgspecFloat(finite(value, Double.POSITIVE_INFINITY));
    }

    /** A float32 attribute: checked in range as the decimal's double (as Python does), held as the float32. */
    public Float float32FromText(String text) throws Invalid {
        return (float) numberText(text, FLOAT32_MAX);
    }

    public Float float32FromJson(Json value) throws Invalid {
        return (float) jsonNumber(value, FLOAT32_MAX);
    }

    /** The float32 as the Python runtime writes the shortest decimal that is the same float32. */
    public String float32ToText(Float value) throws Invalid {
        return PythonText.pythonFloat(finite(PythonText.float32Decimal(value), FLOAT32_MAX));
    }

    public String float32ToJson(Float value) throws Invalid {
        return PythonText.msgspecFloat(finite(PythonText.float32Decimal(value), FLOAT32_MAX));
    }

    public UUID uuidFromText(String text) throws Invalid {
        return parseUuid(text);
    }

    public UUID uuidFromJson(Json value) throws Invalid {
        return uuidFromText(jsonText(value));
    }

    public String uuidToText(UUID value) throws Invalid {
        return value.toString();
    }

    public String anyFromText(String text) throws Invalid {
        return parseAny(text);
    }

    public String anyFromJson(Json value) throws Invalid {
        return jsonAny(value);
    }

    /** The value's text as it is held (written as it is). */
    public String anyToText(String value) throws Invalid {
        return value;
    }

    public String anyToJson(String value) throws Invalid {
        return value;
    }

    public byte[] base64FromText(String text) throws Invalid {
        return parseBase64(text);
    }

    public byte[] base64FromJson(Json value) throws Invalid {
        return base64FromText(jsonText(value));
    }

    public String base64ToText(byte[] value) throws Invalid {
        return base64Text(value);
    }
}
