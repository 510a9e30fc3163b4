package dev.tokentrace.simulator.pd;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * Writes a P/D run in NVIDIA Dynamo's formats (docs/formats/dynamo.md,
 * docs/formats/pd.md#simulator) from the same simulated requests as every other engine: the proxy
 * of the model is Dynamo's frontend, which writes one {@code request_end} record per request to its
 * request-trace sink ({@code frontend/request_trace.jsonl}) and its own {@code http-request} span
 * to its JSONL log ({@code frontend/frontend.log}); each worker writes its JSONL log ({@code
 * prefill-N/worker.log}, {@code decode-N/worker.log}) with a {@code SPAN_CLOSED} line for its
 * {@code handle_payload} span of every request. The client's ID is the {@code x-request-id} header,
 * so every line carries it as {@code x_request_id}. Timing as Dynamo's {@code RequestTracker}
 * defines it: the frontend routes for half of the proxy's time and the hop to a worker takes the
 * other half; the prefill worker's answer and the decode worker's tokens reach it one proxy time
 * after the worker produced them. Under each worker the in-process vLLM engine's own records are
 * written too (docs/formats/dynamo.md#engine-records): its OTLP span export ({@code otlp.jsonl})
 * and, in the decode worker's log, its scheduler's DEBUG record of each transfer's end, both naming
 * the request by Dynamo's ID (the client's {@code x-request-id}).
 */
final class PdDynamoFiles {
  /** Dynamo's worker ids are etcd lease ids, printed in decimal. */
  private static final long PREFILL_LEASE = 7_587_888_160_958_627_000L;

  private static final long DECODE_LEASE = 7_587_888_160_958_628_000L;

  private static final int SPANS_PER_LINE = 64;

  private static final DateTimeFormatter RFC3339_MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private PdDynamoFiles() {}

  static void write(PdScenario scenario, Path dir, List<PdRequest> requests) {
    try {
      Files.createDirectories(dir.resolve("frontend"));
      frontend(scenario, dir.resolve("frontend"), requests);
      for (int p = 0; p < scenario.prefillServers(); p++) {
        worker(dir.resolve(PdFiles.prefill(p)).resolve("worker.log"), requests, p, true);
        engineSpans(dir.resolve(PdFiles.prefill(p)).resolve("otlp.jsonl"), requests, p, true);
      }
      for (int d = 0; d < scenario.decodeServers(); d++) {
        worker(dir.resolve(PdFiles.decode(d)).resolve("worker.log"), requests, d, false);
        engineSpans(dir.resolve(PdFiles.decode(d)).resolve("otlp.jsonl"), requests, d, false);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir, e);
    }
  }

