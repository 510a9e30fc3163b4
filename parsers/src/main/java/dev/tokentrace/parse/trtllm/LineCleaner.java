package dev.tokentrace.parse.trtllm;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Removes what is not TensorRT-LLM's own output from a physical line: the trailing {@code \r}, ANSI
 * colour codes, and the prefixes that launchers and container runtimes add (
 * docs/formats/trtllm.md#python-logger): a {@code docker logs --timestamps}/{@code kubectl logs
 * --timestamps} RFC 3339 time, a {@code kubectl logs --prefix} {@code [pod/name/container] }, a
 * docker compose {@code name | }, OpenMPI {@code --tag-output} {@code [1,5]<stderr>:}, Slurm {@code
 * srun --label} {@code 0: } and torch elastic {@code [rank0]:}. The container time is kept, because
 * it is real wall-clock time for lines that carry none (C++ logger lines). Not thread-safe: {@link
 * #containerTs} belongs to the last cleaned line.
 */
final class LineCleaner {
  private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-?]*[ -/]*[@-~]");
  private static final Pattern CONTAINER_TS =
      Pattern.compile(
          "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?(?:Z|[+-]\\d{2}:\\d{2}) ");
  private static final Pattern COMPOSE =
      Pattern.compile("^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}\\s+\\| ");
  private static final Pattern MPI = Pattern.compile("^\\[\\d{1,6},\\d{1,6}\\]<std(?:out|err)>:");
  private static final Pattern SLURM = Pattern.compile("^\\s{0,8}\\d{1,5}: ");
  private static final Pattern TORCH_RANK = Pattern.compile("^\\[rank\\d{1,6}\\]: ?");

  private @Nullable Instant containerTs;

  /** The line as TensorRT-LLM wrote it. */
  String clean(String raw) {
    containerTs = null;
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
    line = stripContainer(line);
    return stripLauncher(line);
  }

  /** The container runtime's time of the last cleaned line, or null. */
  @Nullable Instant containerTs() {
    return containerTs;
  }

  private String stripContainer(String line) {
    String rest = line;
    char first = rest.charAt(0);
    if (first >= '0' && first <= '9' && rest.length() > 20 && rest.charAt(10) == 'T') {
      Matcher ts = CONTAINER_TS.matcher(rest);
      if (ts.lookingAt()) {
        containerTs = parseInstant(rest.substring(0, ts.end() - 1));
        rest = rest.substring(ts.end());
      }
    }
    if (rest.startsWith("[pod/")) {
      int end = rest.indexOf("] ");
      if (end > 0) {
        rest = rest.substring(end + 2);
      }
    } else if (!rest.isEmpty() && isAsciiAlphanumeric(rest.charAt(0)) && rest.indexOf(" | ") > 0) {
      // the first-character test is COMPOSE's own: it spares JSON and logger lines a scan
      Matcher compose = COMPOSE.matcher(rest);
      if (compose.lookingAt()) {
        rest = rest.substring(compose.end());
      }
    }
    return rest;
  }

  private static boolean isAsciiAlphanumeric(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
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

  private static @Nullable Instant parseInstant(String text) {
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      // e.g. month 13: the prefix is still stripped, the line just gets no container time
      return null;
    }
  }
}
