package streamcodecs.runtime;

/**
 * The codecs' entry points given null where they take bytes: an {@link IllegalArgumentException} in the words the
 * Python codec's {@code TypeError} says of None (a programming error, not input the codec refuses).
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

    /** {@code data}, unless null: {@code call} takes bytes or, in the Python codec, text too. */
    public static byte[] bytesOrText(byte[] data, String call) {
        if (data == null) {
            throw new IllegalArgumentException(Messages.notBytesOrText(call, NONE));
        }
        return data;
    }
}
