package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The periodic stats line, every generation (docs/formats/vllm.md#v0-stats-line,
 * docs/formats/vllm.md#v1-stats-line), e.g. {@code Engine 000: Avg prompt throughput: 812.4
 * tokens/s, Avg generation throughput: 95.0 tokens/s, Running: 8 reqs, Waiting: 3 reqs, GPU KV
 * cache usage: 41.5%, Prefix cache hit rate: 12.0%}. Parsed item by item with a cursor, so one
 * parser takes V0 ({@code Swapped}, {@code Pending}, {@code CPU KV cache usage}, with or without
 * the trailing period added by e7c46b952, 2024-05-13), the V1 January 2025 lines (Running/Waiting
 * only; the missing comma before {@code GPU KV cache usage} of f17f1d460), the {@code Engine NNN:}
 * and {@code N Engines Aggregated:} prefixes and the optional tail items of the current line. A
 * line cut short fails a completeness check instead of giving a wrong event.
 *
 * <p>{@code interval_s} stays null: the line does not say its interval (5 s busy / 10 s idle in V0,
 * {@code VLLM_LOG_STATS_INTERVAL} in V1). {@code nan} values become nulls. V0's {@code Pending} is
 * the waiting queue.
 */
final class StatsLine {
  /** The start every stats line with throughputs shares; without ": " so cut heads match too. */
  private static final String HEAD = "Avg prompt";

  /** The first releases' scheduler line (2023-05, PR #90). */
  private static final String FIRST_HEAD = "Throughput: ";

  private static final String AGGREGATED = " Engines Aggregated: ";

  /** Only items whose label is shorter than this are looked for. */
  private static final int MAX_LABEL = 40;

  private final String message;
  private static final int ITEMS = StatsItem.values().length;

  /** 2023-05 (PR #90): {@code Throughput: %.1f tokens/s, Running: ...}; no split throughputs. */
  private static final StatsItem[] V0_FIRST_REQUIRED = {
    StatsItem.RUNNING, StatsItem.SWAPPED, StatsItem.PENDING, StatsItem.GPU_KV, StatsItem.CPU_KV
  };

  private static final StatsItem[] V0_REQUIRED = {
    StatsItem.PROMPT_TPS,
    StatsItem.GEN_TPS,
    StatsItem.RUNNING,
    StatsItem.SWAPPED,
    StatsItem.PENDING,
    StatsItem.GPU_KV,
    StatsItem.CPU_KV
  };

  /** 9597a095f (2025-01-12): {@code Running: %d reqs, Waiting: %d reqs }. */
  private static final StatsItem[] V1_QUEUES_ONLY = {StatsItem.RUNNING, StatsItem.WAITING};

  /** f17f1d460 (2025-01-30): no prefix cache hit rate yet. */
  private static final StatsItem[] V1_WITHOUT_PREFIX = {
    StatsItem.PROMPT_TPS, StatsItem.GEN_TPS, StatsItem.RUNNING, StatsItem.WAITING, StatsItem.GPU_KV
  };

  /** 41c5dd45b (2025-02-11) onwards: the fixed part ends with the prefix cache hit rate. */
  private static final StatsItem[] V1_REQUIRED = {
    StatsItem.PROMPT_TPS,
    StatsItem.GEN_TPS,
    StatsItem.RUNNING,
    StatsItem.WAITING,
    StatsItem.GPU_KV,
    StatsItem.PREFIX_HIT
  };

  private final List<String> unknownLabels = new ArrayList<>(0);
  private final double[] values = new double[ITEMS];
  private final boolean[] seen = new boolean[values.length];
  private int cursor;
  private boolean gpuAfterSpace;
  private boolean afterSpace;
  private boolean period;

  private StatsLine(String message) {
    this.message = message;
  }

  /** Cheap test on the message: is this a stats line (or a cut one) at all? */
  static boolean matches(String message) {
    return message.startsWith(HEAD)
        || message.startsWith("Running: ")
        || message.startsWith(FIRST_HEAD)
        || (message.startsWith("Engine ") && message.startsWith(HEAD, 12))
        || aggregatedPrefixEnd(message) > 0;
  }

  static void parse(RecordLine line, UnknownFields unknown, ParseOutput sink) {
    parse(line.message(), line.instance(), line.ts(), line.position(), unknown, sink, line.text());
  }

  /**
   * A stats message at the start of {@code message}, with or without a logging header (a header
   * stripped by a custom logging config or a wrapper: docs/formats/vllm-wild.md#headerless-stats).
   */
  static void parse(
      String message,
      String instance,
      @Nullable Instant ts,
      SourcePosition position,
      UnknownFields unknown,
      ParseOutput sink,
      String text) {
    StatsLine stats = new StatsLine(message);
    String rank = stats.readRank();
    String problem = stats.readItems();
    if (problem == null) {
      problem = stats.missingItem();
    }
    if (problem != null) {
      sink.rejected(Rejection.of(position, Engine.VLLM, problem, text));
      return;
    }
    for (String label : stats.unknownLabels) {
      unknown.note("stats line", label, position);
    }
    sink.event(stats.toEvent(instance, ts, position, rank));
  }

  private @Nullable String readRank() {
    if (message.startsWith("Engine ") && message.startsWith(": ", 10)) {
      cursor = 12;
      return message.substring(0, 10);
    }
    int aggregated = aggregatedPrefixEnd(message);
    if (aggregated > 0) {
      cursor = aggregated;
      return message.substring(0, aggregated - 2);
    }
    return null;
  }

  /** The end of {@code N Engines Aggregated: } (8317f7235, 2025-10-13), or -1. */
  private static int aggregatedPrefixEnd(String message) {
    int digits = Ascii.digitsEnd(message, 0);
    return digits > 0 && message.startsWith(AGGREGATED, digits) ? digits + AGGREGATED.length() : -1;
  }

