package dev.tokentrace.correlate.client;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What {@code tokentrace clients} loads: files of one client format, as one run.
 *
 * @param runId the run's id, or null for {@code clients-<UTC time>}
 * @param concurrency the level for rows whose file has none (a run at a fixed concurrency)
 * @param command the command line, recorded in {@code runs} for reproducibility
 */
public record ClientLoadSettings(
    List<Path> files,
    String format,
    @Nullable String runId,
    @Nullable Integer concurrency,
    String command,
    double maxRejectRatio) {
  public static final String FORMAT_DOC = "client file format: csv (more in later releases)";
  public static final String FORMAT_DEFAULT = CsvClientTimingReader.FORMAT;

  public static final String MAX_REJECT_RATIO_DOC =
      "share of rejected rows above which the command exits 3 after loading";
  public static final double MAX_REJECT_RATIO_DEFAULT = 0.01;

  public static final String CONCURRENCY_DOC =
      "concurrency level for rows whose file has no 'concurrency' column value";

  private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,99}");

  public ClientLoadSettings {
    files = List.copyOf(requireNonNull(files, "files is null"));
    requireNonNull(format, "format is null");
    requireNonNull(command, "command is null");
    if (files.isEmpty()) {
      throw new IllegalArgumentException("files is empty: give at least one client file");
    }
    if (runId != null && !RUN_ID.matcher(runId).matches()) {
      throw new IllegalArgumentException(
          "runId must be 1-100 of letters, digits, '.', '_', ':', '-': '" + runId + "'");
    }
    if (concurrency != null && concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be >= 1: " + concurrency);
    }
    if (!(maxRejectRatio >= 0 && maxRejectRatio <= 1)) {
      throw new IllegalArgumentException("maxRejectRatio must be in [0, 1]: " + maxRejectRatio);
    }
  }

  /** The settings the CLI options give; null options take the defaults. */
  public static ClientLoadSettings from(
      List<Path> files,
      @Nullable String format,
      @Nullable String runId,
      @Nullable Integer concurrency,
      String command,
      @Nullable Double maxRejectRatio) {
    return new ClientLoadSettings(
        files,
        format == null ? FORMAT_DEFAULT : format,
        runId,
        concurrency,
        command,
        maxRejectRatio == null ? MAX_REJECT_RATIO_DEFAULT : maxRejectRatio);
  }
}
