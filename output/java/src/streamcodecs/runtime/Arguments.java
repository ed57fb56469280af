// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/Arguments.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

/**
 * The codecs' entry points given null where they take bytes: an {@link IllegalArgumentException} in the words the
 * Python codec's {@code TypeError} says of None (a programming error, not input the codec refuses); given an offset
 * and length that are not a slice of the bytes, an {@link IndexOutOfBoundsException} in the catalog's words.
 */
public final class Arguments {
    /** The name of null's type as the Python codec names None's. */
    public static final String NONE = "NoneType";

    private Arguments() {
    }

    /** {@code data}, unless null: {@code call} (decode, feed) takes bytes. */
    public static byte[] bytes(byte[] data, String call) {
        if (data == null) {
            throw new IllegalArgumentException(Messages.notBytes(call, NONE));
        }
        return data;
    }

    /**
     * {@code data} (not null) when {@code [offset, offset + length)} is a slice of it: else an
     * {@link IndexOutOfBoundsException} in the catalog's words ({@code call}: decode, feed).
     */
    public static byte[] slice(byte[] data, int offset, int length, String call) {
        if (offset < 0 || length < 0 || length > data.length - offset) {
            throw new IndexOutOfBoundsException(Messages.notASlice(call, offset, length, data.length));
        }
        return data;
    }

    /** {@code data}, unless null: {@code call} takes bytes or, in the Python codec, text too. */
    public static byte[] bytesOrText(byte[] data, String call) {
        if (data == null) {
            throw new IllegalArgumentException(Messages.notBytesOrText(call, NONE));
        }
        return data;
    }
}
