package dev.tokentrace.clients;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Reads one benchmark client's per-request file (our CSV, AIPerf, vLLM bench, GuideLLM, GenAI-Perf,
 * SGLang bench, LLMPerf). Implementations hold only their immutable settings and are thread-safe.
 * {@link ClientTimingReaders} creates them by format id and detects the format of a file.
 */
public interface ClientTimingReader {
  /**
   * Stable id used by {@code clients --format} and stored in {@code client_timing.client_format}.
   */
  String format();

  /**
   * Whether a file starting with {@code head} (its first 64 KB) looks like this format, and if not,
   * why not; used by {@code --format auto}.
   */
  Recognition recognize(FileHead head);

  /**
   * Reads every row of {@code file} into {@code sink}. Bad content becomes {@link ClientRejection}s
   * with path and line (for JSON formats the request's ordinal in the file), never an exception;
   * every request is a row, a rejection, or covered by a warning.
   *
   * @throws java.io.UncheckedIOException naming the file when it cannot be read at all
   */
  void read(Path file, ClientReaderOutput sink);

  /**
   * A reader of one file of this format a line at a time, for files that grow while they are read
   * ({@code ship --follow}); null for formats that are one document (a JSON report), which can only
   * be read whole.
   *
   * @param head the file's first bytes (the layout of a gateway log is chosen from them)
   * @param state the {@link ClientLineReader#state()} of the reader that read the lines before the
   *     resume point, or null when reading starts at the beginning
   */
  default @Nullable ClientLineReader lineReader(FileHead head, @Nullable String state) {
    return null;
  }

  /**
   * Why {@code file}, recognised as this format and read without a rejection, gave no row: a
   * sentence that names the likely cause (an aggregate-only file, a report saved without its
   * requests, another tool's file) and the fix. Called only in that case, so it may read the file
   * again (docs/formats/client-files.md#no-rows).
   */
  default String noRowsReason(Path file) {
    return "the file holds no per-request records of the "
        + format()
        + " format; pass the"
        + " tool's per-request export, not its summary";
  }
}
