package dev.tokentrace.correlate.client;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.clients.ClientReadSettings;
import dev.tokentrace.clients.ClientTimingReaders;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What {@code tokentrace clients} loads: client files, as one run.
 *
 * @param format a format id ({@link ClientTimingReaders#formats()}) for every file, or {@value
 *     ClientTimingReaders#AUTO} to detect each file's format by content
 * @param runId the run's id, or null for {@code clients-<UTC time>}
 * @param concurrency the level for rows whose file has none (a run at a fixed concurrency)
 * @param command the command line, recorded in {@code runs} for reproducibility
 * @param read what some readers need and the file does not say (vLLM bench request-id prefix)
 * @param requestRate the run's request rate in requests per second as a tool's aggregate file
 *     records it (docs/formats/client-files.md#output-folders), or null; kept with the run
 */
public record ClientLoadSettings(
    List<Path> files,
    String format,
    @Nullable String runId,
    @Nullable Integer concurrency,
    String command,
    double maxRejectRatio,
    ClientReadSettings read,
    @Nullable Double requestRate) {
  public static final String FORMAT_DOC =
      "client file format: auto (detect each file by content), csv, aiperf, vllm-bench, guidellm,"
          + " genai-perf, sglang-bench, llmperf, jmeter, wrk, nginx or envoy";
  public static final String FORMAT_DEFAULT = ClientTimingReaders.AUTO;

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
    requireNonNull(read, "read is null");
    if (files.isEmpty()) {
      throw new IllegalArgumentException("files is empty: give at least one client file");
    }
    if (runId != null && !RUN_ID.matcher(runId).matches()) {
      throw new IllegalArgumentException(
          "--run-id must be 1-100 of letters, digits, '.', '_', ':', '-': '" + runId + "'");
    }
    if (concurrency != null && concurrency < 1) {
      throw new IllegalArgumentException("--concurrency must be >= 1: " + concurrency);
    }
    if (!(maxRejectRatio >= 0 && maxRejectRatio <= 1)) {
      throw new IllegalArgumentException("--max-reject-ratio must be in [0, 1]: " + maxRejectRatio);
    }
    if (requestRate != null && !(requestRate > 0 && Double.isFinite(requestRate))) {
      throw new IllegalArgumentException("request rate must be > 0: " + requestRate);
    }
  }

  /** Settings without a recorded request rate. */
  public ClientLoadSettings(
      List<Path> files,
      String format,
      @Nullable String runId,
      @Nullable Integer concurrency,
      String command,
      double maxRejectRatio,
      ClientReadSettings read) {
    this(files, format, runId, concurrency, command, maxRejectRatio, read, null);
  }

  /** These settings with the request rate a tool's aggregate file records (null: none). */
  public ClientLoadSettings withRequestRate(@Nullable Double rate) {
    return new ClientLoadSettings(
        files, format, runId, concurrency, command, maxRejectRatio, read, rate);
  }

  /** Settings without reader settings (no vLLM bench prefix). */
  public ClientLoadSettings(
      List<Path> files,
      String format,
      @Nullable String runId,
      @Nullable Integer concurrency,
      String command,
      double maxRejectRatio) {
    this(files, format, runId, concurrency, command, maxRejectRatio, ClientReadSettings.DEFAULTS);
  }

  /** The settings the CLI options give; null options take the defaults. */
  public static ClientLoadSettings from(
      List<Path> files,
      @Nullable String format,
      @Nullable String runId,
      @Nullable Integer concurrency,
      String command,
      @Nullable Double maxRejectRatio) {
    return from(files, format, runId, concurrency, command, maxRejectRatio, (String) null);
  }

  /**
   * The settings the CLI options give, with {@code --request-id-prefix} for vLLM bench files; null
   * options take the defaults.
   */
  public static ClientLoadSettings from(
      List<Path> files,
      @Nullable String format,
      @Nullable String runId,
      @Nullable Integer concurrency,
      String command,
      @Nullable Double maxRejectRatio,
      @Nullable String requestIdPrefix) {
    return from(
        files,
        format,
        runId,
        concurrency,
        command,
        maxRejectRatio,
        new ClientReadSettings(requestIdPrefix));
  }

  /**
   * The settings the CLI options give, with every reader setting ({@code --request-id-prefix},
   * {@code --log-format}, {@code --id-column}); null options take the defaults.
   */
  public static ClientLoadSettings from(
      List<Path> files,
      @Nullable String format,
      @Nullable String runId,
      @Nullable Integer concurrency,
      String command,
      @Nullable Double maxRejectRatio,
      ClientReadSettings read) {
    return new ClientLoadSettings(
        files,
        format == null ? FORMAT_DEFAULT : format,
        runId,
        concurrency,
        command,
        maxRejectRatio == null ? MAX_REJECT_RATIO_DEFAULT : maxRejectRatio,
        read);
  }
}