  /** Reads {@code Key: value[unit]} items and their separators; returns a problem or null. */
  private @Nullable String readItems() {
    while (cursor < message.length()) {
      int colon = message.indexOf(": ", cursor);
      if (colon < 0 || colon - cursor > MAX_LABEL || colon == cursor) {
        return "stats line: bad item";
      }
      StatsItem item = StatsItem.of(message, cursor, colon);
      if (item == StatsItem.OTHER) {
        unknownLabels.add(message.substring(cursor, colon));
      }
      if (item == StatsItem.GPU_KV) {
        gpuAfterSpace = afterSpace;
      }
      String problem = readValue(item, colon + 2);
      if (problem != null) {
        return problem;
      }
      if (!readSeparator()) {
        return "stats line: bad item";
      }
    }
    return null;
  }

  private @Nullable String readValue(StatsItem item, int from) {
    if (item == StatsItem.OTHER) {
      return skipOther(from);
    }
    int end = from;
    while (end < message.length()
        && (Ascii.isDigit(message.charAt(end)) || message.charAt(end) == '.')) {
      end++;
    }
    if (end == from && message.startsWith("nan", from)) {
      end = from + 3;
    }
    String unit = item.unitAt(message, end);
    // Decimals.INVALID_INT and Decimals.INVALID are both -1: one test covers both kinds
    double value =
        item.integer()
            ? Decimals.integer(message, from, end)
            : Decimals.decimal(message, from, end);
    if (unit == null || value == Decimals.INVALID) {
      return item == StatsItem.OTHER ? "stats line: bad item" : badValue(item);
    }
    values[item.ordinal()] = value;
    seen[item.ordinal()] = true;
    cursor = end + unit.length();
    return null;
  }

  /**
   * An item this parser does not know (an older or newer release, e.g. {@code Max iteration time:
   * 25.3 ms} or {@code MFU: 6.6 TF/s/GPU 105.0 GB/s/GPU}): its value is everything up to the next
   * {@code ", "} or the end; it must start with a number, so that a cut or garbled line still
   * fails.
   */
  private @Nullable String skipOther(int from) {
    if (from >= message.length()
        || !(Ascii.isDigit(message.charAt(from)) || message.startsWith("nan", from))) {
      return "stats line: bad item";
    }
    int next = message.indexOf(", ", from);
    int end = next < 0 ? message.length() : next;
    if (next < 0 && message.endsWith(".") && end > from + 1) {
      end--;
    }
    cursor = end;
    return null;
  }

  /**
   * {@code ", "} between items; a lone space before the next item (the 2025-01 lines); a final
   * {@code "."} or trailing spaces at the end. False for anything else.
   */
  private boolean readSeparator() {
    int length = message.length();
    if (cursor == length) {
      return true;
    }
    afterSpace = false;
    if (message.startsWith(", ", cursor)) {
      cursor += 2;
      return cursor < length;
    }
    if (message.charAt(cursor) == '.' && cursor + 1 == length) {
      period = true;
      cursor = length;
      return true;
    }
    if (message.charAt(cursor) != ' ') {
      return false;
    }
    while (cursor < length && message.charAt(cursor) == ' ') {
      cursor++;
    }
    afterSpace = true;
    return true;
  }

  /** The completeness checks that catch lines cut at an item boundary. */
  private @Nullable String missingItem() {
    boolean v0 = seen(StatsItem.SWAPPED) || seen(StatsItem.PENDING) || seen(StatsItem.CPU_KV);
    StatsItem[] required =
        v0 ? (seen(StatsItem.THROUGHPUT) ? V0_FIRST_REQUIRED : V0_REQUIRED) : v1Required();
    for (StatsItem item : required) {
      if (!seen(item)) {
        return "stats line: missing '" + item.label() + "'";
      }
    }
    if (!v0 && gpuAfterSpace && !period) {
      // f17f1d460 (2025-01-30) ends "... Waiting: 3 reqs GPU KV cache usage: 4.5%."
      return "stats line: missing final '.'";
    }
    return null;
  }

  private StatsItem[] v1Required() {
    if (!seen(StatsItem.PROMPT_TPS) && !seen(StatsItem.GEN_TPS) && !seen(StatsItem.GPU_KV)) {
      return V1_QUEUES_ONLY;
    }
    return gpuAfterSpace ? V1_WITHOUT_PREFIX : V1_REQUIRED;
  }

  private EngineStats toEvent(
      String instance, @Nullable Instant ts, SourcePosition position, @Nullable String rank) {
    boolean v0 = seen(StatsItem.PENDING);
    return new EngineStats(
        Engine.VLLM,
        instance,
        ts,
        position,
        rank,
        null,
        decimal(StatsItem.PROMPT_TPS),
        decimal(StatsItem.GEN_TPS),
        integer(StatsItem.RUNNING),
        integer(v0 ? StatsItem.PENDING : StatsItem.WAITING),
        integer(StatsItem.SWAPPED),
        decimal(StatsItem.GPU_KV),
        decimal(StatsItem.PREFIX_HIT),
        integer(StatsItem.PREEMPTIONS));
  }

  private boolean seen(StatsItem item) {
    return seen[item.ordinal()];
  }

  private @Nullable Double decimal(StatsItem item) {
    double value = values[item.ordinal()];
    return seen(item) && !Double.isNaN(value) ? value : null;
  }

  private @Nullable Integer integer(StatsItem item) {
    return seen(item) ? (int) values[item.ordinal()] : null;
  }

  static String badValue(StatsItem item) {
    return "stats line: bad '" + item.label() + "' value";
  }
}
