package dev.tokentrace.cli;

import dev.tokentrace.clients.ClientReadSettings;
import dev.tokentrace.clients.ClientTimingReaders;
import dev.tokentrace.ingest.follow.ClientFollowSettings;
import dev.tokentrace.ingest.follow.FollowSettings;
import dev.tokentrace.ingest.follow.InstanceNaming;
import dev.tokentrace.ingest.follow.SourceSpec;
import dev.tokentrace.ingest.follow.StartAt;
import dev.tokentrace.parse.GpuMap;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** How {@code ship} and {@code ingest} follow live files ({@code --follow}, {@code --once}). */
final class FollowOptions {
  /** {@code --instance-from}'s default: every file's instance is {@code --instance}. */
  static final String INSTANCE_FROM_DEFAULT = "fixed";

  @Option(
      names = "--follow",
      description =
          "keep following the files as they grow (tail -F): rotation by rename or copytruncate"
              + " is handled, new files matching a glob are picked up, and a restart resumes from"
              + " the last checkpoint without losing or repeating a line. SIGTERM or Ctrl-C"
              + " commits and stops")
  boolean follow;

  @Option(names = "--once", description = FollowSettings.ONCE_DOC)
  boolean once;

  @Option(
      names = "--shipper-id",
      paramLabel = "ID",
      description = FollowSettings.SHIPPER_ID_DOC + " (default: the host name)")
  @Nullable String shipperId;

  @Option(
      names = "--run",
      paramLabel = "RUN",
      description = ClientFollowSettings.RUN_DOC,
      defaultValue = ClientFollowSettings.DEFAULT_RUN)
  String run = ClientFollowSettings.DEFAULT_RUN;

  @Option(
      names = "--log-format",
      paramLabel = "FORMAT",
      description =
          ClientReadSettings.LOG_FORMAT_DOC
              + ". A followed file whose first line matches it is read as a gateway log in that"
              + " layout, and keeps it when the follower restarts")
  @Nullable String logFormat;

  @Option(
      names = "--id-column",
      paramLabel = "NAME",
      description = ClientReadSettings.ID_COLUMN_DOC)
  @Nullable String idColumn;

  @Option(
      names = "--instance-from",
      paramLabel = "fixed|dir|file",
      description = InstanceNaming.DOC,
      defaultValue = INSTANCE_FROM_DEFAULT)
  String instanceFrom = INSTANCE_FROM_DEFAULT;

  @Option(
      names = "--start-at",
      paramLabel = "beginning|end",
      description = StartAt.DOC,
      defaultValue = "beginning")
  String startAt = "beginning";

  @Option(
      names = "--poll-interval",
      paramLabel = "DURATION",
      description = FollowSettings.Timing.POLL_DOC,
      converter = DurationConverter.class,
      defaultValue = "100ms")
  Duration poll = FollowSettings.Timing.DEFAULT_POLL;

  @Option(
      names = "--commit-interval",
      paramLabel = "DURATION",
      description = FollowSettings.Timing.COMMIT_DOC,
      converter = DurationConverter.class,
      defaultValue = "200ms")
  Duration commit = FollowSettings.Timing.DEFAULT_COMMIT;

  @Option(
      names = "--detect-timeout",
      paramLabel = "DURATION",
      description = FollowSettings.Timing.DETECT_TIMEOUT_DOC,
      converter = DurationConverter.class,
      defaultValue = "10s")
  Duration detect = FollowSettings.Timing.DEFAULT_DETECT;

  @Option(
      names = "--rotated-grace",
      paramLabel = "DURATION",
      description = FollowSettings.Timing.ROTATED_GRACE_DOC,
      converter = DurationConverter.class,
      defaultValue = "5s")
  Duration rotatedGrace = FollowSettings.Timing.DEFAULT_ROTATED_GRACE;

