package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.Phase;
import dev.tokentrace.parse.Numbers;
import org.jspecify.annotations.Nullable;

/**
 * Reads the scheduler's {@code Prefill batch} / {@code Decode batch} message bodies of every
 * generation (docs/formats/sglang.md#prefill-batch-line, docs/formats/sglang.md#decode-batch-line),
 * for example {@code Decode batch, #running-req: 12, #token: 4096, token usage: 0.05, cuda graph:
 * True, gen throughput (token/s): 512.34, #queue-req: 0}. The header may be {@code Prefil batch.}
 * (v0.1.17 typo), {@code Prefill batch(mixed #running-req: N).} (v0.2.14 – v0.3.5 mixed chunk),
 * {@code ... batch [N], } (v0.5.4, or {@code SGLANG_LOG_FORWARD_ITERS=1}) or absent ({@code
 * #running-req: ...}, ≤ v0.1.16 decode).
 *
 * <p>The body is scanned as {@code key: value} pairs separated by {@code ", "} without regexes (the
 * hot path): keys never contain {@code :} or {@code ,}, values never contain {@code ", "}
 * (docs/formats/sglang.md#other-scheduler-lines). Fragments without a key (v0.4.9 SWA {@code
 * swa=N}) and unknown keys are skipped, since the format keeps growing; a known field with an
 * unreadable value rejects the line.
 *
 * <p>Mutable scratch, reset by each {@link #matchHeader}. Not thread-safe.
 */
final class BatchLine {
  static final String NO_FIELDS = "batch line: no fields";

  private static final int UNSET = -1;

  Phase phase = Phase.DECODE;
  long iteration;
  int running;
  int newSeqs;
  int newTokens;
  int cachedTokens;
  int queued;
  double tokenUsage;
  double throughput;

  /** Where the v0.4.9.post1 – post2 {@code timestamp: <isoformat>} value starts, or -1. */
  int timestampStart;

  int timestampEnd;

  private int bodyStart;
  private @Nullable String headerProblem;

  /**
   * The first count of the line that was negative ({@code #running-req: -1}), as {@code key:
   * value}, or null: the field is left empty and the step still made
   * (docs/formats/layouts.md#odd-values).
   */
  @Nullable String oddValue;

  /** The last count read was a negative integer. */
  private boolean lastWasOdd;

  /**
   * True when a batch header (or the header-less ≤ v0.1.16 decode body) starts at {@code p}; the
   * scratch is then reset and positioned on the body.
   */
  boolean matchHeader(String line, int p) {
    int q;
    if (line.startsWith("Decode batch", p)) {
      phase = Phase.DECODE;
      q = p + 12;
    } else if (line.startsWith("Prefill batch", p)) {
      phase = Phase.PREFILL;
      q = p + 13;
    } else if (line.startsWith("Prefil batch", p)) {
      phase = Phase.PREFILL;
      q = p + 12;
    } else if (line.startsWith("#running-req: ", p)) {
      reset(Phase.DECODE, p);
      return true;
    } else {
      return false;
    }
    reset(phase, q);
    return header(line, q);
  }

  /** Reads the pairs; null when the fields are usable, else the reject reason. */
  @Nullable String parseBody(String line) {
    if (headerProblem != null) {
      return headerProblem;
    }
    boolean known = false;
    int length = line.length();
    int p = bodyStart;
    while (p < length) {
      int colon = -1;
      int i = p;
      for (; i < length; i++) {
        char c = line.charAt(i);
        if (c == ':' && i + 1 < length && line.charAt(i + 1) == ' ') {
          colon = i;
          break;
        }
        if (c == ',' && (i + 1 == length || line.charAt(i + 1) == ' ')) {
          break;
        }
      }
      if (colon < 0) {
        p = i + 2;
        continue;
      }
      int valueStart = colon + 2;
      int valueEnd = valueEnd(line, valueStart);
      int keyStart = p;
      while (keyStart < colon && line.charAt(keyStart) == ' ') {
        keyStart++;
      }
      int field = BatchKeys.of(line, keyStart, colon);
      if (field != BatchKeys.UNKNOWN) {
        known = true;
        if (!accept(field, line, valueStart, trimEnd(line, valueStart, valueEnd))) {
          return "batch line: bad '" + BatchKeys.name(field) + "' value";
        }
      }
      p = valueEnd + 2;
    }
    return known || phase == Phase.MIXED ? null : NO_FIELDS;
  }

  private void reset(Phase newPhase, int start) {
    phase = newPhase;
    iteration = UNSET;
    running = UNSET;
    newSeqs = UNSET;
    newTokens = UNSET;
    cachedTokens = UNSET;
    queued = UNSET;
    tokenUsage = Double.NaN;
    throughput = Double.NaN;
    timestampStart = UNSET;
    timestampEnd = UNSET;
    bodyStart = start;
    headerProblem = null;
    oddValue = null;
  }

