// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/Probe.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.spark.sql.api.java.UDF0;

/**
 * Which jar the session loaded: the fingerprint of the sources it was built from (the jar's
 * {@code META-INF/streamcodecs/fingerprint}). The Python package compares it with its own jar's before it uses the
 * JVM path, so a session started with another version of the jar falls back to Python instead of disagreeing.
 */
public final class Probe implements UDF0<String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String call() {
        return fingerprint();
    }

    public static String fingerprint() {
        try (InputStream in = Probe.class.getResourceAsStream("/META-INF/streamcodecs/fingerprint")) {
            return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
