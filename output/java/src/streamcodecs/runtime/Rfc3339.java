// Copied from streamcodecs_gen/java_runtime/streamcodecs/runtime/Rfc3339.java by ./generator.py;
// edit that file, not this copy.
package streamcodecs.runtime;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The RFC 3339 text of a time, written alike by every family as the Python runtime writes it:
 * {@code YYYY-MM-DDTHH:MM:SS}, {@code .ffffff} only when there are microseconds, then {@code Z} or {@code +hh:mm}.
 * Encode never writes what decode refuses: an offset with seconds has no such text (refused in the Python encoder's
 * words), and a time outside the years 0001 to 9999 at its offset is written at the offset nearest to UTC (at most
 * 23:59, beyond what Java holds) that puts it inside them: the text the decoders read such an instant from (they hold
 * an offset beyond 18:00 at UTC), or another naming the same instant; one no such offset puts there has none.
 */
public final class Rfc3339 {
    private Rfc3339() {
    }

    /** The first and the last instant of the years RFC 3339 writes, as local times. */
    private static final LocalDateTime FIRST = LocalDateTime.of(1, 1, 1, 0, 0);
    private static final LocalDateTime LAST = LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999);
    /** The largest UTC offset RFC 3339 writes, in minutes (23:59; Java's offsets stop at 18:00). */
    private static final int MAX_OFFSET = 23 * 60 + 59;
    /** The first and the last microsecond of the years 0001 to 9999 (UTC), from the epoch: Spark's TIMESTAMP range,
     * Python's datetime's, the years RFC 3339 writes and the MessagePack timestamps the codecs read. */
    private static final long FIRST_MICROS = -62_135_596_800_000_000L;
    private static final long LAST_MICROS = 253_402_300_799_999_999L;

    /** Whether the instant {@code micros} microseconds from the epoch is in the years 0001 to 9999 (UTC). */
    public static boolean inTheYears(long micros) {
        return micros >= FIRST_MICROS && micros <= LAST_MICROS;
    }

    /** Why {@code value} has no RFC 3339 text, in the catalog's words; null when it has one. */
    public static String problem(OffsetDateTime value) {
        int seconds = value.getOffset().getTotalSeconds();
        if (seconds % 60 != 0) {
            return Messages.offsetWithSeconds(timedelta(seconds));
        }
        return Math.abs(minutes(value)) > MAX_OFFSET ? Messages.outsideTheYears(value) : null;
    }

    /** The RFC 3339 text of {@code value}, which has one ({@link #problem} is null). */
    public static String text(OffsetDateTime value) {
        int minutes = (int) minutes(value);
        LocalDateTime local = value.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime().plusMinutes(minutes);
        StringBuilder out = new StringBuilder(32);
        int year = local.getYear();
        String y = Integer.toString(year);
        out.append(year >= 1000 ? y : "0".repeat(Math.max(0, 4 - y.length())) + y);
        two(out.append('-'), local.getMonthValue());
        two(out.append('-'), local.getDayOfMonth());
        two(out.append('T'), local.getHour());
        two(out.append(':'), local.getMinute());
        two(out.append(':'), local.getSecond());
        int micros = local.getNano() / 1000;
        if (micros != 0) {
            String m = Integer.toString(micros);
            out.append('.').append("0".repeat(6 - m.length())).append(m);
        }
        if (minutes == 0) {
            out.append('Z');
        } else {
            out.append(minutes < 0 ? '-' : '+');
            minutes = Math.abs(minutes);
            two(out, minutes / 60);
            two(out.append(':'), minutes % 60);
        }
        return out.toString();
    }

    /** The offset {@code value} is written at, in minutes: its own when that puts it inside the years, else the one
     * nearest UTC that does (beyond {@link #MAX_OFFSET} when none of at most that does). */
    private static long minutes(OffsetDateTime value) {
        LocalDateTime local = value.toLocalDateTime();
        if (!local.isBefore(FIRST) && !local.isAfter(LAST)) {
            return value.getOffset().getTotalSeconds() / 60;
        }
        LocalDateTime utc = value.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        return utc.isAfter(LAST) ? -minutesUp(Duration.between(LAST, utc))
                : utc.isBefore(FIRST) ? minutesUp(Duration.between(utc, FIRST)) : 0;
    }

    /** A duration's whole minutes, rounded up. */
    private static long minutesUp(Duration d) {
        long whole = d.toMinutes();
        return d.equals(Duration.ofMinutes(whole)) ? whole : whole + 1;
    }

    /** An offset of {@code seconds} as Python's timedelta says it: {@code 1:00:30}, {@code -1 day, 22:59:30}. */
    private static String timedelta(int seconds) {
        int rest = seconds < 0 ? seconds + 86_400 : seconds;
        String clock = rest / 3600 + ":" + (rest / 60 % 60 < 10 ? "0" : "") + rest / 60 % 60 + ":"
                + (rest % 60 < 10 ? "0" : "") + rest % 60;
        return seconds < 0 ? "-1 day, " + clock : clock;
    }

    private static void two(StringBuilder out, int value) {
        out.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }
}
