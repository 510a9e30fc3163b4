package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SGLang {@code bench_serving --output-details} JSON lines composed by us with the summary keys of
 * docs/formats/clients.md#sglang-bench-serving (including {@code "request_rate": Infinity}) and our
 * own values.
 */
final class SglangBenchClientTimingReaderTest {
  @TempDir Path dir;

  static String run(int concurrency, String ttfts) {
    return "{\"backend\": \"sglang\", \"dataset_name\": \"random\", \"request_rate\": Infinity,"
        + " \"max_concurrency\": "
        + concurrency
        + ", \"duration\": 9.5, \"completed\": 2, \"mean_ttft_ms\": 0.0, \"accept_length\": null,"
        + " \"input_lens\": [64, 128], \"output_lens\": [4, 0], \"ttfts\": "
        + ttfts
        + ", \"itls\": [[0.01, 0.02, 0.03], []],"
        + " \"generated_texts\": [\"never kept\", \"\"], \"errors\": [\"\", \"timeout\"]}";
  }

  @Test
  void readsEveryRunLineWithLocalIdsAndReconstructedE2e() throws Exception {
    Path file =
        ClientFiles.write(
            dir, "sglang.jsonl", run(16, "[0.125, 0.0]") + "\n" + run(32, "[0.25, 0.0]") + "\n");
    CollectingSink sink = ClientFiles.read(new SglangBenchClientTimingReader(), file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows)
        .extracting(
            ClientTiming::requestId,
            ClientTiming::idKind,
            ClientTiming::status,
            ClientTiming::concurrency,
            ClientTiming::outputTokens,
            ClientTiming::promptTokens)
        .containsExactly(
            Tuple.tuple("sglang-bench#1", IdKind.LOCAL, "ok", 16, 4, 64),
            Tuple.tuple("sglang-bench#2", IdKind.LOCAL, "error: timeout", 16, null, 128),
            Tuple.tuple("sglang-bench#3", IdKind.LOCAL, "ok", 32, 4, 64),
            Tuple.tuple("sglang-bench#4", IdKind.LOCAL, "error: timeout", 32, null, 128));
    ClientTiming first = sink.rows.get(0);
    assertThat(first.ttftMs()).isEqualTo(125.0);
    assertThat(first.e2eMs()).isCloseTo(185.0, within(1e-9));
    assertThat(first.startTs()).isNull();
    assertThat(first.startMonoS()).isNull();
    assertThat(first.detail().chunks()).isEqualTo(4);
    assertThat(sink.warnings)
        .containsExactly(
            file
                + ":1: sglang-bench: the file has no request IDs or start times; rows join only with"
                + " --match heuristic (token counts) or serve as a statistical comparison");
  }
}