  @Option(
      names = "--max-pending-records",
      paramLabel = "N",
      description = FollowSettings.Timing.MAX_PENDING_DOC,
      defaultValue = "" + FollowSettings.Timing.DEFAULT_MAX_PENDING)
  int maxPendingRecords = FollowSettings.Timing.DEFAULT_MAX_PENDING;

  @Option(
      names = "--status-interval",
      paramLabel = "DURATION",
      description =
          "how often a one-line progress (lines/s, events/s, lag) is printed on stderr when it"
              + " changed; unchanged, it is printed once a minute; 0s for none",
      converter = DurationConverter.class,
      defaultValue = "10s")
  Duration status = Duration.ofSeconds(10);

  boolean enabled() {
    return follow || once;
  }

  /**
   * The follower's settings for the FILE arguments.
   *
   * @throws UsageException listing every bad argument
   */
  FollowSettings settings(List<String> arguments, ParseOptions parse) {
    List<String> problems = new ArrayList<>();
    List<SourceSpec> sources = new ArrayList<>();
    for (String argument : arguments) {
      try {
        sources.add(SourceSpec.parse(argument));
      } catch (IllegalArgumentException e) {
        problems.add(argument + ": " + e.getMessage());
      }
    }
    InstanceNaming naming = choice(InstanceNaming.class, "--instance-from", instanceFrom, problems);
    String instance = null;
    try {
      instance = parse.instanceName();
    } catch (UsageException e) {
      problems.addAll(e.problems());
    }
    StartAt start = choice(StartAt.class, "--start-at", startAt, problems);
    GpuMap gpus = GpuMap.NONE;
    try {
      gpus = parse.gpuMapping();
    } catch (UsageException e) {
      problems.addAll(e.problems());
    }
    if (!problems.isEmpty()) {
      throw new UsageException(problems);
    }
    return new FollowSettings(
        shipperId != null ? shipperId : defaultShipperId(),
        sources,
        instance,
        naming,
        parse.forcedEngine(),
        parse.zoneId(),
        parse.year,
        parse.maxLineBytes,
        start,
        once,
        new FollowSettings.Timing(
            poll,
            commit,
            FollowSettings.Timing.DEFAULT_RESCAN,
            detect,
            rotatedGrace,
            maxPendingRecords),
        gpus);
  }

  /**
   * How followed client and gateway files become rows ({@code --run}, {@code --log-format}, {@code
   * --id-column}).
   *
   * @throws UsageException for a bad run id or a log format no gateway reader can read
   */
  ClientFollowSettings clients() {
    ClientReadSettings read;
    try {
      read = new ClientReadSettings(null, logFormat, idColumn);
    } catch (IllegalArgumentException e) {
      throw new UsageException(
          List.of(
              logFormat != null && logFormat.isBlank()
                  ? "--log-format is blank"
                  : "--id-column is blank"));
    }
    String problem = ClientTimingReaders.logFormatProblem(read);
    if (problem != null) {
      throw new UsageException(problem);
    }
    try {
      return new ClientFollowSettings(run, read);
    } catch (IllegalArgumentException e) {
      throw new UsageException(List.of(e.getMessage()));
    }
  }

  private static <E extends Enum<E>> E choice(
      Class<E> type, String option, String value, List<String> problems) {
    try {
      return Enum.valueOf(type, value.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      List<String> names = new ArrayList<>();
      for (E constant : type.getEnumConstants()) {
        names.add(constant.name().toLowerCase(Locale.ROOT));
      }
      problems.add(option + " '" + value + "' is not one of " + String.join(", ", names));
      return type.getEnumConstants()[0];
    }
  }

  /** The host name, reduced to the characters a shipper id may hold. */
  static String defaultShipperId() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = System.getenv().getOrDefault("HOSTNAME", "localhost");
    }
    String id = host.replaceAll("[^A-Za-z0-9._-]", "_");
    return id.isEmpty() ? "localhost" : id;
  }
}
