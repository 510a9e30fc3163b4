package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vllm bench serve --save-detailed} results composed by us with the keys serve.py writes
 * (docs/formats/clients.md#vllm-bench-serve; values ours, the start times in the magnitude of PR
 * #32667).
 */
public final class VllmBenchClientTimingReaderTest {
  private static final Offset<Double> CLOSE = within(1e-9);
  private static final String PREFIX = "bench-1a2b3c4d-";

  public static final String HEAD =
      "{\"date\":\"20260301-120000\",\"endpoint_type\":\"openai\",\"backend\":\"openai\","
          + "\"label\":null,\"model_id\":\"m\",\"tokenizer_id\":\"m\",\"num_prompts\":3,"
          + "\"request_rate\":Infinity,\"burstiness\":1.0,\"max_concurrency\":2,"
          + "\"duration\":3.5,\"completed\":2,\"failed\":1,";

  public static final String ARRAYS =
      "\"input_lens\":[100,200,300],\"output_lens\":[10,20,0],"
          + "\"ttfts\":[0.05,0.25,0.0],"
          + "\"itls\":[[0.01,0.02,0.015,0.015,0.015,0.015,0.015,0.015,0.015],"
          + "[0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02,"
          + "0.02,0.02,0.02],[]],"
          + "\"latencies\":[0.2,0.7,0.0],"
          + "\"start_times\":[353399.725848632,353400.485208009,353400.9],"
          + "\"queue_times\":[0.0,0.5,0.1],"
          + "\"generated_texts\":[\"text we never keep\",\"more text\",\"\"],"
          + "\"errors\":[\"\",\"\",\"Traceback (most recent call last):\\n  File \\\"x.py\\\"\\n"
          + "aiohttp.ClientResponseError: 400, message='Bad Request'\"],"
          + "\"mean_ttft_ms\":150.0}";

  @TempDir Path dir;

  private CollectingSink read(String prefix, String content) throws Exception {
    Path file = ClientFiles.write(dir, "result.json", content);
    return ClientFiles.read(new VllmBenchClientTimingReader(new ClientReadSettings(prefix)), file);
  }

  @Test
  void rebuildsIdsAndMovesTheStartBeforeTheClientQueue() throws Exception {
    CollectingSink sink = read(PREFIX, HEAD + ARRAYS);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.warnings).isEmpty();
    assertThat(sink.rows).hasSize(3);
    ClientTiming first = sink.rows.get(0);
    assertThat(first.requestId()).isEqualTo("bench-1a2b3c4d-0");
    assertThat(first.requestKey()).isEqualTo("bench-1a2b3c4d-0");
    assertThat(first.idKind()).isEqualTo(IdKind.REBUILT);
    assertThat(first.startTs()).isNull();
    assertThat(first.startMonoS()).isCloseTo(353399.725848632, CLOSE);
    assertThat(first.ttftMs()).isCloseTo(50.0, CLOSE);
    assertThat(first.e2eMs()).isCloseTo(200.0, CLOSE);
    assertThat(first.clientQueueMs()).isEqualTo(0.0);
    assertThat(first.outputTokens()).isEqualTo(10);
    assertThat(first.promptTokens()).isEqualTo(100);
    assertThat(first.concurrency()).isEqualTo(2);
    assertThat(first.detail().chunks()).isEqualTo(10);
    assertThat(first.detail().itlMaxMs()).isCloseTo(20.0, CLOSE);

    // 500 ms in the client's semaphore: sent at 353400.485208009, issued 0.5 s before
    ClientTiming second = sink.rows.get(1);
    assertThat(second.requestId()).isEqualTo("bench-1a2b3c4d-1");
    assertThat(second.startMonoS()).isCloseTo(353399.985208009, within(1e-6));
    assertThat(second.clientQueueMs()).isCloseTo(500.0, CLOSE);
    assertThat(second.ttftMs()).isCloseTo(750.0, CLOSE);
    assertThat(second.e2eMs()).isCloseTo(1200.0, CLOSE);

    ClientTiming failed = sink.rows.get(2);
    assertThat(failed.status())
        .isEqualTo("error: aiohttp.ClientResponseError: 400, message='Bad Request'");
    assertThat(failed.ttftMs()).isNull();
    assertThat(failed.promptTokens()).isEqualTo(300);
    assertThat(sink.rows).extracting(row -> row.source().line()).containsExactly(1L, 2L, 3L);
  }

  @Test
  void derivesE2eFromTtftAndItlsWhenLatenciesAreMissingAndReadsTrtLlmE2els() throws Exception {
    String withoutLatencies = HEAD + ARRAYS.replace("\"latencies\":[0.2,0.7,0.0],", "");
    ClientTiming first = read(PREFIX, withoutLatencies).rows.get(0);
    assertThat(first.e2eMs()).isCloseTo(50.0 + 1000 * (0.01 + 0.02 + 7 * 0.015), within(1e-6));

    String trtllm = HEAD + ARRAYS.replace("\"latencies\"", "\"e2els\"");
    assertThat(read(PREFIX, trtllm).rows.get(0).e2eMs()).isCloseTo(200.0, CLOSE);
  }

  @Test
  void withoutAPrefixGivesLocalIdsAndSaysHowToJoin() throws Exception {
    CollectingSink sink = read(null, HEAD + ARRAYS);

    assertThat(sink.rows)
        .extracting(ClientTiming::requestId)
        .containsExactly("vllm-bench#1", "vllm-bench#2", "vllm-bench#3");
    assertThat(sink.rows).allSatisfy(row -> assertThat(row.idKind()).isEqualTo(IdKind.LOCAL));
    assertThat(sink.warnings)
        .containsExactly(
            dir.resolve("result.json")
                + ":1: vllm-bench: no request-id prefix given; rows get local IDs and join only"
                + " with --match heuristic (pass the --request-id-prefix the benchmark used)");
  }

  @Test
  void takesEpochStartTimesAsWallClock() throws Exception {
    String epoch = HEAD + ARRAYS.replace("353399.725848632", "1772366400.25");
    ClientTiming first = read(PREFIX, epoch).rows.get(0);
    assertThat(first.startTs()).isEqualTo(Instant.parse("2026-03-01T12:00:00.250Z"));
    assertThat(first.startMonoS()).isNull();
  }

  @Test
  void skipsAResultWhoseArraysCannotBePairedByIndex() throws Exception {
    String mismatched =
        HEAD + ARRAYS.replace("\"output_lens\":[10,20,0]", "\"output_lens\":[10,20]");
    CollectingSink sink = read(PREFIX, mismatched);

    assertThat(sink.rows).isEmpty();
    assertThat(sink.reasons())
        .containsExactly(
            "per-request arrays differ in length: input_lens=3, output_lens=2, ttfts=3, itls=3,"
                + " latencies=3, start_times=3, queue_times=3, errors=3 (result skipped)");
  }

  @Test
  void rejectsASummaryWithoutPerRequestArrays() throws Exception {
    CollectingSink sink = read(PREFIX, HEAD + "\"mean_ttft_ms\":150.0}");
    assertThat(sink.rows).isEmpty();
    assertThat(sink.reasons())
        .containsExactly(
            "no per-request arrays (ttfts, errors): run vllm bench serve with --save-detailed"
                + " (result skipped)");
  }

  @Test
  void keepsTheRowsBeforeASyntaxErrorAndReportsIt() throws Exception {
    String appended = HEAD + ARRAYS + "\n" + HEAD + "\"ttfts\":[0.1,";
    CollectingSink sink = read(PREFIX, appended);

    assertThat(sink.rows).hasSize(3);
    assertThat(sink.messages())
        .singleElement()
        .asString()
        .startsWith(
            dir.resolve("result.json") + ":2: client: malformed json: Unexpected end-of-input");
  }

  @Test
  void rejectsABadElementWithoutLosingTheNextResult() throws Exception {
    String bad = HEAD + ARRAYS.replace("\"ttfts\":[0.05,", "\"ttfts\":[\"soon\",");
    CollectingSink sink = read(PREFIX, bad + "\n" + HEAD + ARRAYS);

    assertThat(sink.reasons())
        .containsExactly("bad 'ttfts[0]' value (not a number) (result skipped)");
    assertThat(sink.rows)
        .extracting(ClientTiming::requestId)
        .containsExactly("bench-1a2b3c4d-0", "bench-1a2b3c4d-1", "bench-1a2b3c4d-2");
  }

  /** 100 000 requests stream through with heap independent of the count (ParallelArrays). */
  @Test
  void streamsALargeResultArrayByArray() throws Exception {
    int requests = 100_000;
    Path file = dir.resolve("large.json");
    try (BufferedWriter out = Files.newBufferedWriter(file)) {
      out.write(HEAD);
      array(out, "ttfts", requests, i -> "0.125");
      array(out, "latencies", requests, i -> "1.5");
      array(out, "start_times", requests, i -> Double.toString(1000.0 + i));
      array(out, "output_lens", requests, i -> "64");
      array(out, "itls", requests, i -> "[0.02,0.02,0.02]");
      array(out, "generated_texts", requests, i -> "\"some generated text\"");
      out.write("\"errors\":[");
      for (int i = 0; i < requests; i++) {
        out.write(i == 0 ? "\"\"" : ",\"\"");
      }
      out.write("]}");
    }
    CountingSink sink = new CountingSink();
    new VllmBenchClientTimingReader(new ClientReadSettings(PREFIX)).read(file, sink);

    assertThat(sink.rows).isEqualTo(requests);
    assertThat(sink.rejected).isZero();
    assertThat(sink.last.requestId()).isEqualTo(PREFIX + (requests - 1));
    assertThat(sink.last.startMonoS()).isEqualTo(1000.0 + requests - 1);
    assertThat(sink.last.detail().chunks()).isEqualTo(4);
  }

  private static void array(
      BufferedWriter out, String name, int count, java.util.function.IntFunction<String> value)
      throws java.io.IOException {
    out.write("\"" + name + "\":[");
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        out.write(',');
      }
      out.write(value.apply(i));
    }
    out.write("],");
  }

  /** Keeps counts and the last row only. */
  private static final class CountingSink implements ClientReaderOutput {
    long rows;
    long rejected;
    ClientTiming last;

    @Override
    public void row(ClientTiming timing) {
      rows++;
      last = timing;
    }

    @Override
    public void rejected(ClientRejection rejection) {
      rejected++;
    }

    @Override
    public void warning(dev.tokentrace.event.SourcePosition position, String message) {}
  }
}
