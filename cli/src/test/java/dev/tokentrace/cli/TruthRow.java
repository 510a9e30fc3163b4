package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.correlate.attribution.LatencyComponent;
import dev.tokentrace.event.RequestKeys;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.jspecify.annotations.Nullable;

/**
 * One row of a scenario's {@code truth.csv} (the simulator's ground truth, one row per attempt; see
 * the scenario's SOURCE.md): the true latency components of an attempt, in ms. Components are null
 * for attempts the client gave up on.
 */
record TruthRow(
    String requestId,
    String requestKey,
    boolean finalAttempt,
    @Nullable String serverRequestId,
    boolean warmup,
    Instant startTs,
    String status,
    @Nullable Double clientQueueMs,
    @Nullable Double networkTtftMs,
    @Nullable Double networkMs,
    @Nullable Double queueMs,
    @Nullable Double prefillMs,
    @Nullable Double decodeMs,
    @Nullable Double e2eMs,
    String dominant) {

  static List<TruthRow> read(Path file) {
    CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();
    List<TruthRow> rows = new ArrayList<>();
    try (Reader reader = Files.newBufferedReader(file, UTF_8)) {
      for (CSVRecord record : format.parse(reader)) {
        rows.add(of(record));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return rows;
  }

  private static TruthRow of(CSVRecord record) {
    String requestId = record.get("request_id");
    String serverId = record.get("server_request_id");
    return new TruthRow(
        requestId,
        RequestKeys.normalize(requestId),
        Boolean.parseBoolean(record.get("final")),
        serverId.isEmpty() ? null : serverId,
        Boolean.parseBoolean(record.get("warmup")),
        Instant.parse(record.get("start_ts")),
        record.get("status"),
        millis(record.get("client_queue_ms")),
        millis(record.get("network_ttft_ms")),
        millis(record.get("network_ms")),
        millis(record.get("queue_ms")),
        millis(record.get("prefill_ms")),
        millis(record.get("decode_ms")),
        millis(record.get("e2e_ms")),
        record.get("dominant"));
  }

  private static @Nullable Double millis(String value) {
    return value.isEmpty() ? null : Double.valueOf(value);
  }

  /** A completed final attempt: what the client file reports and the accuracy tests compare. */
  boolean counted() {
    return finalAttempt && status.equals("ok");
  }

  /** Counted and not warm-up: the requests a scenario's true bottleneck is derived from. */
  boolean included() {
    return counted() && !warmup;
  }

  /** The server's own time: queue + prefill + decode. */
  double serverMs() {
    return component(LatencyComponent.QUEUE)
        + component(LatencyComponent.PREFILL)
        + component(LatencyComponent.DECODE);
  }

  double component(LatencyComponent component) {
    Double value;
    switch (component) {
      case CLIENT_QUEUE:
        value = clientQueueMs;
        break;
      case NETWORK:
        value = networkMs;
        break;
      case QUEUE:
        value = queueMs;
        break;
      case PREFILL:
        value = prefillMs;
        break;
      case DECODE:
        value = decodeMs;
        break;
      default:
        throw new IllegalStateException("unhandled component: " + component);
    }
    if (value == null) {
      throw new IllegalStateException(
          requestId + ": no true " + component.id() + " (" + status + ")");
    }
    return value;
  }
}
