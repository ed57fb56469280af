// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/BinaryReader.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Incremental decoder of a binary protocol's byte stream, as the Python runtime's {@code frames.Reader}: feed any
 * slice of the stream, get back the whole frames it completes. A frame cut across {@code feed} calls is gathered in
 * one buffer of its size as its bytes arrive. A frame with a valid header but a bad payload throws a
 * {@link DecodeException} whose offset is the stream offset ({@link #decoded()} then holds the messages before it in
 * that call) and the next {@code feed} goes on after it; a bad header leaves the stream unreadable, and every later
 * {@code feed} throws. A protocol's generated {@code Reader} names its codec.
 *
 * @param <M> the protocol's message type
 */
public abstract class BinaryReader<M> {
    private final String protocol;
    private final int headerSize;
    private final int lengthSize;
    private final int maxFrame;
    private long offset;
    private byte[] head = new byte[0]; // the start of a cut frame's header, until all of it is in
    private byte[] frame; // a cut frame whose header is in: its whole size, filled up to `filled`
    private int filled;
    private byte[] backlog = new byte[0]; // bytes after a bad frame, read first by the next feed
    private DecodeException broken;
    private List<M> decoded = new ArrayList<>();

    protected BinaryReader(String protocol, int headerSize, int lengthSize, int maxFrame) {
        this.protocol = protocol;
        this.headerSize = headerSize;
        this.lengthSize = lengthSize;
        this.maxFrame = maxFrame;
    }

    /** The message of one frame: its header gave {@code code}, its payload is {@code in}, it starts at start. */
    protected abstract M payload(BinaryWire.In in, int code, int start) throws DecodeException;

    /** Stream offset of the first byte not yet part of a whole frame. */
    public long offset() {
        return offset;
    }

    /** Bytes received but not yet part of a whole frame. */
    public int buffered() {
        return head.length + filled + backlog.length;
    }

    /** The messages the last {@code feed} decoded before the frame it threw for. */
    public List<M> decoded() {
        return decoded;
    }

    private int length(byte[] buf, int at) {
        BinaryWire.In in = new BinaryWire.In(protocol, buf, at + headerSize - lengthSize, at + headerSize);
        return in.signed(lengthSize);
    }

    private int code(byte[] buf, int at) {
        BinaryWire.In in = new BinaryWire.In(protocol, buf, at, at + headerSize - lengthSize);
        return in.signed(headerSize - lengthSize);
    }

    private DecodeException breakAt(int length, long at, List<M> messages) {
        broken = new DecodeException(protocol, Messages.payloadOutside(length, maxFrame - headerSize), -1, at, null);
        decoded = messages;
        return broken;
    }

    private DecodeException moved(DecodeException e, long by, List<M> messages) {
        decoded = messages;
        return new DecodeException(protocol, e.reason(), -1, by + Math.max(e.offset(), 0), e.field());
    }

    /** Copy into the cut frame the bytes it still lacks; return how many were taken from {@code data[pos:]}. */
    private int take(byte[] data, int pos, List<M> messages) throws DecodeException {
        int taken = 0;
        if (frame == null) {
            taken = Math.min(headerSize - head.length, data.length - pos);
            int had = head.length;
            head = Arrays.copyOf(head, had + taken);
            System.arraycopy(data, pos, head, had, taken);
            if (head.length < headerSize) {
                return taken;
            }
            int length = length(head, 0);
            if (length < 0 || (long) length + headerSize > maxFrame) {
                throw breakAt(length, offset + headerSize - lengthSize, messages);
            }
            frame = Arrays.copyOf(head, headerSize + length);
            filled = headerSize;
            head = new byte[0];
        }
        int more = Math.min(frame.length - filled, data.length - pos - taken);
        System.arraycopy(data, pos + taken, frame, filled, more);
        filled += more;
        return taken + more;
    }

    /** The whole frames that {@code data} (the next bytes of the stream) completes. */
    public List<M> feed(byte[] data) throws DecodeException {
        Arguments.bytes(data, "feed");
        if (broken != null) {
            throw broken;
        }
        if (backlog.length > 0) {
            byte[] joined = Arrays.copyOf(backlog, backlog.length + data.length);
            System.arraycopy(data, 0, joined, backlog.length, data.length);
            data = joined;
            backlog = new byte[0];
        }
        List<M> messages = new ArrayList<>();
        decoded = messages;
        long base = offset + head.length + filled; // stream offset of data[0]
        int size = data.length;
        int pos = 0;
        if (head.length > 0 || frame != null) {
            pos = take(data, 0, messages);
            if (frame == null || filled < frame.length) {
                return messages;
            }
            byte[] whole = frame;
            frame = null;
            filled = 0;
            long start = offset;
            offset = base + pos;
            try {
                messages.add(payload(new BinaryWire.In(protocol, whole, headerSize, whole.length), code(whole, 0), 0));
            } catch (DecodeException e) {
                backlog = Arrays.copyOfRange(data, pos, size);
                throw moved(e, start, messages);
            }
        }
        while (size - pos >= headerSize) {
            int length = length(data, pos);
            if (length < 0 || (long) length + headerSize > maxFrame) {
                offset = base + pos;
                throw breakAt(length, base + pos + headerSize - lengthSize, messages);
            }
            int end = pos + headerSize + length;
            if (end > size || end < 0) {
                break;
            }
            try {
                messages.add(payload(new BinaryWire.In(protocol, data, pos + headerSize, end), code(data, pos), pos));
            } catch (DecodeException e) {
                offset = base + end; // the frame's end is known: go on after it next time
                backlog = Arrays.copyOfRange(data, end, size);
                throw moved(e, base, messages);
            }
            pos = end;
        }
        offset = base + pos;
        if (pos < size) {
            take(data, pos, messages); // the start of a cut frame: copied once, into its buffer
        }
        return messages;
    }
}
