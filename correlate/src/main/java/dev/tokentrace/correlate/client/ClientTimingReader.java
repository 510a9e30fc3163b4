package dev.tokentrace.correlate.client;

import java.nio.file.Path;

/**
 * Reads one benchmark client's per-request file (our CSV today; AIPerf, vLLM bench, GuideLLM and
 * GenAI-Perf files later). Implementations are stateless and thread-safe.
 */
public interface ClientTimingReader {
  /**
   * Stable id used by {@code clients --format} and stored in {@code client_timing.client_format}.
   */
  String format();

  /**
   * Whether a file starting with {@code head} (its first few KB, decoded leniently) looks like this
   * format; used by {@code --format auto}.
   */
  boolean recognizes(String head);

  /**
   * Reads every row of {@code file} into {@code sink}. Bad content becomes {@link ClientRejection}s
   * with path and line, never an exception; every line is a row, a rejection, blank, or covered by
   * a warning.
   *
   * @throws java.io.UncheckedIOException naming the file when it cannot be read at all
   */
  void read(Path file, ClientTimingSink sink);
}
