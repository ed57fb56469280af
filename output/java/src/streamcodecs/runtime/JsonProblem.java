// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/JsonProblem.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

/**
 * What is wrong with a JSON-family value, and where: a path built on the way out ({@code .records[0].data}).
 *
 * <p>Problems are stackless; the generated codec turns one into a {@link DecodeException} or
 * {@link EncodeException}.
 */
public final class JsonProblem extends Exception {
    private static final long serialVersionUID = 1L;

    private final String reason;
    private final boolean malformed;
    private final long offset;
    private String path = "";
    private boolean absent;
    private long reading = -1;

    public JsonProblem(String reason) {
        this(reason, false, -1);
    }

    JsonProblem(String reason, boolean malformed, long offset) {
        super(reason, null, false, false);
        this.reason = reason;
        this.malformed = malformed;
        this.offset = offset;
    }

    public String reason() {
        return reason;
    }

    /** Whether the text is not JSON at all (no other reading of it can do better). */
    public boolean malformed() {
        return malformed;
    }

    public long offset() {
        return offset;
    }

    /** The field path, as the Python codec names it ({@code records[0].data}), or null. */
    public String field() {
        return path.isEmpty() ? null : path.startsWith(".") ? path.substring(1) : path;
    }

    /** This problem, inside the value of {@code key} (null: not known). */
    public JsonProblem at(String key) {
        if (key != null) {
            path = "." + key + path;
        }
        return this;
    }

    public JsonProblem at(int index) {
        path = "[" + index + "]" + path;
        return this;
    }

    JsonProblem inMap() {
        path = "[...]" + path;
        return this;
    }

    /** Where the parser was when the typed path refused (its token's offset in the text), or -1: which occurrence of a
     * repeated key on the path it was reading ({@link JsonPlaces#valueAt}). */
    public long reading() {
        return reading;
    }

    /** This problem, raised with the parser at the token at {@code at} (the first such place is kept). */
    public JsonProblem reading(long at) {
        if (reading < 0) {
            reading = at;
        }
        return this;
    }

    /** Whether the problem is a missing field (whose path names the field; the object lacking it is where). */
    public boolean absent() {
        return absent;
    }

    public static JsonProblem missing(String key) {
        JsonProblem problem = new JsonProblem(Messages.missingField(key)).at(key);
        problem.absent = true;
        return problem;
    }
}
