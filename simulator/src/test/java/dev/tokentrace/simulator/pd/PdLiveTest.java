package dev.tokentrace.simulator.pd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live P/D model (docs/formats/pd.md#live): one prefill slot queues the second request behind
 * the first, the decode server pulls each prompt's KV cache before it decodes, and the files hold a
 * span per server and request, a truth row per request and, after close, the KV Transfer metrics
 * line of the transfers.
 */
final class PdLiveTest {
  @TempDir Path dir;

  @Test
  void queuesTransfersAndWritesEveryServersFiles() throws Exception {
    PdScenario scenario = PdScenario.named("prefill-saturated");
    PdLive.Prefill first;
    PdLive.Prefill second;
    PdLive.Decode decode;
    try (PdLive live = PdLive.start(scenario, dir, 1)) {
      first = live.admitPrefill("a", 10);
      second = live.admitPrefill("b", 10);
      assertThat(second.startUs())
          .as("one prefill slot: b waits for a")
          .isEqualTo(first.firstTokenUs());
      live.sleepUntil(first.firstTokenUs());
      live.prefillDone(first, "cmpl-a-0");
      decode = live.admitDecode(first, 3);
      long transferUs =
          Math.round(scenario.kvBytesPerToken() * 10 * 8 / (scenario.linkGbps() * 1e9) * 1e6);
      assertThat(decode.kvReadyUs() - decode.arrivalUs()).isEqualTo(transferUs);
      assertThat(decode.startUs()).isEqualTo(decode.kvReadyUs());
      assertThat(decode.tokenUs(3)).isEqualTo(decode.lastTokenUs());
      live.sleepUntil(decode.lastTokenUs());
      live.decodeDone(decode, "cmpl-a-0");
    }
    assertThat(Files.readAllLines(dir.resolve("prefill-0/otlp.jsonl"))).hasSize(1);
    List<String> decodeSpans = Files.readAllLines(dir.resolve("decode-0/otlp.jsonl"));
    assertThat(decodeSpans).hasSize(1);
    assertThat(decodeSpans.get(0))
        .contains("\"cmpl-a-0\"")
        .contains("\"gen_ai.usage.completion_tokens\",\"value\":{\"intValue\":\"3\"");
    List<String> truth = Files.readAllLines(dir.resolve(PdLive.TRUTH_FILE));
    assertThat(truth).hasSize(2);
    assertThat(truth.get(1)).startsWith("a,prefill-0,decode-0,");
    List<String> log = Files.readAllLines(dir.resolve("decode-0/server.log"));
    assertThat(log).hasSize(1);
    assertThat(log.get(0)).contains("KV Transfer metrics: Num successful transfers=1,");
  }
}
