package dev.tokentrace.parse.vllm;

import static dev.tokentrace.parse.vllm.VllmLines.API;
import static dev.tokentrace.parse.vllm.VllmLines.ENGINE_CORE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.Parsers;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * vLLM lines as they arrive in the wild (docs/formats/vllm-wild.md): the first releases' stats
 * fields, stats messages without the logging header, iteration lines with newer trailing fields,
 * KServe's own logger lines next to vLLM's. Every line composed by us to the documented format.
 */
final class VllmWildLinesTest {
  private static final String V0_2023 = "INFO 05-10 02:37:55 scheduler.py:224] ";

  @Test
  void theFirstSchedulerStatsLineKeepsItsQueues() {
    RecordingSink sink =
        RecordingSink.parse(
            V0_2023
                + "Throughput: 765.8 tokens/s, Running: 22 reqs, Swapped: 0 reqs, Pending: 4 reqs,"
                + " GPU KV cache usage: 33.3%, CPU KV cache usage: 0.0%");

    assertThat(sink.reasons()).isEmpty();
    EngineStats stats = (EngineStats) sink.events.get(0);
    assertThat(stats.running()).isEqualTo(22);
    assertThat(stats.waiting()).isEqualTo(4);
    assertThat(stats.kvUsagePct()).isEqualTo(33.3);
    assertThat(stats.genTps()).isNull();
  }

  @Test
  void unknownFieldsBeforeRunningAreToleratedAndTheKnownOnesKept() {
    RecordingSink sink =
        RecordingSink.parse(
            V0_2023
                + "Avg prompt throughput: 10.0 tokens/s, Avg generation throughput: 31.6 tokens/s,"
                + " Max iteration time: 25.3 ms, Avg time per token: 12.1 ms, Running: 2 reqs,"
                + " Swapped: 0 reqs, Pending: 1 reqs, GPU KV cache usage: 3.2%, CPU KV cache"
                + " usage: 0.0%",
            API
                + "Engine 000: Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 2.0"
                + " tokens/s, Running: 6 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.1%, Prefix"
                + " cache hit rate: 0.0%, MFU: 6.6 TF/s/GPU 105.0 GB/s/GPU");

    assertThat(sink.reasons()).isEmpty();
    assertThat(sink.events).hasSize(2);
    assertThat(((EngineStats) sink.events.get(0)).genTps()).isEqualTo(31.6);
    assertThat(((EngineStats) sink.events.get(0)).running()).isEqualTo(2);
    assertThat(((EngineStats) sink.events.get(1)).running()).isEqualTo(6);
  }

  @Test
  void aCutStatsLineIsStillRejected() {
    RecordingSink sink =
        RecordingSink.parse(
            V0_2023 + "Avg prompt throughput: 10.0 tokens/s, Max iteration time: ",
            V0_2023 + "Throughput: 765.8 tokens/s, Running: 22 reqs");

    assertThat(sink.reasons()).hasSize(2);
  }

  @Test
  void aStatsMessageWithoutTheLoggingHeaderTakesTheLastTime() {
    RecordingSink sink =
        RecordingSink.parse(
            API + "Started engine process with PID 3812.",
            VllmLines.V1_STATS,
            "Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 31.6 tokens/s,"
                + " Running: 2 reqs, Swapped: 0 reqs, Pending: 1 reqs, GPU KV cache usage: 3.2%,"
                + " CPU KV cache usage: 0.0%.");

    assertThat(sink.reasons()).isEmpty();
    assertThat(sink.events).hasSize(2);
    assertThat(sink.events.get(0).ts()).isEqualTo(Instant.parse("2026-05-19T10:13:11Z"));
    assertThat(((EngineStats) sink.events.get(0)).rank()).isEqualTo("Engine 000");
  }

  @Test
  void aHeaderlessStatsMessageTakesTheCollectorsTime() {
    LineParser parser = Parsers.create(Engine.VLLM, RecordingSink.SETTINGS);
    RecordingSink sink = new RecordingSink();

    parser.parse("2026-01-02T03:04:05.5Z stdout F " + VllmLines.V1_STATS, position(1), sink);
    parser.finish(sink);

    assertThat(sink.reasons()).isEmpty();
    EngineEvent event = sink.events.get(0);
    assertThat(event.ts()).isEqualTo(Instant.parse("2026-01-02T03:04:05.5Z"));
  }

  @Test
  void iterationLinesWithNewerTrailingFieldsKeepTheKnownOnes() {
    RecordingSink sink =
        RecordingSink.parse(
            ENGINE_CORE
                + "Iteration(812): 2 context requests, 1536 context tokens, 30 generation requests,"
                + " 30 generation tokens, iteration elapsed time: 41.25 ms, spec decode accepted"
                + " tokens: 12, kv transfer: 0.50 ms",
            ENGINE_CORE
                + "Iteration(813): 0 context requests, 0 context tokens, 30 generation requests,"
                + " 30 generation tokens, iteration elapsed time: 12.00 ms garbage");

    assertThat(sink.events).hasSize(1);
    BatchStep step = (BatchStep) sink.events.get(0);
    assertThat(step.stepMs()).isEqualTo(41.25);
    assertThat(step.batchSize()).isEqualTo(32);
    assertThat(sink.reasons()).containsExactly("iteration line: malformed");
  }

  @Test
  void kserveLinesAreNamedAndItsStatsMessagesRead() {
    RecordingSink sink =
        RecordingSink.parse(
            "2026-05-19 10:13:12.250 kserve.trace requestId: 7f1c, preprocess_ms: 0.12,"
                + " explain_ms: 0, predict_ms: 812.4, postprocess_ms: 0.05",
            "2026-05-19 10:13:12.251 1 kserve INFO [model_ready():201] Model is ready",
            "2026-05-19 10:13:13.000 1 vllm.engine.metrics INFO [log():341] Avg prompt"
                + " throughput: 0.0 tokens/s, Avg generation throughput: 31.6 tokens/s, Running: 2"
                + " reqs, Swapped: 0 reqs, Pending: 1 reqs, GPU KV cache usage: 3.2%, CPU KV cache"
                + " usage: 0.0%.");

    assertThat(sink.reasons()).isEmpty();
    assertThat(sink.rules()).containsExactly(KServeLine.TRACE_RULE, KServeLine.LOG_RULE);
    assertThat(sink.events).hasSize(1);
    assertThat(sink.events.get(0).ts()).isEqualTo(Instant.parse("2026-05-19T10:13:13Z"));
  }

  private static SourcePosition position(long line) {
    return new SourcePosition(RecordingSink.PATH, line, 0);
  }
}
