// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/EncodeException.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

/**
 * A value the wire cannot carry (out of range, too long, wrong type, missing), as the Python codec's
 * {@code EncodeError}: {@code "protocol: field: reason"}.
 */
public final class EncodeException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String reason;
    private final String field;

    public EncodeException(String protocol, String reason, String field) {
        super(text(protocol, reason, field), null, false, false);
        this.reason = reason;
        this.field = field;
    }

    public String reason() {
        return reason;
    }

    public String field() {
        return field;
    }

    static String text(String protocol, String reason, String field) {
        String prefix = protocol == null || protocol.isEmpty() ? "" : protocol + ": ";
        return prefix + (field == null || field.isEmpty() ? reason : field + ": " + reason);
    }
}
