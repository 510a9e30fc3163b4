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
import java.util.Map;
import java.util.stream.Collectors;
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
    String dominant,
    boolean retried) {

  static List<TruthRow> read(Path file) {
    CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();
    List<CSVRecord> records;
    try (Reader reader = Files.newBufferedReader(file, UTF_8)) {
      records = format.parse(reader).getRecords();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    Map<String, Long> attempts =
        records.stream()
            .collect(
                Collectors.groupingBy(record -> record.get("request_id"), Collectors.counting()));
    List<TruthRow> rows = new ArrayList<>();
    for (CSVRecord record : records) {
      rows.add(of(record, attempts.get(record.get("request_id")) > 1));
    }
    return rows;
  }

  private static TruthRow of(CSVRecord record, boolean retried) {
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
        record.get("dominant"),
        retried);
  }

  private static @Nullable Double millis(String value) {
    return value.isEmpty() ? null : Double.valueOf(value);
  }

  /**
   * A completed final attempt: what the client file reports and the accuracy tests compare. A
   * retried request reached the server more than once under one ID; tokentrace attributes the
   * record the final attempt left (the only completed one, or the last to arrive by the client's
   * send; per_request.sql "retries") and marks it retried, so its final attempt is compared like
   * any other.
   */
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
