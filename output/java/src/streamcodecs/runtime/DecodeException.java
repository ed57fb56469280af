// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/DecodeException.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

/**
 * Input that is not a valid message, as the Python codec's {@code DecodeError}: the reason, and where it was found.
 *
 * <p>{@code offset} is the byte offset of the problem ({@code -1} when unknown), {@code line} the line number for
 * line-based protocols ({@code -1} when unknown), {@code field} the message field being read
 * ({@code SetupAppend.segment}, or {@code null}). The message reads as the Python one:
 * {@code "protocol: reason (line L, offset O, field F)"}.
 */
public final class DecodeException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String reason;
    private final long offset;
    private final long line;
    private final String field;

    public DecodeException(String protocol, String reason, long line, long offset, String field) {
        super(text(protocol, reason, line, offset, field), null, false, false);
        this.reason = reason;
        this.offset = offset;
        this.line = line;
        this.field = field;
    }

    public String reason() {
        return reason;
    }

    public long offset() {
        return offset;
    }

    public long line() {
        return line;
    }

    public String field() {
        return field;
    }

    static String text(String protocol, String reason, long line, long offset, String field) {
        StringBuilder where = new StringBuilder();
        if (line >= 0) {
            where.append("line ").append(line);
        }
        if (offset >= 0) {
            where.append(where.length() > 0 ? ", " : "").append("offset ").append(offset);
        }
        if (field != null && !field.isEmpty()) {
            where.append(where.length() > 0 ? ", " : "").append("field ").append(field);
        }
        String prefix = protocol == null || protocol.isEmpty() ? "" : protocol + ": ";
        return prefix + reason + (where.length() > 0 ? " (" + where + ")" : "");
    }
}
