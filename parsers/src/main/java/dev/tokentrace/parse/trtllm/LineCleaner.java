package dev.tokentrace.parse.trtllm;

import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Removes what is not TensorRT-LLM's own output from a physical line: the trailing {@code \r}, ANSI
 * colour codes, and the prefixes that launchers add (docs/formats/trtllm.md#python-logger): OpenMPI
 * {@code --tag-output} {@code [1,5]<stderr>:}, Slurm {@code srun --label} {@code 0: } and torch
 * elastic {@code [rank0]:}. What log collectors add (Docker, CRI, kubectl, journald, compose) is
 * removed before this parser by the collector layer, which hands over the collector's time ({@link
 * #collectorTime}): real wall-clock time for lines that carry none (C++ logger lines;
 * docs/formats/collectors.md). Not thread-safe: {@link #containerTs} belongs to the current line.
 */
final class LineCleaner {
  private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-?]*[ -/]*[@-~]");
  private static final Pattern MPI = Pattern.compile("^\\[\\d{1,6},\\d{1,6}\\]<std(?:out|err)>:");
  private static final Pattern SLURM = Pattern.compile("^\\s{0,8}\\d{1,5}: ");
  private static final Pattern TORCH_RANK = Pattern.compile("^\\[rank\\d{1,6}\\]: ?");

  private @Nullable Instant containerTs;

  /** The collector's time of the next line to clean, or null. */
  void collectorTime(@Nullable Instant ts) {
    containerTs = ts;
  }

  /** The line as TensorRT-LLM wrote it. */
  String clean(String raw) {
    String line = raw;
    if (!line.isEmpty() && line.charAt(line.length() - 1) == '\r') {
      line = line.substring(0, line.length() - 1);
    }
    if (line.indexOf('\u001B') >= 0) {
      line = ANSI.matcher(line).replaceAll("");
    }
    if (line.isEmpty()) {
      return line;
    }
    return stripLauncher(line);
  }

  /** The container runtime's time of the last cleaned line, or null. */
  @Nullable Instant containerTs() {
    return containerTs;
  }

  private static String stripLauncher(String line) {
    if (line.isEmpty()) {
      return line;
    }
    char first = line.charAt(0);
    if (first == '[' && line.length() > 2) {
      char second = line.charAt(1);
      if (second >= '0' && second <= '9') {
        // every Python logger line starts "[0" or "[1" too: check the "]<std" before the regex
        int close = line.indexOf(']');
        if (close < 4 || close > 16 || !line.startsWith("<std", close + 1)) {
          return line;
        }
        Matcher mpi = MPI.matcher(line);
        return mpi.lookingAt() ? line.substring(mpi.end()) : line;
      }
      if (second == 'r' && line.startsWith("[rank")) {
        Matcher rank = TORCH_RANK.matcher(line);
        return rank.lookingAt() ? line.substring(rank.end()) : line;
      }
      return line;
    }
    if ((first >= '0' && first <= '9') || first == ' ') {
      Matcher slurm = SLURM.matcher(line);
      if (slurm.lookingAt()) {
        return line.substring(slurm.end());
      }
    }
    return line;
  }
}
