package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.Numbers;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;
import java.util.regex.Pattern;
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
 * <p>Mapping (type {@code unified}): {@code queue_ms} = {@code queue_duration} (scheduler waiting
 * queue to first scheduled, already in ms); {@code prompt_tokens} = input len, {@code
 * output_tokens} = output len, {@code cached_tokens} = {@code cached_input_len}. {@code
 * forward_duration} (first scheduled to finished: prefill and all decode together) has no field of
 * its own and is not split. Types {@code prefill} and {@code decode} (prefill/decode
 * disaggregation) are read as docs/formats/pd.md#sglang-time-stats says: the prefill server's queue
 * with its bootstrap queue, its prefill = forward − transfer and a {@code kv_transfer} row when the
 * line has {@code transfer_total} and {@code transfer_speed}; the decode server's queue and its
 * forward time as decode. In v0.4.6.post4 – v0.5.3rc0 only the completion time was ever set
 * upstream (docs/formats/sglang.md#request-time-stats), so a line whose start time is 0 carries no
 * times and is ignored by name. Stateless.
 */
final class TimeStatsLine {
  static final String LEGACY = "Req Time Stats(";
  static final String CURRENT = "ReqTimeStats(";
  static final String KIND = "req_time_stats";
  static final String WITHOUT_TIMES = "sglang: time stats without times";

  private static final String[] START_KEYS = {" start_time=", " start=", " entry_time="};

  /** The prefix of a request key made from the router's bootstrap room. */
  static final String ROOM_KEY = "bootstrap_room-";

  /**
   * {@code bootstrap_room}: a non-negative integer (mini_lb: below 2^63; the Rust router's gRPC
   * path: below 2^31).
   */
  private static final Pattern ROOM = Pattern.compile("[0-9]{1,19}");

  /** A rid SGLang made itself ({@code uuid.uuid4().hex}: 32 lower-case hex digits). */
  private static final Pattern OWN_RID = Pattern.compile("[0-9a-f]{32}");

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
    int queueAt = PdTimeStats.field(line, bodyStart, "queue_duration=");
    if (queueAt < 0) {
      return "no queue_duration";
    }
    double queueMs = PdTimeStats.milliseconds(line, queueAt);
    if (Double.isNaN(queueMs)) {
      return "bad 'queue_duration' value";
    }
    Head head = new Head();
    String problem = head.read(line, ridEnd, headEnd);
    if (problem != null) {
      return problem;
    }
    if (PdTimeStats.PREFILL.equals(head.type) || PdTimeStats.DECODE.equals(head.type)) {
      return disaggregated(new Read(line, bodyStart, ts, source, rid, queueMs, head), sink);
    }
    sink.event(timing(new Read(line, bodyStart, ts, source, rid, queueMs, head), null, null));
    return null;
  }

  /**
   * A prefill or decode server's line (docs/formats/pd.md#sglang-time-stats): the prefill server's
   * queue is its bootstrap queue plus its waiting queue, its prefill the forward time less the KV
   * transfer, which becomes a {@code kv_transfer} row of its own; the decode server's queue is its
   * waiting queue after the transfer and its decode the forward time.
   */
  private @Nullable String disaggregated(Read read, ParseOutput sink) {
    int forwardAt = PdTimeStats.field(read.line, read.bodyStart, "forward_duration=");
    double forwardMs = forwardAt < 0 ? Double.NaN : PdTimeStats.milliseconds(read.line, forwardAt);
    if (forwardAt >= 0 && Double.isNaN(forwardMs)) {
      return "bad 'forward_duration' value";
    }
    Double forward = Double.isNaN(forwardMs) ? null : forwardMs;
    if (PdTimeStats.DECODE.equals(read.head.type)) {
      sink.event(timing(read, null, forward));
      return null;
    }
    double bootstrapMs = PdTimeStats.bootstrapQueueMs(read.line, read.bodyStart);
    if (Double.isNaN(bootstrapMs)) {
      return "bad bootstrap queue value";
    }
    double transferMs = PdTimeStats.transferMs(read.line, read.bodyStart);
    if (Double.isNaN(transferMs)) {
      return "bad 'transfer_speed' or 'transfer_total' value";
    }
    Read prefill = read.withQueue(micros(read.queueMs + bootstrapMs));
    if (transferMs < 0 || forward == null) {
      sink.event(timing(prefill, null, null));
      return null;
    }
    sink.event(timing(prefill, micros(forward - transferMs), null));
    sink.event(
        new KvTransfer(
            Engine.SGLANG,
            instance,
            read.ts,
            read.source,
            read.rid,
            key(read),
            PdTimeStats.PREFILL,
            null,
            null,
            1,
            micros(transferMs),
            null,
            PdTimeStats.totalMb(read.line, read.bodyStart),
            PdTimeStats.speedMbS(read.line, read.bodyStart),
            null,
            null,
            KIND));
    return null;
  }

  private RequestTiming timing(Read read, @Nullable Double prefillMs, @Nullable Double decodeMs) {
    return new RequestTiming(
        Engine.SGLANG,
        instance,
        read.ts,
        read.source,
        read.rid,
        key(read),
        null,
        read.queueMs,
        prefillMs,
        decodeMs,
        null,
        null,
        read.head.input,
        read.head.output,
        read.head.cached,
        null,
        KIND);
  }

  /**
   * The request key: the client's rid, normalized; but a prefill or decode server's own rid (the
   * client set none: SGLang's 32-hex uuid, different on the two servers) gives way to the router's
   * {@code bootstrap_room}, which both servers' lines print, so the two halves share one key
   * (docs/formats/pd.md#sglang-request-ids).
   */
  private static String key(Read read) {
    if (read.head.room != null
        && (PdTimeStats.PREFILL.equals(read.head.type) || PdTimeStats.DECODE.equals(read.head.type))
        && OWN_RID.matcher(read.rid).matches()) {
      return ROOM_KEY + read.head.room;
    }
    return RequestKeys.normalize(read.rid);
  }

  /** Rounded to the µs: the line's durations have two decimals of a ms. */
  private static double micros(double ms) {
    return Math.round(ms * 1000) / 1000.0;
  }

  /** What the head and the queue of one line said. */
  private record Read(
      String line,
      int bodyStart,
      @Nullable Instant ts,
      SourcePosition source,
      String rid,
      double queueMs,
      Head head) {
    Read withQueue(double queue) {
      return new Read(line, bodyStart, ts, source, rid, queue, head);
    }
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
    @Nullable String type;
    @Nullable String room;

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
      if (key.equals("type")) {
        type = line.substring(start, end);
        return null;
      }
      if (key.equals("bootstrap_room")) {
        String value = line.substring(start, end);
        // anything but an integer (None) names no room: the line keys by its rid as before
        room = ROOM.matcher(value).matches() ? value : null;
        return null;
      }
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