  /** {@code (mixed #running-req: N)}, {@code [N]}, then {@code .} or {@code ,} and a space. */
  private boolean header(String line, int from) {
    int q = from;
    if (line.startsWith("(mixed #running-req: ", q)) {
      int digitsStart = q + 21;
      int close = line.indexOf(')', digitsStart);
      if (close < 0) {
        return false;
      }
      running = count(BatchKeys.RUNNING_REQ, line, digitsStart, close);
      phase = Phase.MIXED;
      if (running < 0 && !lastWasOdd) {
        headerProblem = "batch line: bad '#running-req' value";
      }
      q = close + 1;
    }
    if (line.startsWith(" [", q)) {
      int close = line.indexOf(']', q + 2);
      long value = close < 0 ? -1 : Numbers.longCount(line, q + 2, close);
      if (value < 0) {
        headerProblem = "batch line: bad iteration";
        return true;
      }
      iteration = value;
      q = close + 1;
    }
    if (q == line.length()) {
      bodyStart = q;
      return true;
    }
    char separator = line.charAt(q);
    if (separator != '.' && separator != ',') {
      return false;
    }
    q++;
    bodyStart = q < line.length() && line.charAt(q) == ' ' ? q + 1 : q;
    return true;
  }

  private boolean accept(int field, String line, int start, int end) {
    switch (field) {
      case BatchKeys.NEW_SEQ:
        return (newSeqs = count(field, line, start, end)) >= 0 || lastWasOdd;
      case BatchKeys.NEW_TOKEN:
        return (newTokens = count(field, line, start, end)) >= 0 || lastWasOdd;
      case BatchKeys.CACHED_TOKEN:
        return (cachedTokens = count(field, line, start, end)) >= 0 || lastWasOdd;
      case BatchKeys.RUNNING_REQ:
        return (running = count(field, line, start, end)) >= 0 || lastWasOdd;
      case BatchKeys.QUEUE_REQ:
        return (queued = count(field, line, start, end)) >= 0 || lastWasOdd;
      case BatchKeys.TOKEN_USAGE:
        // v0.4.9 hybrid SWA logs "token usage: full=0.10, swa=0.20"
        // (docs/formats/sglang.md#prefill-batch-line): the full pool counts
        int value = line.startsWith("full=", start) ? start + 5 : start;
        return usage(Numbers.decimal(line, value, end));
      case BatchKeys.FULL_TOKEN_USAGE:
      case BatchKeys.GPU_TOKEN_USAGE:
        // SWA / mamba / HiSparse pools (docs/formats/sglang.md#prefill-batch-line,
        // docs/formats/sglang.md#decode-batch-line): used only when plain "token usage" is absent
        double pool = Numbers.decimal(line, start, end);
        if (Double.isNaN(pool)) {
          return false;
        }
        if (Double.isNaN(tokenUsage)) {
          tokenUsage = pool;
        }
        return true;
      case BatchKeys.GEN_THROUGHPUT:
      case BatchKeys.INPUT_THROUGHPUT:
        throughput = Numbers.decimal(line, start, end);
        return !Double.isNaN(throughput);
      case BatchKeys.TIMESTAMP:
        timestampStart = start;
        timestampEnd = end;
        return true;
      default:
        return true;
    }
  }

  /**
   * A count, or -1; a negative integer ({@code -1}: a counter bug of some builds,
   * docs/formats/sglang-wild.md#negative-running-req) is remembered as the line's odd value.
   */
  private int count(int field, String line, int start, int end) {
    int value = Numbers.count(line, start, end);
    lastWasOdd = false;
    if (value < 0
        && end - start > 1
        && line.charAt(start) == '-'
        && Numbers.count(line, start + 1, end) >= 0) {
      if (oddValue == null) {
        oddValue = BatchKeys.name(field) + ": " + line.substring(start, end);
      }
      lastWasOdd = true;
      return UNSET;
    }
    return value;
  }

  private boolean usage(double value) {
    tokenUsage = value;
    return !Double.isNaN(value);
  }

  /** Index of the next {@code ", "} at or after {@code from}, or the line length. */
  private static int valueEnd(String line, int from) {
    int length = line.length();
    for (int i = from; i < length - 1; i++) {
      if (line.charAt(i) == ',' && line.charAt(i + 1) == ' ') {
        return i;
      }
    }
    return length > from && line.charAt(length - 1) == ',' ? length - 1 : length;
  }

  private static int trimEnd(String line, int start, int end) {
    int e = end;
    while (e > start && line.charAt(e - 1) == ' ') {
      e--;
    }
    return e;
  }
}
