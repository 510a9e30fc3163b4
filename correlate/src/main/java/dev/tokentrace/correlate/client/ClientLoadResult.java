package dev.tokentrace.correlate.client;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What a client load did: per file rows and rejections, the run id, and the messages to show
 * ({@code path:line: client: reason}, at most {@link ClientTimingLoader#MAX_MESSAGES}).
 */
public record ClientLoadResult(
    String runId, List<FileResult> files, List<String> messages, boolean toleranceExceeded) {
  /**
   * One file: the format it was read in (given or detected), rows loaded and rejected, or why it
   * was skipped (already loaded by another run).
   */
  public record FileResult(
      String path,
      String format,
      long bytes,
      String sha256,
      long rows,
      long rejected,
      @Nullable String skipped) {
    public FileResult {
      requireNonNull(path, "path is null");
      requireNonNull(format, "format is null");
      requireNonNull(sha256, "sha256 is null");
    }
  }

  public ClientLoadResult {
    requireNonNull(runId, "runId is null");
    files = List.copyOf(files);
    messages = List.copyOf(messages);
  }

  public long rows() {
    return files.stream().mapToLong(FileResult::rows).sum();
  }

  public long rejected() {
    return files.stream().mapToLong(FileResult::rejected).sum();
  }

  public long skippedFiles() {
    return files.stream().filter(file -> file.skipped() != null).count();
  }

  /**
   * The one summary line, e.g. {@code rows=98 rejected=2 (2.00%) skipped_files=0 run=clients-…}.
   */
  public String summary() {
    long total = rows() + rejected();
    double percent = total == 0 ? 0 : 100.0 * rejected() / total;
    return String.format(
        Locale.ROOT,
        "rows=%d rejected=%d (%.2f%%) skipped_files=%d run=%s -> client_timing, rejects",
        rows(),
        rejected(),
        percent,
        skippedFiles(),
        runId);
  }
}
