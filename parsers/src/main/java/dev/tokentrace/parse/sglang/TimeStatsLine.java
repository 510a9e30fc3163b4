package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.Numbers;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Reads the {@code --enable-request-time-stats-logging} line of all four layouts (
 * docs/formats/sglang.md#time-stats-line) into {@code request_timing} with source kind {@code
 * req_time_stats}:
 *
 * <ul>
 *   <li>v0.4.6.post4 – v0.5.4.post2: {@code Req Time Stats(rid=R, input len=N, output len=M,
 *       type=unified): queue_duration=Qms, forward_duration=Fms, start_time=T} (prefill and decode
 *       types put bootstrap / prealloc / transfer durations first);
 *   <li>v0.5.4.post3 – 2026-05-05: prefill {@code bootstrap_queue_duration(Xms) = ...;
 *       queue_duration=Qms, ..., start=T}, decode {@code prealloc_queue_duration(Xms) = ...;
 *       transfer_duration=Tms; queue_duration=Qms, ...};
 *   <li>2026-05-06+: {@code ReqTimeStats(rid=R, input_len=N, cached_input_len=C, output_len=M,
 *       attempts=K, type=unified): queue_duration=Qms, forward_duration=Fms, entry_time=E}.
 * </ul>
 *
 * <p>Mapping: {@code queue_ms} = {@code queue_duration} (scheduler waiting queue to first
 * scheduled, already in ms); {@code prompt_tokens} = input len, {@code output_tokens} = output len,
 * {@code cached_tokens} = {@code cached_input_len}. {@code forward_duration} (first scheduled to
 * finished: prefill and all decode together) has no field of its own and is not split; the
 * bootstrap/transfer durations of disaggregated servers are not queueing of this server's scheduler
 * and are left out. In v0.4.6.post4 – v0.5.3rc0 only the completion time was ever set upstream
 * (docs/formats/sglang.md#request-time-stats), so a line whose start time is 0 carries no times and
 * is ignored by name. Stateless.
 */
final class TimeStatsLine {
  static final String LEGACY = "Req Time Stats(";
  static final String CURRENT = "ReqTimeStats(";
  static final String KIND = "req_time_stats";
  static final String WITHOUT_TIMES = "sglang: time stats without times";

  private static final String[] START_KEYS = {" start_time=", " start=", " entry_time="};

  private final String instance;

  TimeStatsLine(String instance) {
    this.instance = instance;
  }

  /** True when the body at {@code start} is a time-stats line (then it was fully handled). */
  boolean parse(
      String line, int start, @Nullable Instant ts, SourcePosition source, ParseOutput sink) {
    int headStart;
    if (line.startsWith(LEGACY, start)) {
      headStart = start + LEGACY.length();
    } else if (line.startsWith(CURRENT, start)) {
      headStart = start + CURRENT.length();
    } else {
      return false;
    }
    String problem = read(line, headStart, ts, source, sink);
    if (problem != null) {
      sink.rejected(Rejection.of(source, Engine.SGLANG, "time stats line: " + problem, line));
    }
    return true;
  }

  private @Nullable String read(
      String line, int headStart, @Nullable Instant ts, SourcePosition source, ParseOutput sink) {
    int headEnd = line.indexOf("): ", headStart);
    if (headEnd < 0 || !line.startsWith("rid=", headStart)) {
      return "no rid";
    }
    int ridEnd = line.indexOf(", ", headStart);
    ridEnd = ridEnd < 0 || ridEnd > headEnd ? headEnd : ridEnd;
    String rid = line.substring(headStart + 4, ridEnd);
    if (rid.isBlank()) {
      return "no rid";
    }
    int bodyStart = headEnd + 3;
    double startTime = startTime(line, bodyStart);
    if (line.startsWith("Unknown", bodyStart) || startTime == 0) {
      sink.ignored(source, WITHOUT_TIMES);
      return null;
    }
    int queueAt = field(line, bodyStart, "queue_duration=");
    if (queueAt < 0) {
      return "no queue_duration";
    }
    double queueMs = milliseconds(line, queueAt);
    if (Double.isNaN(queueMs)) {
      return "bad 'queue_duration' value";
    }
    Head head = new Head();
    String problem = head.read(line, ridEnd, headEnd);
    if (problem != null) {
      return problem;
    }
    sink.event(
        new RequestTiming(
            Engine.SGLANG,
            instance,
            ts,
            source,
            rid,
            RequestKeys.normalize(rid),
            null,
            queueMs,
            null,
            null,
            null,
            null,
            head.input,
            head.output,
            head.cached,
            null,
            KIND));
    return null;
  }

  /** The start of the value of {@code name} when it begins the body or follows a space. */
  private static int field(String line, int from, String name) {
    for (int at = line.indexOf(name, from); at >= 0; at = line.indexOf(name, at + 1)) {
      if (at == from || line.charAt(at - 1) == ' ') {
        return at + name.length();
      }
    }
    return -1;
  }

  /** {@code 12.34ms} at {@code at} (a sign allowed: clocks can step); NaN when unreadable. */
  private static double milliseconds(String line, int at) {
    int end = line.indexOf("ms", at);
    if (end < 0) {
      return Double.NaN;
    }
    boolean negative = at < end && line.charAt(at) == '-';
    double value = Numbers.decimal(line, negative ? at + 1 : at, end);
    return negative ? -value : value;
  }

  /** The start/entry time value, NaN when absent or unreadable (only 0 matters, see above). */
  private static double startTime(String line, int bodyStart) {
    for (String key : START_KEYS) {
      int at = line.indexOf(key, bodyStart);
      if (at >= 0) {
        int valueStart = at + key.length();
        int end = valueStart;
        while (end < line.length() && line.charAt(end) != ',' && line.charAt(end) != ' ') {
          end++;
        }
        return Numbers.decimal(line, valueStart, end);
      }
    }
    return Double.NaN;
  }

  /** The {@code key=value} pairs after the rid: token counts. */
  private static final class Head {
    @Nullable Integer input;
    @Nullable Integer output;
    @Nullable Integer cached;

    @Nullable String read(String line, int from, int headEnd) {
      int p = from;
      while (p < headEnd) {
        int next = line.indexOf(", ", p);
        int end = next < 0 || next > headEnd ? headEnd : next;
        int equals = line.indexOf('=', p);
        if (equals > p && equals < end) {
          String problem = pair(line, line.substring(p, equals).strip(), equals + 1, end);
          if (problem != null) {
            return problem;
          }
        }
        p = end + 2;
      }
      return null;
    }

    private @Nullable String pair(String line, String key, int start, int end) {
      boolean isInput = key.equals("input len") || key.equals("input_len");
      boolean isOutput = key.equals("output len") || key.equals("output_len");
      boolean isCached = key.equals("cached_input_len");
      if (!isInput && !isOutput && !isCached) {
        return null;
      }
      int value = Numbers.count(line, start, end);
      if (value < 0) {
        return "bad '" + key + "' value";
      }
      if (isInput) {
        input = value;
      } else if (isOutput) {
        output = value;
      } else {
        cached = value;
      }
      return null;
    }
  }
}
