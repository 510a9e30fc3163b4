package dev.tokentrace.parse.trtllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The per-rank KV-transfer CSVs TensorRT-LLM's cache transceiver writes into {@code
 * TRTLLM_KVCACHE_TIME_OUTPUT_PATH} (docs/formats/trtllm.md#kv-transfer-csv) → one {@code
 * kv_transfer} row per request (transfers 1, source kind {@value #SOURCE_KIND}):
 *
 * <ul>
 *   <li>2025: {@code rank_<r>_send.csv} (context server) and {@code rank_<r>_recv.csv} (generation
 *       server), header {@code RequestID,Delay(ms),Duration(ms),Bandwidth(Gbps)}, e.g. {@code
 *       1099511627776,0.412,3.185,41.7} (samples/pd/trtllm/transfer-bound);
 *   <li>2026: {@code <instance uuid>_<r>_send.csv} / {@code _recv.csv} with the three columns once
 *       per transmission, in any order; {@code <instance uuid>_<r>_gen_transfer_summary.csv} with
 *       {@code RequestID,gen_side_transfer_time(ms),kv_cache_size}.
 * </ul>
 *
 * The transfer time is the latest transmission's delay + duration (its wait and its transfer,
 * docs/formats/pd.md#tensorrt-llm), or the summary's generation-side time; the side is the file
 * name's ({@code send}: prefill, {@code recv} and the summary: decode). Rows before a header use
 * the 2025 layout. Stateful per source: not thread-safe.
 */
final class TransferCsv {
  static final String SOURCE_KIND = "transfer_csv";
  static final String HEADER_RULE = "trtllm: transfer csv header";

  private static final String ID = "RequestID";
  private static final String DELAY = "Delay(ms)";
  private static final String DURATION = "Duration(ms)";
  private static final String BANDWIDTH = "Bandwidth(Gbps)";
  private static final String GEN_SIDE = "gen_side_transfer_time(ms)";
  private static final String SIZE = "kv_cache_size";
  private static final List<String> LAYOUT_2025 = List.of(ID, DELAY, DURATION, BANDWIDTH);

  private final String instance;
  private @Nullable List<String> columns;

  TransferCsv(String instance) {
    this.instance = instance;
  }

  /** A transfer CSV header: {@code RequestID,} and a duration column. */
  static boolean isHeader(String line) {
    return line.startsWith(ID + ",") && (line.contains(DURATION) || line.contains(GEN_SIDE));
  }

  /** A data row of this source: after a header, or in a file named as the transceiver does. */
  boolean accepts(String line, SourcePosition position) {
    return !line.isEmpty()
        && Character.isDigit(line.charAt(0))
        && line.indexOf(',') > 0
        && (columns != null || side(position.path()) != null);
  }

  void header(String line, SourcePosition position, ParseOutput sink) {
    columns = List.of(line.strip().split(",", -1));
    sink.ignored(position, HEADER_RULE);
  }

  void row(String line, SourcePosition position, ParseOutput sink) {
    List<String> layout = columns != null ? columns : LAYOUT_2025;
    String[] fields = line.strip().split(",", -1);
    String side = layout.contains(GEN_SIDE) ? "decode" : side(position.path());
    if (fields.length != layout.size()) {
      reject(
          sink,
          position,
          "transfer csv: " + fields.length + " fields, header has " + layout.size(),
          line);
      return;
    }
    if (side == null) {
      reject(sink, position, "transfer csv: file name says neither send nor recv", line);
      return;
    }
    String id = fields[layout.indexOf(ID)].strip();
    Double end = null;
    List<Double> bandwidths = new ArrayList<>();
    Double size = null;
    try {
      for (int i = 0; i < layout.size(); i++) {
        String column = layout.get(i);
        if (column.equals(DURATION)) {
          double delay = delayBefore(layout, fields, i);
          double done = delay + number(fields[i], column);
          end = end == null ? done : Math.max(end, done);
        } else if (column.equals(GEN_SIDE)) {
          end = number(fields[i], column);
        } else if (column.equals(BANDWIDTH)) {
          bandwidths.add(number(fields[i], column));
        } else if (column.equals(SIZE)) {
          size = number(fields[i], column);
        }
      }
    } catch (NumberFormatException e) {
      reject(sink, position, "transfer csv: " + e.getMessage(), line);
      return;
    }
    if (end == null) {
      reject(sink, position, "transfer csv: no duration column", line);
      return;
    }
    sink.event(event(id, side, end, mean(bandwidths), size, position));
  }

  private KvTransfer event(
      String id,
      String side,
      double durationMs,
      @Nullable Double gbps,
      @Nullable Double bytes,
      SourcePosition position) {
    Double mbPerS = gbps == null ? null : gbps * 1e9 / 8 / (1 << 20);
    Double mb = bytes == null ? null : bytes / (1 << 20);
    return new KvTransfer(
        Engine.TRTLLM,
        instance,
        null,
        position,
        id,
        RequestKeys.normalize(id),
        side,
        null,
        null,
        1,
        durationMs,
        null,
        mb,
        mbPerS,
        null,
        null,
        SOURCE_KIND);
  }

  /** The delay of the transmission whose duration is column {@code i}: the nearest before it. */
  private static double delayBefore(List<String> layout, String[] fields, int i) {
    for (int j = i - 1; j >= 0 && !layout.get(j).equals(DURATION); j--) {
      if (layout.get(j).equals(DELAY)) {
        return number(fields[j], DELAY);
      }
    }
    for (int j = i + 1; j < layout.size() && !layout.get(j).equals(DURATION); j++) {
      if (layout.get(j).equals(DELAY)) {
        return number(fields[j], DELAY);
      }
    }
    return 0;
  }

  private static double number(String text, String column) {
    double value;
    try {
      value = Double.parseDouble(text.strip());
    } catch (NumberFormatException e) {
      throw new NumberFormatException("bad '" + column + "' value \"" + text + "\"");
    }
    if (!Double.isFinite(value) || value < 0) {
      throw new NumberFormatException("bad '" + column + "' value \"" + text + "\"");
    }
    return value;
  }

  private static @Nullable Double mean(List<Double> values) {
    return values.isEmpty()
        ? null
        : values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
  }

  /** {@code prefill} for a send file, {@code decode} for a recv file, else null. */
  static @Nullable String side(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
    if (name.endsWith("_send.csv")) {
      return "prefill";
    }
    if (name.endsWith("_recv.csv") || name.endsWith("_gen_transfer_summary.csv")) {
      return "decode";
    }
    return null;
  }

  private static void reject(
      ParseOutput sink, SourcePosition position, String reason, String line) {
    sink.rejected(Rejection.of(position, Engine.TRTLLM, reason, line));
  }
}
