package dev.tokentrace.cli;

import dev.tokentrace.app.ProgressWatch;
import dev.tokentrace.ingest.follow.FollowProgress;
import dev.tokentrace.ingest.sink.SinkProgress;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The periodic one-line progress of long-running commands on stderr, e.g. {@code 12:00:04.512 INFO
 * ship - 20012 lines/s, 20012 events/s, lag 0 B in 4 files} or {@code 12:00:04.530 INFO sink -
 * 19980 rows/s, lag 12 records, 412 batches}: the same layout as the follow messages (time, level,
 * source, text; cli's simplelogger.properties). A line is printed at an interval when something
 * changed since the last line, and at least once every {@link #IDLE_EVERY} while idle, so an idle
 * follower neither floods the log nor goes silent. Runs on a daemon thread; rates are taken between
 * two snapshots.
 */
final class StatusLine implements AutoCloseable {
  /** An unchanged status is printed again after this long, so an idle follower shows it lives. */
  static final Duration IDLE_EVERY = Duration.ofMinutes(1);

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT);

  private final @Nullable ScheduledExecutorService timer;

  private StatusLine(@Nullable ScheduledExecutorService timer) {
    this.timer = timer;
  }

  /**
   * Prints {@code line.get()} (which starts with its source, {@code "ship: ..."}) every {@code
   * interval} when it changed, else once per {@link #IDLE_EVERY}; a zero interval prints nothing.
   */
  static StatusLine start(PrintWriter err, Duration interval, Supplier<String> line) {
    if (interval.isZero()) {
      return new StatusLine(null);
    }
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "tokentrace-status");
              thread.setDaemon(true);
              return thread;
            });
    long millis = interval.toMillis();
    Throttle throttle = new Throttle(IDLE_EVERY);
    Clock clock = Clock.systemDefaultZone();
    timer.scheduleAtFixedRate(
        () -> {
          String text = throttle.next(line.get(), clock.millis());
          if (text != null) {
            err.println(format(text, clock));
            err.flush();
          }
        },
        millis,
        millis,
        TimeUnit.MILLISECONDS);
    return new StatusLine(timer);
  }

  /**
   * The status lines of a following use case: a {@link Ship} line for a follower's progress and a
   * {@link Sink} line for a sink's, each every {@code interval}.
   */
  static ProgressWatch watch(PrintWriter err, Duration interval, double maxRejectRatio) {
    return (shipped, sunk) -> {
      StatusLine ship =
          shipped == null ? null : start(err, interval, new Ship(shipped, maxRejectRatio));
      StatusLine sink = sunk == null ? null : start(err, interval, new Sink(sunk));
      return () -> {
        if (ship != null) {
          ship.close();
        }
        if (sink != null) {
          sink.close();
        }
      };
    };
  }

  /**
   * {@code "ship: 3 lines/s"} as {@code "12:00:04.512 INFO ship - 3 lines/s"} at the clock's time.
   */
  static String format(String line, Clock clock) {
    int colon = line.indexOf(": ");
    String source = colon < 0 ? "status" : line.substring(0, colon);
    String text = colon < 0 ? line : line.substring(colon + 2);
    return TIME.format(LocalTime.now(clock)) + " INFO " + source + " - " + text;
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }

  /** Decides which status texts are printed: a changed one at once, an unchanged one when due. */
  static final class Throttle {
    private final long idleMillis;
    private @Nullable String last;
    private long lastAt;

    Throttle(Duration idleEvery) {
      this.idleMillis = idleEvery.toMillis();
    }

    /** The text to print at {@code nowMillis}, or null to stay quiet. */
    @Nullable String next(String text, long nowMillis) {
      if (text.equals(last) && nowMillis - lastAt < idleMillis) {
        return null;
      }
      last = text;
      lastAt = nowMillis;
      return text;
    }
  }

  /** Formats a follower's progress with rates since the previous call. Not thread-safe. */
  static final class Ship implements Supplier<String> {
    private final Supplier<FollowProgress> progress;
    private final double maxRejectRatio;
    private FollowProgress previous;

    Ship(Supplier<FollowProgress> progress, double maxRejectRatio) {
      this.progress = progress;
      this.maxRejectRatio = maxRejectRatio;
      this.previous = progress.get();
    }

    @Override
    public String get() {
      FollowProgress now = progress.get();
      double seconds = seconds(previous.nanoTime(), now.nanoTime());
      long lines = now.shipped().lines() - previous.shipped().lines();
      long events = now.shipped().events() - previous.shipped().events();
      long rejected = now.shipped().rejected() - previous.shipped().rejected();
      previous = now;
      StringBuilder text =
          new StringBuilder(
              String.format(
                  Locale.ROOT,
                  "ship: %.0f lines/s, %.0f events/s, lag %s in %d files, %d records committed",
                  lines / seconds,
                  events / seconds,
                  bytes(now.lagBytes()),
                  now.files(),
                  now.committedRecords()));
      if (lines > 0 && (double) rejected / lines > maxRejectRatio) {
        text.append(
            String.format(
                Locale.ROOT,
                ", rejects %.1f%% > --max-reject-ratio %.1f%%",
                100.0 * rejected / lines,
                100 * maxRejectRatio));
      }
      if (now.problems() > 0) {
        text.append(", ").append(now.problems()).append(" unreadable");
      }
      if (now.waitingForKafka()) {
        text.append(", waiting for kafka (reading paused)");
      }
      return text.toString();
    }
  }

  /** Formats a sink's progress with rates since the previous call. Not thread-safe. */
  static final class Sink implements Supplier<String> {
    private final Supplier<SinkProgress> progress;
    private SinkProgress previous;

    Sink(Supplier<SinkProgress> progress) {
      this.progress = progress;
      this.previous = progress.get();
    }

    @Override
    public String get() {
      SinkProgress now = progress.get();
      double seconds = seconds(previous.nanoTime(), now.nanoTime());
      long rows = now.rows() - previous.rows();
      previous = now;
      return String.format(
          Locale.ROOT,
          "sink: %.0f rows/s, lag %s, %d batches",
          rows / seconds,
          now.lag() < 0 ? "unknown" : now.lag() + " records",
          now.batches());
    }
  }

  private static double seconds(long from, long to) {
    return Math.max(1e-3, (to - from) / 1e9);
  }

  static String bytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    if (bytes < 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }
    return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
  }
}
