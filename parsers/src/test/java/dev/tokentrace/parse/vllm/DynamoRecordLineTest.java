package dev.tokentrace.parse.vllm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.parse.ParseSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** NVIDIA Dynamo's JSONL records read by the vLLM parser (docs/formats/dynamo.md). */
final class DynamoRecordLineTest {
  private static final Path SAMPLE = Path.of("../samples/pd/dynamo/slow-link");

  private static final String SPAN =
      "{\"time\":\"2026-03-02T10:00:01.755566Z\",\"level\":\"INFO\",\"target\":"
          + "\"dynamo_runtime::pipeline::network::ingress::push_endpoint\",\"message\":"
          + "\"SPAN_CLOSED\",\"component\":\"%s\",\"endpoint\":\"generate\",\"instance_id\":"
          + "\"7587888160958628000\",\"span_name\":\"handle_payload\",\"time.busy_us\":1000,"
          + "\"time.duration_us\":640421,\"time.idle_us\":639421%s}";

  @Test
  void aWorkersHandlePayloadSpanIsOneHalfNamedByTheClientsId() {
    RecordingSink sink =
        RecordingSink.parse(
            String.format(SPAN, "prefill", ",\"x_request_id\":\"req-7\""),
            String.format(SPAN, "backend", ",\"x_request_id\":\"req-7\""));

    assertThat(sink.rejections).isEmpty();
    RequestTiming prefill = (RequestTiming) sink.events.get(0);
    RequestTiming decode = (RequestTiming) sink.events.get(1);
    assertThat(prefill.sourceKind()).isEqualTo(DynamoRecordLine.PREFILL);
    assertThat(prefill.requestId()).isEqualTo("req-7");
    assertThat(prefill.arrivalTs()).isEqualTo(Instant.parse("2026-03-02T10:00:01.115145Z"));
    assertThat(prefill.queueMs()).isZero();
    assertThat(prefill.prefillMs()).isEqualTo(640.421);
    assertThat(prefill.e2eMs()).isEqualTo(640.421);
    assertThat(decode.sourceKind()).isEqualTo(DynamoRecordLine.DECODE);
    assertThat(decode.decodeMs()).isEqualTo(640.421);
    assertThat(decode.requestKey()).isEqualTo(prefill.requestKey());
  }

  @Test
  void theDecodeEnginesTransferEndIsOneRequestsRowWithoutItsEngineSuffix() {
    RecordingSink sink =
        RecordingSink.parse(
            "{\"time\":\"2026-03-02T10:00:01.120566Z\",\"level\":\"DEBUG\",\"target\":\"log\","
                + "\"message\":\"Finished recving KV transfer for request req-7-1a2b3c4d\","
                + "\"log.target\":\"vllm.v1.core.sched.scheduler\"}",
            "{\"time\":\"nope\",\"level\":\"DEBUG\",\"target\":\"log\","
                + "\"message\":\"Finished recving KV transfer for request req-8\"}");

    KvTransfer row = (KvTransfer) sink.events.get(0);
    assertThat(sink.events).hasSize(1);
    assertThat(row.sourceKind()).isEqualTo(DynamoRecordLine.RECV_DONE);
    assertThat(row.requestId()).isEqualTo("req-7");
    assertThat(row.side()).isEqualTo("decode");
    assertThat(row.ts()).isEqualTo(Instant.parse("2026-03-02T10:00:01.120566Z"));
    assertThat(row.durationMs()).isNull();
    assertThat(sink.rejections).hasSize(1);
  }

  @Test
  void whatCannotBeReadIsIgnoredOrRejectedWithAReason() {
    RecordingSink sink =
        RecordingSink.parse(
            String.format(SPAN, "prefill", ""),
            String.format(SPAN, "prefill", ",\"x_request_id\":\"r\"")
                .replace("\"time.duration_us\":640421,", ""),
            "{\"time\":\"2026-03-02T10:00:00Z\",\"level\":\"INFO\",\"target\":\"log\","
                + "\"message\":\"VllmWorker initialized\"}",
            "{\"timestamp\":1,\"event\":{\"schema\":\"dynamo.request.trace.v1\",\"event_type\":"
                + "\"request_payload\",\"event_time_unix_ms\":1,\"payload\":{\"request_id\":"
                + "\"r\",\"endpoint\":\"openai.chat_completion\",\"model\":\"m\","
                + "\"payload_complete\":true}}}",
            "{\"schema\":\"dynamo.agent.trace.v1\",\"event_type\":\"request_end\","
                + "\"event_time_unix_ms\":5,\"request\":{\"request_id\":\"r\",\"model\":\"m\"}}",
            "{\"time\":\"2026-03-02T10:00:00Z\",\"level\":\"INFO\",\"message\":");

    assertThat(sink.events).isEmpty();
    assertThat(sink.ignored)
        .extracting(RecordingSink.Ignored::rule)
        .containsExactly(
            "dynamo: span without x_request_id",
            DynamoRecordLine.IGNORED,
            DynamoRecordLine.IGNORED,
            "dynamo: request_end without kv_transfer_estimated_latency_ms");
    assertThat(sink.rejections)
        .extracting(r -> r.reason())
        .containsExactly(
            "dynamo: SPAN_CLOSED without time or time.duration_us", "dynamo: invalid json");
  }

  /**
   * The simulated sample: every line accounted for, one half per worker span, one transfer each
   * from the frontend and one transfer end per request from the decode engines.
   */
  @Test
  void theSampleReadsEveryRequestOnBothWorkersAndTheFrontend() throws IOException {
    int requests = Files.readAllLines(SAMPLE.resolve("truth.csv"), UTF_8).size() - 1;
    RecordingSink frontend = read("frontend", SAMPLE.resolve("frontend/request_trace.jsonl"));
    RecordingSink frontendLog = read("frontend", SAMPLE.resolve("frontend/frontend.log"));
    int halves = 0;
    int ends = 0;
    for (String worker : List.of("prefill-0", "prefill-1", "decode-0", "decode-1")) {
      RecordingSink sink = read(worker, SAMPLE.resolve(worker).resolve("worker.log"));
      assertThat(sink.rejections).isEmpty();
      assertThat(sink.ignored).hasSize(1);
      halves += (int) sink.events.stream().filter(RequestTiming.class::isInstance).count();
      for (var event : sink.events) {
        if (event instanceof KvTransfer end) {
          assertThat(end.sourceKind()).isEqualTo(DynamoRecordLine.RECV_DONE);
          assertThat(worker).startsWith("decode-");
          ends++;
        }
      }
    }
    assertThat(halves).isEqualTo(2 * requests);
    assertThat(ends).isEqualTo(requests);
    assertThat(frontend.rejections).isEmpty();
    assertThat(frontend.events).hasSize(requests).allMatch(KvTransfer.class::isInstance);
    KvTransfer first = (KvTransfer) frontend.events.get(0);
    assertThat(first.sourceKind()).isEqualTo(DynamoRecordLine.REQUEST_END);
    assertThat(first.transfers()).isEqualTo(1);
    assertThat(frontendLog.events).isEmpty();
    assertThat(frontendLog.ignored).hasSize(requests + 1);
  }

  private static RecordingSink read(String instance, Path file) throws IOException {
    VllmLineParser parser = new VllmLineParser(ParseSettings.of(instance, 2026));
    return RecordingSink.parse(parser, Files.readAllLines(file, UTF_8).toArray(String[]::new));
  }
}