  private static void frontend(PdScenario s, Path dir, List<PdRequest> requests)
      throws IOException {
    List<PdRequest> byEnd = new ArrayList<>(requests);
    byEnd.sort((a, b) -> Long.compare(a.decodeLastTokenUs(), b.decodeLastTokenUs()));
    long half = s.proxyUs() / 2;
    try (BufferedWriter trace = Files.newBufferedWriter(dir.resolve("request_trace.jsonl"), UTF_8);
        BufferedWriter log = Files.newBufferedWriter(dir.resolve("frontend.log"), UTF_8)) {
      log.write(
          logLine(
              0,
              "INFO",
              "dynamo_llm::http::service::service_v2",
              "Starting HTTP service on: 0.0.0.0:8000"));
      for (PdRequest r : byEnd) {
        long received = r.prefillArrivalUs() - s.proxyUs();
        long dispatched = received + half;
        long prefillAnswer = r.prefillFirstTokenUs() + s.proxyUs();
        long decodeFirst = r.decodeFirstTokenUs() + s.proxyUs();
        long finished = r.decodeLastTokenUs() + s.proxyUs();
        long receivedMs = Math.floorDiv(epochUs(received), 1000);
        long totalUs = finished - received;
        StringBuilder line = new StringBuilder(640);
        // the sink's own clock: milliseconds since it started (the simulation's zero)
        line.append("{\"timestamp\":").append(finished / 1000);
        line.append(",\"event\":{\"schema\":\"dynamo.request.trace.v1\"");
        line.append(",\"event_type\":\"request_end\",\"event_time_unix_ms\":");
        line.append(receivedMs + Math.round(totalUs / 1000.0));
        line.append(",\"event_source\":\"dynamo\"");
        line.append(",\"agent_context\":{\"session_id\":\"tokentrace-simulated\"}");
        // Dynamo's own ID: the client's x-request-id (docs/formats/dynamo.md#engine-records)
        line.append(",\"request\":{\"request_id\":\"").append(r.id());
        line.append("\",\"x_request_id\":\"").append(r.id());
        line.append("\",\"model\":\"Qwen/Qwen3-0.6B\",\"input_tokens\":").append(r.promptTokens());
        line.append(",\"output_tokens\":").append(r.outputTokens());
        line.append(",\"cached_tokens\":0,\"request_received_ms\":").append(receivedMs);
        line.append(",\"prefill_wait_time_ms\":").append(ms(dispatched - received));
        line.append(",\"prefill_time_ms\":").append(ms(prefillAnswer - dispatched));
        line.append(",\"ttft_ms\":").append(ms(prefillAnswer - received));
        line.append(",\"total_time_ms\":").append(ms(totalUs));
        if (r.outputTokens() >= 2) {
          BigDecimal itl =
              BigDecimal.valueOf(finished - prefillAnswer, 3)
                  .divide(BigDecimal.valueOf(r.outputTokens() - 1), 6, RoundingMode.HALF_EVEN);
          line.append(",\"avg_itl_ms\":").append(itl.stripTrailingZeros().toPlainString());
        }
        line.append(",\"kv_hit_rate\":0.0,\"kv_transfer_estimated_latency_ms\":");
        line.append(ms(decodeFirst - prefillAnswer));
        line.append(",\"queue_depth\":0,\"worker\":{\"prefill_worker_id\":");
        line.append(PREFILL_LEASE + r.prefillServer());
        line.append(",\"prefill_dp_rank\":0,\"decode_worker_id\":");
        line.append(DECODE_LEASE + r.decodeServer()).append(",\"decode_dp_rank\":0}}}}\n");
        trace.write(line.toString());
        log.write(httpSpan(r, received, finished));
      }
    }
  }

  /** The frontend's own root span, closing when the response ends (not read: its whole time). */
  private static String httpSpan(PdRequest r, long received, long finished) {
    long duration = finished - received;
    return "{\"time\":\""
        + time(finished)
        + "\",\"level\":\"INFO\",\"file\":\"/opt/dynamo/lib/runtime/src/logging.rs\",\"line\":248"
        + ",\"target\":\"dynamo_runtime::logging\",\"message\":\"SPAN_CLOSED\",\"method\":\"POST\""
        + ",\"span_id\":\""
        + String.format("%016x", 0x6959a1b2d1ee0000L + r.index())
        + "\",\"span_name\":\"http-request\",\"time.busy_us\":"
        + Math.min(duration, 900)
        + ",\"time.duration_us\":"
        + duration
        + ",\"time.idle_us\":"
        + (duration - Math.min(duration, 900))
        + ",\"trace_id\":\""
        + traceId(r)
        + "\",\"uri\":\"/v1/chat/completions\",\"version\":\"HTTP/1.1\",\"x_request_id\":\""
        + r.id()
        + "\"}\n";
  }

