// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/JsonChecks.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

/**
 * The JSON family's encode checks that only the written bytes show, as the Python codec makes them after its one
 * serialization (``jsonchecks.check_written``): a message holding free-form values may nest no deeper than
 * {@link JsonParsing#MAX_DEPTH}, which decoding refuses. The generated encoder calls them for the messages the
 * generator says hold free-form values (``json_checks.written_checked``), the same ones the Python encoder checks.
 */
public final class JsonChecks {
    private JsonChecks() {
    }

    /** The refusal of JSON nested deeper than {@link JsonParsing#MAX_DEPTH} (the Python codec's words, no offset). */
    public static final String TOO_DEEP = Messages.TOO_DEEP;

    /**
     * Whether written JSON nests its arrays and objects deeper than {@link JsonParsing#MAX_DEPTH} (outside its
     * strings; the text is valid JSON, as the encoder wrote it). Fewer bytes than the limit cannot.
     */
    public static boolean tooDeep(byte[] data) {
        if (data.length <= JsonParsing.MAX_DEPTH) {
            return false;
        }
        int depth = 0;
        boolean string = false;
        for (int i = 0; i < data.length; i++) {
            byte b = data[i];
            if (string) {
                if (b == '\\') {
                    i++;
                } else if (b == '"') {
                    string = false;
                }
            } else if (b == '"') {
                string = true;
            } else if (b == '[' || b == '{') {
                if (++depth > JsonParsing.MAX_DEPTH) {
                    return true;
                }
            } else if (b == ']' || b == '}') {
                depth--;
            }
        }
        return false;
    }
}
