package dev.tokentrace.parse.sglang;

/**
 * The batch-line keys that map to {@code batch_step} fields
 * (docs/formats/sglang.md#batch-line-fields), identified in place without allocating: by length
 * first, then by comparing the region. Other keys ({@code cache hit rate}, {@code #token}, {@code
 * accept len}, PD queue lengths, graph flags, ...) are parsed past and not kept. Stateless.
 */
final class BatchKeys {
  static final int UNKNOWN = 0;
  static final int NEW_SEQ = 1;
  static final int NEW_TOKEN = 2;
  static final int CACHED_TOKEN = 3;
  static final int RUNNING_REQ = 4;
  static final int QUEUE_REQ = 5;
  static final int TOKEN_USAGE = 6;
  static final int FULL_TOKEN_USAGE = 7;
  static final int GPU_TOKEN_USAGE = 8;
  static final int GEN_THROUGHPUT = 9;
  static final int INPUT_THROUGHPUT = 10;
  static final int TIMESTAMP = 11;

  /** Indexed by the constants above; also the key text in reject reasons. */
  private static final String[] NAMES = {
    "",
    "#new-seq",
    "#new-token",
    "#cached-token",
    "#running-req",
    "#queue-req",
    "token usage",
    "full token usage",
    "gpu token usage",
    "gen throughput (token/s)",
    "input throughput (token/s)",
    "timestamp",
  };

  private BatchKeys() {}

  static String name(int key) {
    return NAMES[key];
  }

  /** The key in {@code line[start, end)}, or {@link #UNKNOWN}. */
  static int of(String line, int start, int end) {
    switch (end - start) {
      case 8:
        return is(line, start, NEW_SEQ);
      case 9:
        return is(line, start, TIMESTAMP);
      case 10:
        return line.charAt(start + 1) == 'n'
            ? is(line, start, NEW_TOKEN)
            : is(line, start, QUEUE_REQ);
      case 11:
        return is(line, start, TOKEN_USAGE);
      case 12:
        return is(line, start, RUNNING_REQ);
      case 13:
        return is(line, start, CACHED_TOKEN);
      case 15:
        return is(line, start, GPU_TOKEN_USAGE);
      case 16:
        return is(line, start, FULL_TOKEN_USAGE);
      case 24:
        return is(line, start, GEN_THROUGHPUT);
      case 26:
        return is(line, start, INPUT_THROUGHPUT);
      default:
        return UNKNOWN;
    }
  }

  private static int is(String line, int start, int key) {
    String name = NAMES[key];
    return line.regionMatches(start, name, 0, name.length()) ? key : UNKNOWN;
  }
}
