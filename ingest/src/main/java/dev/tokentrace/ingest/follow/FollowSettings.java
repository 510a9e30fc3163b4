package dev.tokentrace.ingest.follow;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.parse.GpuMap;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseSettings;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Settings of a {@link Follower}. Immutable.
 *
 * @param shipperId {@value #SHIPPER_ID_DOC}
 * @param sources the files and globs to follow, each with its instance name if given
 * @param instance {@value ParseSettings#DEFAULT_INSTANCE_DOC}
 * @param naming {@value InstanceNaming#DOC}
 * @param engine the engine of every file, or null to detect each file's ({@value #DETECT_DOC})
 * @param zone {@value ParseSettings#DEFAULT_ZONE_DOC}
 * @param year the year of the first timestamp of logs without years, or null to infer it
 * @param maxLineBytes {@value LineSplitter#MAX_LINE_BYTES_DOC}
 * @param startAt {@value StartAt#DOC}
 * @param once {@value #ONCE_DOC}
 * @param timing intervals and limits
 * @param gpuMap GPU telemetry: the instance of each GPU a file names ({@code --gpu-map}), applied
 *     to each GPU telemetry line as it arrives (docs/formats/gpu.md#one-file-several-instances)
 */
public record FollowSettings(
    String shipperId,
    List<SourceSpec> sources,
    String instance,
    InstanceNaming naming,
    @Nullable Engine engine,
    ZoneId zone,
    @Nullable Integer year,
    int maxLineBytes,
    StartAt startAt,
    boolean once,
    Timing timing,
    GpuMap gpuMap) {

  public static final String SHIPPER_ID_DOC =
      "this shipper's name: its checkpoints (file positions) are kept in Kafka under it, and"
          + " only one shipper with a name can run at a time (a second one fences the first"
          + " off). Keep it stable across restarts; give each shipper on a host its own";

  public static final String DETECT_DOC =
      "a new file's engine is detected from its first lines: as soon as one engine is clearly"
          + " best and has produced 3 events (or 20 lines were read), after the detection timeout"
          + " with whatever there is, and at 400 lines at the latest (no engine then: the file is"
          + " reported and skipped). A rotated file's successor keeps its engine";

  public static final String ONCE_DOC =
      "read what the files hold now (resuming from the checkpoint), ship it and exit instead of"
          + " following: for cron jobs and catching up. A last line without its newline and a"
          + " record still being grouped (a traceback at the very end) wait for the next run";

  private static final Pattern SHIPPER_ID = Pattern.compile("[A-Za-z0-9._-]+");

  public FollowSettings {
    requireNonNull(shipperId, "shipperId is null");
    requireNonNull(sources, "sources is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(naming, "naming is null");
    requireNonNull(zone, "zone is null");
    requireNonNull(startAt, "startAt is null");
    requireNonNull(timing, "timing is null");
    requireNonNull(gpuMap, "gpuMap is null");
    sources = List.copyOf(sources);
    if (!SHIPPER_ID.matcher(shipperId).matches()) {
      throw new IllegalArgumentException(
          "shipperId must match " + SHIPPER_ID.pattern() + ": '" + shipperId + "'");
    }
    if (sources.isEmpty()) {
      throw new IllegalArgumentException("sources is empty");
    }
    if (instance.isBlank()) {
      throw new IllegalArgumentException("instance is blank");
    }
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException("maxLineBytes must be >= 1: " + maxLineBytes);
    }
  }

  /** Without a GPU map: every GPU telemetry line keeps its file's instance. */
  public FollowSettings(
      String shipperId,
      List<SourceSpec> sources,
      String instance,
      InstanceNaming naming,
      @Nullable Engine engine,
      ZoneId zone,
      @Nullable Integer year,
      int maxLineBytes,
      StartAt startAt,
      boolean once,
      Timing timing) {
    this(
        shipperId,
        sources,
        instance,
        naming,
        engine,
        zone,
        year,
        maxLineBytes,
        startAt,
        once,
        timing,
        GpuMap.NONE);
  }

  /** The transactional id of this shipper's producer. */
  public String transactionalId() {
    return "tokentrace-ship-" + shipperId;
  }

  /**
   * Intervals and limits of following.
   *
   * @param poll {@value #POLL_DOC}
   * @param commit {@value #COMMIT_DOC}
   * @param rescan {@value #RESCAN_DOC}
   * @param detect {@value #DETECT_TIMEOUT_DOC}
   * @param rotatedGrace {@value #ROTATED_GRACE_DOC}
   * @param maxPendingRecords {@value #MAX_PENDING_DOC}
   */
  public record Timing(
      Duration poll,
      Duration commit,
      Duration rescan,
      Duration detect,
      Duration rotatedGrace,
      int maxPendingRecords) {
    public static final Duration DEFAULT_POLL = Duration.ofMillis(100);
    public static final String POLL_DOC =
        "how often files are checked for new lines; a file with more than 1 MiB waiting is read"
            + " on without pause";
    public static final Duration DEFAULT_COMMIT = Duration.ofMillis(200);
    public static final String COMMIT_DOC =
        "how often the shipped events and the files' positions are committed to Kafka; the sink"
            + " sees events only once committed, so this bounds their freshness";
    public static final Duration DEFAULT_RESCAN = Duration.ofSeconds(1);
    public static final String RESCAN_DOC =
        "how often globs are matched again for new files, and unreadable files retried";
    public static final Duration DEFAULT_DETECT = Duration.ofSeconds(10);
    public static final String DETECT_TIMEOUT_DOC =
        "how long a new file's engine detection waits for more lines before it decides with the"
            + " lines it has (with --engine auto)";
    public static final Duration DEFAULT_ROTATED_GRACE = Duration.ofSeconds(5);
    public static final String ROTATED_GRACE_DOC =
        "how long a rotated (renamed or deleted) file is still read after its last growth: the"
            + " server may write to it until it reopens its log";
    public static final int DEFAULT_MAX_PENDING = 20_000;
    public static final String MAX_PENDING_DOC =
        "records shipped but not yet committed at most: reading pauses at this many until Kafka"
            + " acknowledged them, which bounds memory when Kafka is slow or unreachable";

    public Timing {
      for (Duration duration : new Duration[] {poll, commit, rescan, detect, rotatedGrace}) {
        requireNonNull(duration, "a duration is null");
        if (duration.isNegative()) {
          throw new IllegalArgumentException("durations must be >= 0: " + duration);
        }
      }
      if (poll.isZero() || commit.isZero()) {
        throw new IllegalArgumentException("poll and commit intervals must be > 0");
      }
      if (maxPendingRecords < 1) {
        throw new IllegalArgumentException("maxPendingRecords must be >= 1: " + maxPendingRecords);
      }
    }

    public static Timing defaults() {
      return new Timing(
          DEFAULT_POLL,
          DEFAULT_COMMIT,
          DEFAULT_RESCAN,
          DEFAULT_DETECT,
          DEFAULT_ROTATED_GRACE,
          DEFAULT_MAX_PENDING);
    }
  }
}