  private static void worker(Path file, List<PdRequest> requests, int server, boolean prefill)
      throws IOException {
    Files.createDirectories(file.getParent());
    List<PdRequest> mine = PdFiles.served(requests, server, prefill);
    long lease = (prefill ? PREFILL_LEASE : DECODE_LEASE) + server;
    try (BufferedWriter out = Files.newBufferedWriter(file, UTF_8)) {
      // a Python record of the in-process vLLM engine, as Dynamo's JSONL logger prints it
      out.write(
          "{\"time\":\""
              + time(0)
              + "\",\"level\":\"INFO\",\"target\":\"log\",\"message\":\"VllmWorker for"
              + " Qwen/Qwen3-0.6B has been initialized\",\"log.file\":"
              + "\"/opt/dynamo/venv/lib/python3.12/site-packages/dynamo/vllm/main.py\","
              + "\"log.line\":191,\"log.target\":\"main.init\"}\n");
      TreeMap<Long, List<String>> lines = new TreeMap<>();
      for (PdRequest r : mine) {
        if (!prefill) {
          lines.computeIfAbsent(r.kvReadyUs(), k -> new ArrayList<>()).add(recvLine(r));
        }
        long arrival = prefill ? r.prefillArrivalUs() : r.decodeArrivalUs();
        long end = prefill ? r.prefillFirstTokenUs() : r.decodeLastTokenUs();
        long duration = end - arrival;
        long busy = Math.min(duration, 1_000);
        lines
            .computeIfAbsent(end, k -> new ArrayList<>())
            .add(
                "{\"time\":\""
                    + time(end)
                    + "\",\"level\":\"INFO\",\"file\":"
                    + "\"/opt/dynamo/lib/runtime/src/pipeline/network/ingress/push_endpoint.rs\""
                    + ",\"line\":108,\"target\":"
                    + "\"dynamo_runtime::pipeline::network::ingress::push_endpoint\""
                    + ",\"message\":\"SPAN_CLOSED\",\"component\":\""
                    + (prefill ? "prefill" : "backend")
                    + "\",\"endpoint\":\"generate\",\"instance_id\":\""
                    + lease
                    + "\",\"namespace\":\"dynamo\",\"parent_id\":\""
                    + String.format("%016x", 0x6959a1b2d1ee0000L + r.index())
                    + "\",\"span_id\":\""
                    + String.format(
                        "%016x", (prefill ? 0xb035f33b00000000L : 0x5a732a3700000000L) + r.index())
                    + "\",\"span_name\":\"handle_payload\",\"time.busy_us\":"
                    + busy
                    + ",\"time.duration_us\":"
                    + duration
                    + ",\"time.idle_us\":"
                    + (duration - busy)
                    + ",\"trace_id\":\""
                    + traceId(r)
                    + "\",\"x_request_id\":\""
                    + r.id()
                    + "\"}\n");
      }
      for (List<String> at : lines.values()) {
        for (String line : at) {
          out.write(line);
        }
      }
    }
  }

  /**
   * The decode engine's scheduler record of the end of the request's KV transfer, as Dynamo's JSONL
   * logger prints a DEBUG record of vLLM (docs/formats/dynamo.md#engine-records): the engine names
   * the request by Dynamo's ID with vLLM's random suffix (v0.16 →).
   */
  private static String recvLine(PdRequest r) {
    return "{\"time\":\""
        + time(r.kvReadyUs())
        + "\",\"level\":\"DEBUG\",\"target\":\"log\",\"message\":\"Finished recving KV transfer"
        + " for request "
        + r.id()
        + String.format("-%08x", (r.index() * 2_654_435_761L) & 0xffff_ffffL)
        + "\",\"log.file\":\"/opt/dynamo/venv/lib/python3.12/site-packages/vllm/v1/core/sched/"
        + "scheduler.py\",\"log.line\":1894,\"log.target\":\"vllm.v1.core.sched.scheduler\"}\n";
  }

  /**
   * The in-process vLLM engine's own OTLP span export ({@code --otlp-traces-endpoint} through a
   * collector's file exporter, docs/formats/dynamo.md#engine-records): one {@code llm_request} span
   * per request, named by Dynamo's ID as the worker hands it to the engine (no {@code chatcmpl-}
   * prefix: that is vLLM's HTTP server's).
   */
  private static void engineSpans(Path file, List<PdRequest> requests, int server, boolean prefill)
      throws IOException {
    List<PdRequest> mine = PdFiles.served(requests, server, prefill);
    try (BufferedWriter out = Files.newBufferedWriter(file, UTF_8)) {
      for (int from = 0; from < mine.size(); from += SPANS_PER_LINE) {
        List<PdRequest> batch = mine.subList(from, Math.min(mine.size(), from + SPANS_PER_LINE));
        out.write(PdFiles.spanLine(batch, prefill, PdFiles.START, PdRequest::id));
      }
    }
  }

  private static String logLine(long simUs, String level, String target, String message) {
    return "{\"time\":\""
        + time(simUs)
        + "\",\"level\":\""
        + level
        + "\",\"target\":\""
        + target
        + "\",\"message\":\""
        + message
        + "\"}\n";
  }

  private static String traceId(PdRequest r) {
    return String.format("%032x", 0x425ef761ca5b0000L + r.index());
  }

  private static String time(long simUs) {
    return RFC3339_MICROS.format(instant(simUs));
  }

  private static Instant instant(long simUs) {
    return PdFiles.START.plusNanos(simUs * 1000);
  }

  private static long epochUs(long simUs) {
    return PdFiles.START.getEpochSecond() * 1_000_000 + simUs;
  }

  /** A duration in ms as Rust prints an f64 of whole microseconds ({@code 12.345}). */
  private static String ms(long us) {
    String text = BigDecimal.valueOf(us, 3).stripTrailingZeros().toPlainString();
    return text.contains(".") ? text : text + ".0";
  }
}
