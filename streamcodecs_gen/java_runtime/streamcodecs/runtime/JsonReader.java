package streamcodecs.runtime;

/**
 * Incremental decoder of a JSON-family stream, as the Python runtime's reader: {@link #feed} any slice of it, then
 * take the messages it completes with {@link #next}. A bad message throws its {@link DecodeException} naming its
 * line, and reading goes on after it. A protocol's generated {@code Reader} names its codec.
 *
 * @param <M> the protocol's message type
 */
public abstract class JsonReader<M> {
    private final String protocol;
    private final int direction;
    private final JsonWire.Frames frames;

    /**
     * {@code direction}: the index of the direction messages are read in, or -1 for every direction in order;
     * {@code endLine}: each message is JSON then an {@code end} line (else one message per line).
     */
    protected JsonReader(String protocol, int direction, boolean endLine, int maxMessage) {
        this.protocol = protocol;
        this.direction = direction;
        this.frames = new JsonWire.Frames(endLine, maxMessage);
    }

    /** The message in {@code data[offset, offset + length)}, read in {@code direction}; {@code line} is named by
     * problems. */
    protected abstract M decode(byte[] data, int offset, int length, int direction, long line)
        throws DecodeException;

    public void feed(byte[] data) {
        frames.feed(data, 0, data.length);
    }

    public void feed(byte[] data, int offset, int length) {
        frames.feed(data, offset, length);
    }

    /** Lines consumed so far. */
    public long line() {
        return frames.line();
    }

    /** Bytes received but not yet part of a whole message. */
    public int buffered() {
        return frames.buffered();
    }

    /** The next whole message, or null when none is complete; a bad one throws (the next call goes on after it). */
    public M next() throws DecodeException {
        JsonWire.Frame frame = frames.next();
        if (frame == null) {
            return null;
        }
        if (frame.problem() != null) {
            throw new DecodeException(protocol, frame.problem(), frame.line(), -1, null);
        }
        return decode(frame.text(), 0, frame.text().length, direction, frame.line());
    }
}
