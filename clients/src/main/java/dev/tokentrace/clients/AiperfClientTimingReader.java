package dev.tokentrace.clients;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.SourcePosition;
import java.nio.file.Path;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * NVIDIA AIPerf {@code profile_export.jsonl} (format id {@value #FORMAT}): one JSON record per line
 * with {@code metadata}, {@code metrics} ({@code {value, unit}} pairs), {@code error} and, with
 * {@code --export-http-trace}, {@code trace_data} (docs/formats/clients.md#aiperf).
 *
 * <p>The ID is {@code metadata.x_request_id}, sent as {@code X-Request-ID} on every request. Start
 * is {@code request_start_ns} (epoch ns, before the HTTP call, so TTFT and latency include the wait
 * for a pooled connection, {@code http_req_blocked}, which is the client queue). Failed records
 * (only {@code error_isl} in metrics, {@code error} set) and cancelled ones are kept with their
 * status; {@code benchmark_phase: warmup} marks warm-up. Lines are read one at a time, so memory is
 * bounded by the longest record, not the file.
 */
final class AiperfClientTimingReader implements ClientTimingReader {
  static final String FORMAT = "aiperf";

  /** A record with a long generation's chunk arrays and trace can be large; longer is a reject. */
  static final int MAX_LINE_BYTES = 64 * 1024 * 1024;

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public Recognition recognize(FileHead head) {
    if (head.isJsonObject()
        && head.hasAny(
            "metadata.x_request_id", "metadata.request_start_ns", "metadata.timestamp_ns")) {
      return Recognition.yes();
    }
    return Recognition.no(
        "no metadata.x_request_id, metadata.request_start_ns or metadata.timestamp_ns in the"
            + " first JSON object");
  }

  @Override
  public void read(Path file, ClientReaderOutput sink) {
    ClientLines.readAll(file, MAX_LINE_BYTES, new Lines(), sink);
  }

  @Override
  public ClientLineReader lineReader(FileHead head, @Nullable String state) {
    return new Lines();
  }

  /** One record per line; the warning about records without an ID is said once per file. */
  private static final class Lines implements ClientLineReader {
    private boolean warned;

    @Override
    public void line(SourcePosition position, String raw, ClientReaderOutput sink) {
      String text = ClientLines.withoutBom(position, raw);
      if (text.isBlank()) {
        sink.ignored(position, "blank line");
        return;
      }
      try {
        ClientTiming timing = timing(position, text);
        if (timing.idKind() == IdKind.LOCAL && !warned) {
          warned = true;
          sink.warning(
              position,
              "aiperf: records without metadata.x_request_id cannot be joined by ID;"
                  + " use --match heuristic");
        }
        sink.row(timing);
      } catch (BadField e) {
        sink.rejected(new ClientRejection(position, e.getMessage(), ""));
      }
    }

    @Override
    public void invalid(
        SourcePosition position, String reason, String excerpt, ClientReaderOutput sink) {
      sink.rejected(new ClientRejection(position, reason, ""));
    }
  }

  @Override
  public String noRowsReason(Path file) {
    return "no per-request record in the file; AIPerf writes one JSON record per request to"
        + " profile_export.jsonl in its artifacts directory: pass that file, not"
        + " profile_export_aiperf.json or .csv (the aggregate statistics)";
  }

  private static ClientTiming timing(SourcePosition position, String text) throws BadField {
    JsonNode record;
    try {
      record = ClientJson.MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new BadField(ClientJson.malformed(e));
    }
    if (record == null || !record.isObject()) {
      throw new BadField("not a json object");
    }
    JsonNode metadata = record.get("metadata");
    if (metadata == null || !metadata.isObject()) {
      throw new BadField("missing value for 'metadata'");
    }
    ClientRow row = new ClientRow(position);
    identify(row, metadata, position);
    Instant start = start(metadata);
    String phase = ClientJson.text(metadata, "benchmark_phase");
    if (phase == null) {
      // 2025-09 – 2025-10 schema: credit_phase (docs/formats/client-files.md#aiperf-schemas)
      phase = ClientJson.text(metadata, "credit_phase");
    }
    row.start(start).warmup("warmup".equals(phase));
    row.status(status(record, metadata));
    JsonNode metrics = record.path("metrics");
    String ttftName = metrics.has("time_to_first_token") ? "time_to_first_token" : "ttft";
    row.ttft("metrics." + ttftName, AiperfMetrics.millis(metrics, ttftName))
        .e2e("metrics.request_latency", AiperfMetrics.millis(metrics, "request_latency"));
    String outputName =
        metrics.has("output_sequence_length") ? "output_sequence_length" : "output_token_count";
    row.outputTokens("metrics." + outputName, AiperfMetrics.tokens(metrics, outputName));
    String promptName =
        metrics.has("input_sequence_length") ? "input_sequence_length" : "error_isl";
    row.promptTokens("metrics." + promptName, AiperfMetrics.tokens(metrics, promptName));
    JsonNode trace = record.path("trace_data");
    row.clientQueue(
        "metrics.http_req_blocked", phase(metrics, "http_req_blocked", trace, "blocked_ns"));
    row.detail(detail(metadata, metrics, trace, start));
    return row.build();
  }

  private static void identify(ClientRow row, JsonNode metadata, SourcePosition position) {
    String id = ClientJson.text(metadata, "x_request_id");
    if (id != null && !id.isBlank()) {
      row.id(id, IdKind.SENT);
    } else {
      row.id(FORMAT + "#" + position.line(), IdKind.LOCAL);
    }
  }

  /**
   * {@code request_start_ns} (2025-11 on); {@code timestamp_ns} before
   * (docs/formats/client-files.md#aiperf-schemas): both epoch ns taken before the HTTP call.
   */
  private static Instant start(JsonNode metadata) throws BadField {
    String name = metadata.has("request_start_ns") ? "request_start_ns" : "timestamp_ns";
    if (!metadata.has(name)) {
      name = "request_start_ns";
    }
    Long nanos = ClientJson.integer(metadata, name, "metadata." + name);
    return ClientJson.epochNanos(
        "metadata." + name, ClientFields.required("metadata." + name, nanos));
  }

  /** ok; cancelled; or {@code error: <code> <type>} (the message may quote the request). */
  private static String status(JsonNode record, JsonNode metadata) {
    if (metadata.path("was_cancelled").asBoolean(false)) {
      return "cancelled";
    }
    JsonNode error = record.get("error");
    if (error == null || error.isNull()) {
      // the first schema (2025-09) kept the error in metadata
      error = metadata.get("error");
    }
    if (error == null || error.isNull()) {
      return ClientTiming.STATUS_OK;
    }
    String code = ClientJson.text(error, "code");
    String type = ClientJson.text(error, "type");
    String text = ((code == null ? "" : code) + " " + (type == null ? "" : type)).strip();
    return ClientFields.errorStatus(text.isEmpty() ? "failed" : text);
  }

  private static ClientDetail detail(
      JsonNode metadata, JsonNode metrics, JsonNode trace, Instant start) throws BadField {
    Double ack = null;
    Long ackNs = ClientJson.integer(metadata, "request_ack_ns", "metadata.request_ack_ns");
    if (ackNs != null) {
      long startNs = start.getEpochSecond() * 1_000_000_000L + start.getNano();
      ack = ClientRow.duration("metadata.request_ack_ns", (ackNs - startNs) / 1e6);
    }
    Double dns = phase(metrics, "http_req_dns_lookup", trace, "dns_lookup_ns");
    Double connecting = phase(metrics, "http_req_connecting", trace, "connecting_ns");
    Double connect = dns == null && connecting == null ? null : orZero(dns) + orZero(connecting);
    AiperfMetrics.Chunks chunks = AiperfMetrics.chunks(metrics);
    return new ClientDetail(
        ack,
        connect,
        phase(metrics, "http_req_sending", trace, "sending_ns"),
        phase(metrics, "http_req_waiting", trace, "waiting_ns"),
        phase(metrics, "http_req_receiving", trace, "receiving_ns"),
        chunks == null ? null : chunks.count(),
        chunks == null ? null : chunks.maxMs());
  }

  /** An HTTP phase: the metric (always exported) or the raw trace's duration in ns. */
  private static @Nullable Double phase(
      JsonNode metrics, String metric, JsonNode trace, String traceField) throws BadField {
    Double value = AiperfMetrics.millis(metrics, metric);
    if (value == null && trace.isObject()) {
      Double nanos = ClientJson.number(trace, traceField, "trace_data." + traceField);
      value = nanos == null ? null : nanos / 1e6;
    }
    return ClientRow.duration("metrics." + metric, value);
  }

  private static double orZero(@Nullable Double value) {
    return value == null ? 0 : value;
  }
}
