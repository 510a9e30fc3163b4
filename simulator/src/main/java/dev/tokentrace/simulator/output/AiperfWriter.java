package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.Ids;
import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.SimObserver;
import java.io.Closeable;

/**
 * AIPerf {@code profile_export.jsonl} (docs/formats/clients.md#aiperf): one record per request (its
 * final attempt) in completion order, with the UUID the client sent as X-Request-ID, epoch-ns
 * request start (when it was sent, after any client queue), ack and end, and per-chunk latencies.
 * Timed-out requests are error records. Warm-up requests have {@code benchmark_phase: warmup}.
 * Heartbeats are not tokens here (AIPerf counts tokens with a tokenizer).
 */
final class AiperfWriter implements SimObserver, Closeable {
  private final TextFile out;
  private final WallClock clock;
  private long session;

  AiperfWriter(TextFile out, OutputSettings output) {
    this.out = out;
    this.clock = new WallClock(output.start(), output.zone());
  }

  @Override
  public void clientDone(RequestView request) {
    if (!request.finalAttempt()) {
      return;
    }
    StringBuilder json = out.begin();
    long nonce = request.nonce();
    json.append("{\"metadata\":{\"session_num\":").append(session++);
    json.append(",\"x_request_id\":\"").append(request.clientId());
    json.append("\",\"x_correlation_id\":\"")
        .append(Ids.uuid(Ids.mix(nonce ^ 0xc0L), Ids.mix(nonce ^ 0xc1L)));
    json.append("\",\"conversation_id\":\"")
        .append(Ids.uuid(Ids.mix(nonce ^ 0xc2L), Ids.mix(nonce ^ 0xc3L)));
    json.append("\",\"turn_index\":0,\"request_start_ns\":");
    nanos(json, request.sentUs()).append(",\"request_ack_ns\":");
    nanos(json, ackUs(request)).append(",\"request_end_ns\":");
    nanos(json, request.clientEndUs()).append(",\"worker_id\":\"worker_");
    json.append(
        Ids.hex(
            Ids.mix(request.phase() * 7919L + request.index() % Math.max(1, request.concurrency())),
            8));
    json.append("\",\"benchmark_phase\":\"").append(request.warmup() ? "warmup" : "profiling");
    if (request.timedOut()) {
      json.append("\",\"was_cancelled\":true,\"cancellation_time_ns\":");
      nanos(json, request.clientEndUs()).append("},\"metrics\":{\"error_isl\":");
      value(json, request.promptTokens(), "tokens").append("},\"error\":{\"code\":null,");
      json.append("\"type\":\"TimeoutError\",\"message\":\"request timed out\"}}");
    } else {
      json.append("\",\"was_cancelled\":false,\"cancellation_time_ns\":null},\"metrics\":");
      metrics(json, request);
      json.append(",\"error\":null}");
    }
    out.end();
  }

  /** Response headers arrive about one round trip after sending, never after the first token. */
  private static long ackUs(RequestView request) {
    long roundTripUs = 2 * (request.serverArrivalUs() - request.sentUs());
    long ackUs = request.sentUs() + roundTripUs;
    return request.clientFirstTokenUs() < 0 ? ackUs : Math.min(ackUs, request.clientFirstTokenUs());
  }

  private static void metrics(StringBuilder json, RequestView request) {
    long ttftUs = request.clientFirstTokenUs() - request.sentUs();
    long latencyUs = request.clientEndUs() - request.sentUs();
    int tokens = request.generatedTokens();
    json.append("{\"input_sequence_length\":");
    value(json, request.promptTokens(), "tokens").append(",\"time_to_first_token\":{\"value\":");
    Decimals.shortMillis(json, ttftUs).append(",\"unit\":\"ms\"},\"request_latency\":{\"value\":");
    Decimals.shortMillis(json, latencyUs)
        .append(",\"unit\":\"ms\"},\"inter_chunk_latency\":{\"value\":[");
    long[] times = request.clientTokenTimesUs();
    for (int i = 1; i < times.length; i++) {
      if (i > 1) {
        json.append(',');
      }
      Decimals.shortMillis(json, times[i] - times[i - 1]);
    }
    json.append("],\"unit\":\"ms\"},\"output_sequence_length\":");
    value(json, tokens, "tokens");
    if (tokens > 1) {
      json.append(",\"inter_token_latency\":{\"value\":");
      Decimals.sixDecimals(json, (latencyUs - ttftUs) / 1000.0 / (tokens - 1));
      json.append(",\"unit\":\"ms\"}");
    }
    json.append('}');
  }

  private static StringBuilder value(StringBuilder json, long value, String unit) {
    return json.append("{\"value\":")
        .append(value)
        .append(",\"unit\":\"")
        .append(unit)
        .append("\"}");
  }

  private StringBuilder nanos(StringBuilder json, long simUs) {
    return json.append(clock.epochUs(simUs)).append("000");
  }

  @Override
  public void close() {
    out.close();
  }
}
