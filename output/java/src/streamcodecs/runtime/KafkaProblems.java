// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/KafkaProblems.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

import java.math.BigInteger;

/**
 * The kafka wire family's problems, worded as the Python codec words them ({@code templates/py/kafka}): an
 * attribute missing, not its constant, breaking its wire type's rule or too short, as the codec's
 * {@link DecodeException} and {@link EncodeException} naming the attribute, and Python's {@code repr} of the values
 * they quote. {@link KafkaEvents} (one per protocol) raises them.
 */
public abstract class KafkaProblems {
    /** The protocol the problems name. */
    protected final String protocol;

    protected KafkaProblems(String protocol) {
        this.protocol = protocol;
    }

    /** A decoding problem naming the field. */
    public DecodeException decodeError(String reason, String field) {
        return new DecodeException(protocol, reason, -1, -1, field);
    }

    /** An encoding problem naming the field. */
    public EncodeException encodeError(String reason, String field) {
        return new EncodeException(protocol, reason, field);
    }

    /**
     * The refusal of a text the JSON event format cannot hold (a lone surrogate: {@link CompactJson}'s problem). Not
     * reached by the generated codecs, whose texts are checked before they are written.
     */
    public EncodeException unwritable(JsonProblem problem) {
        return encodeError(problem.reason(), problem.field());
    }

    /** Python's {@code repr} of a text, {@code None} for null. */
    public static String repr(String text) {
        return text == null ? "None" : PythonText.repr(text);
    }

    /** A JSON value as Python's {@code repr} of what it decodes to (containers elided). */
    public static String repr(KafkaWire.Json value) {
        switch (value.kind) {
            case KafkaWire.STRING:
                return PythonText.repr(value.text);
            case KafkaWire.TRUE:
                return "True";
            case KafkaWire.FALSE:
                return "False";
            case KafkaWire.NULL:
                return "None";
            case KafkaWire.OBJECT:
                return "{...}";
            case KafkaWire.ARRAY:
                return "[...]";
            case KafkaWire.INTEGER:
                return new BigInteger(value.text).toString(); // Python's int: -0 is 0
            case KafkaWire.FLOAT:
                return PythonText.pythonFloat(Double.parseDouble(value.text));
            default:
                return value.text;
        }
    }

    /** A required attribute is absent (decoding). */
    public DecodeException missing(String attribute) {
        return decodeError(missingReason(attribute), attribute);
    }

    /** A required attribute is absent (encoding). */
    public EncodeException missingOnEncode(String attribute) {
        return encodeError(missingReason(attribute), attribute);
    }

    private static String missingReason(String attribute) {
        return Messages.attributeMissing(repr(attribute));
    }

    /** An attribute with a constant value has another; {@code found} is its {@code repr}. */
    public DecodeException notConstant(String attribute, String constant, String found) {
        return decodeError(notConstantReason(attribute, constant) + found, attribute);
    }

    /** {@link #notConstant} when encoding. */
    public EncodeException notConstantOnEncode(String attribute, String constant, String value) {
        return encodeError(notConstantReason(attribute, constant) + repr(value), attribute);
    }

    private static String notConstantReason(String attribute, String constant) {
        return Messages.attributeNotConst(repr(attribute), repr(constant), "");
    }

    /** An attribute's value breaks its wire type's rule (decoding). */
    public DecodeException invalid(String attribute, KafkaWire.Invalid e) {
        return decodeError(Messages.attributeProblem(repr(attribute), e.getMessage()), attribute);
    }

    /** An attribute's value breaks its wire type's rule (encoding). */
    public EncodeException invalidOnEncode(String attribute, KafkaWire.Invalid e) {
        return encodeError(Messages.attributeProblem(repr(attribute), e.getMessage()), attribute);
    }

    /** The reason a text attribute of at least {@code minLength} characters is shorter, or null when it is not. */
    private static String tooShort(String attribute, String text, int minLength) {
        if (text.length() >= minLength) {
            return null;
        }
        return Messages.attributeProblem(
            repr(attribute), minLength == 1 ? Messages.NOT_EMPTY : Messages.fewerCharacters(minLength)
        );
    }

    /** Checks the length of a text attribute's value (a header's text, or a JSON value when it is a string). */
    public void checkLength(String attribute, String text, int minLength) throws DecodeException {
        String reason = tooShort(attribute, text, minLength);
        if (reason != null) {
            throw decodeError(reason, attribute);
        }
    }

    /** {@link #checkLength} for a member of the JSON event format: only a string has a length to check. */
    public void checkLength(String attribute, KafkaWire.Json value, int minLength) throws DecodeException {
        if (value.kind == KafkaWire.STRING) {
            checkLength(attribute, value.text, minLength);
        }
    }

    /** {@link #checkLength} when encoding. */
    public void checkLengthOnEncode(String attribute, String text, int minLength) throws EncodeException {
        String reason = tooShort(attribute, text, minLength);
        if (reason != null) {
            throw encodeError(reason, attribute);
        }
    }
}
