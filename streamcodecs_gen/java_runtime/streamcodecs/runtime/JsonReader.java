package streamcodecs.runtime;

import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Incremental decoder of a JSON-family stream, as the Python runtime's reader: {@link #feed} any slice of it, then
 * take the messages it completes with {@link #next}. A bad message throws its {@link DecodeException} naming its
 * line, and reading goes on after it. A protocol's generated {@code Reader} names its codec. The framing of the
 * family's streams ({@link Frames}: lines, or JSON followed by an {@code end} line) is here too.
 *
 * @param <M> the protocol's message type
 */
public abstract class JsonReader<M> {
    private final String protocol;
    private final int direction;
    private final Frames frames;

    /**
     * {@code direction}: the index of the direction messages are read in, or -1 for every direction in order;
     * {@code endLine}: each message is JSON then an {@code end} line (else one message per line).
     */
    protected JsonReader(String protocol, int direction, boolean endLine, int maxMessage) {
        this.protocol = protocol;
        this.direction = direction;
        this.frames = new Frames(endLine, maxMessage);
    }

    /** The message in {@code data[offset, offset + length)}, read in {@code direction}; {@code line} is named by
     * problems. */
    protected abstract M decode(byte[] data, int offset, int length, int direction, long line)
        throws DecodeException;

    public void feed(byte[] data) {
        frames.feed(Arguments.bytes(data, "feed"), 0, data.length);
    }

    /** Feeds {@code data[offset, offset + length)} (refused as {@link Frames#feed} refuses it). */
    public void feed(byte[] data, int offset, int length) {
        frames.feed(data, offset, length);
    }

    /** Lines of the messages cut so far. */
    public long line() {
        return frames.line();
    }

    /** Bytes received but not yet part of a whole message. */
    public int buffered() {
        return frames.buffered();
    }

    /** The next whole message, or null when none is complete; a bad one throws (the next call goes on after it). */
    public M next() throws DecodeException {
        Frame frame = frames.next();
        if (frame == null) {
            return null;
        }
        if (frame.problem() != null) { // a message too long: where it passed the limit
            throw new DecodeException(protocol, frame.problem(), frame.line(), frames.maxMessage, null);
        }
        return decode(frame.text(), 0, frame.text().length, direction, frame.line());
    }

    /** A whole message cut from a stream: its text and first line, or the problem that takes its place. */
    public record Frame(byte[] text, long line, String problem) {
    }

    /**
     * Cuts a byte stream into messages: one per line ({@code endLine} false; blank lines skipped), or JSON then a
     * line that is exactly {@code end} ({@code \r\n} line ends read as {@code \n}). A message longer than
     * {@code maxMessage} bytes becomes a problem in its place as soon as its bytes pass the limit (its end line
     * may never come), and its bytes are dropped, so reading goes on after it.
     *
     * <p>Bounds: between feeds it holds the line being received (at most {@code maxMessage + 1} bytes, or 5 of a
     * message being dropped: enough to tell its end line) in a buffer that grows by doubling and is given back
     * when it is four times what it holds (and over {@value #KEEP} bytes), and with an end line the message's
     * lines before it (at most {@code maxMessage + 1} bytes). A feed adds its own bytes at most while it is cut.
     * Each byte is searched for a line end once and copied a bounded number of times, so a message fed in small
     * pieces costs time linear in its length.
     */
    public static final class Frames {
        /** The smallest buffer given back after a long line: smaller ones are kept. */
        static final int KEEP = 1 << 16;
        private final boolean endLine;
        private final int maxMessage;
        private final ArrayDeque<Frame> ready = new ArrayDeque<>();
        /** The line being received, {@code pending[0, size)}: no line end in it. */
        private byte[] pending = new byte[256];
        private int size;
        /** The message's lines so far, each with a {@code \n} (a CR before it dropped), end line mode only. */
        private final ByteArrayOutputStream message = new ByteArrayOutputStream();
        /** The bytes {@code message} holds as they were received (CRs counted). */
        private int received;
        private long line;
        private long first = -1;
        private boolean tooLong;
        private static final byte[] END_CR = {'e', 'n', 'd', '\r'};

        public Frames(boolean endLine, int maxMessage) {
            this.endLine = endLine;
            this.maxMessage = maxMessage;
        }

        /** Lines of the messages cut so far (a message whose end line has not come is not counted yet, as in the
         * Python Reader). */
        public long line() {
            return first < 0 ? line : first - 1;
        }

        /**
         * Bytes received but not yet part of a whole message: those after the last one, as received (a CR
         * counted), or 0 while a message refused as too long is dropped up to its end (its error took its place).
         */
        public int buffered() {
            return tooLong ? 0 : size + received;
        }

        /**
         * Cuts {@code data[offset, offset + length)}: null is refused as the Python Reader refuses None, and an
         * offset and length that are not a slice of {@code data} in the catalog's words (an
         * {@link IndexOutOfBoundsException}), before anything is read.
         */
        public void feed(byte[] data, int offset, int length) {
            Arguments.slice(Arguments.bytes(data, "feed"), offset, length, "feed");
            int end = offset + length;
            int start = offset;
            for (int i = offset; i < end; i++) {
                if (data[i] == '\n') {
                    if (size == 0) {
                        take(data, start, i);
                    } else { // the line began in an earlier feed: its rest joins it (bytes copied once)
                        append(data, start, i - start);
                        take(pending, 0, size);
                        size = 0;
                    }
                    start = i + 1;
                }
            }
            append(data, start, end - start);
            if (!endLine) {
                if (size > maxMessage && !tooLong) {
                    ready.add(new Frame(null, line + 1, Messages.tooLong("line", maxMessage)));
                    tooLong = true;
                }
                if (tooLong) {
                    size = 0;
                }
            } else {
                if (!tooLong && textSoFar() > maxMessage) {
                    refuse();
                }
                if (tooLong && size > 5) {
                    // the rest of the message is dropped up to its end line; a line of 5 bytes or more is not one
                    size = 5;
                }
            }
            if (pending.length > KEEP && size < pending.length / 4) {
                pending = Arrays.copyOf(pending, Math.max(size * 2, KEEP));
            }
        }

        /** Adds {@code data[offset, offset + length)} to the line being received (of a line being dropped, only
         * what is kept of it). */
        private void append(byte[] data, int offset, int length) {
            if (tooLong) {
                length = Math.min(length, endLine ? Math.max(5 - size, 0) : 0);
            }
            if (length == 0) {
                return;
            }
            if (size + length > pending.length) {
                pending = Arrays.copyOf(pending, Math.max(pending.length * 2, size + length));
            }
            System.arraycopy(data, offset, pending, size, length);
            size += length;
        }

        /**
         * How many bytes of the pending message's JSON text are certain, its end line not come yet: its lines so far
         * with the line end between them, and the line being received unless it may still become the end line (then
         * less the line end before it too), less a last {@code \r} (it may begin a {@code \r\n}). The Python
         * Reader counts alike, so a message of many short lines is refused at the same feed.
         */
        private int textSoFar() {
            int stored = Math.max(message.size() - 1, 0);
            int end = size;
            if (end <= 4 && Arrays.equals(pending, 0, end, END_CR, 0, end)) {
                return stored;
            }
            if (end > 0 && pending[end - 1] == '\r') {
                end--;
            }
            return stored + (message.size() > 0 ? 1 : 0) + end;
        }

        /** The pending message is too long: a problem in its place, at its first line, and its bytes dropped. */
        private void refuse() {
            ready.add(new Frame(null, first < 0 ? line + 1 : first, Messages.tooLong("message", maxMessage)));
            tooLong = true;
            message.reset();
            received = 0;
        }

        private void take(byte[] all, int start, int end) {
            line++;
            int stop = end > start && all[end - 1] == '\r' ? end - 1 : end;
            if (!endLine) {
                if (tooLong) {
                    tooLong = false;
                } else if (end - start > maxMessage) {
                    ready.add(new Frame(null, line, Messages.tooLong("line", maxMessage)));
                } else if (!blank(all, start, end - start)) {
                    ready.add(new Frame(Arrays.copyOfRange(all, start, end), line, null));
                }
                return;
            }
            if (first < 0) {
                first = line;
            }
            if (stop - start == 3 && all[start] == 'e' && all[start + 1] == 'n' && all[start + 2] == 'd') {
                // the message's lines without the line end before its end line, as the Python Reader cuts it
                byte[] text = message.size() > 0 ? Arrays.copyOf(message.toByteArray(), message.size() - 1)
                        : new byte[0];
                message.reset();
                received = 0;
                long at = first;
                first = -1;
                if (tooLong) { // (a text longer than the limit was refused as it passed it)
                    tooLong = false;
                } else {
                    ready.add(new Frame(text, at, null)); // (blank: the codec refuses it as an empty message)
                }
                return;
            }
            if (!tooLong) {
                message.write(all, start, stop - start);
                message.write('\n');
                received += end - start + 1;
                if (message.size() - 1 > maxMessage) {
                    refuse();
                }
            }
        }

        /** The next whole message, or null. */
        public Frame next() {
            return ready.poll();
        }
    }

    /**
     * The length of the JSON text of one {@code <json>\nend\n} frame: the text stops at the {@code \n} before its
     * {@code end} line (that line and its own line end may be absent). A Storm codec's {@code decode} calls it on
     * the frame as it is, CRs and all (a CR is whitespace wherever the text is JSON, so the message read is the
     * same), and for a frame it refuses once more on {@link #lineFeeds}'s copy, so that the refusal's offset is the
     * one in the text a Reader cuts out of a stream ({@code \r\n} line ends read as {@code \n}).
     */
    public static int stripEndLine(byte[] data, int offset, int length) {
        int end = offset + length;
        while (end > offset && (data[end - 1] == '\n' || data[end - 1] == '\r')) {
            end--;
        }
        int size = end - offset;
        boolean endWord = size >= 3 && data[end - 3] == 'e' && data[end - 2] == 'n' && data[end - 1] == 'd';
        if (endWord && size == 3) {
            return 0;
        }
        return endWord && data[end - 4] == '\n' ? size - 4 : size;
    }

    /** Whether {@code data[offset, offset + length)} holds a CR, which {@link #lineFeeds} reads. */
    public static boolean hasCarriageReturn(byte[] data, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            if (data[i] == '\r') {
                return true;
            }
        }
        return false;
    }

    /** A copy of {@code data[offset, offset + length)} with its CRLF line ends read as LF, as a Reader reads them. */
    public static byte[] lineFeeds(byte[] data, int offset, int length) {
        ByteArrayOutputStream copy = new ByteArrayOutputStream(length);
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            if (data[i] != '\r' || i + 1 == end || data[i + 1] != '\n') {
                copy.write(data[i]);
            }
        }
        return copy.toByteArray();
    }

    /** Whether the bytes are JSON whitespace only. */
    public static boolean blank(byte[] data, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            byte b = data[i];
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return false;
            }
        }
        return true;
    }
}
