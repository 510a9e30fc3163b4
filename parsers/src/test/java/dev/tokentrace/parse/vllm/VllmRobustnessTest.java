package dev.tokentrace.parse.vllm;

import static dev.tokentrace.parse.vllm.VllmLines.API;
import static dev.tokentrace.parse.vllm.VllmLines.V0;
import static dev.tokentrace.parse.vllm.VllmLines.V1_STATS_FULL;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.parse.Rejection;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Cut lines, invalid UTF-8 and huge lines: rejected or read correctly, never a wrong event. */
final class VllmRobustnessTest {
  private static final int TEN_MB = 10 * 1024 * 1024;

  private static final String V0_STATS =
      "Avg prompt throughput: 1024.7 tokens/s, Avg generation throughput: 12.0 tokens/s,"
          + " Running: 5 reqs, Swapped: 1 reqs, Pending: 9 reqs, GPU KV cache usage: 99.1%, CPU KV"
          + " cache usage: 4.0%.";

  @Test
  void rejectsAStatsLineCutAnywhereOrReadsItAsTheWholeLine() {
    assertCutsAreRejectedOrComplete(API, V1_STATS_FULL);
    assertCutsAreRejectedOrComplete(V0, V0_STATS);
  }

  private static void assertCutsAreRejectedOrComplete(String header, String message) {
    JsonNode whole = RecordingSink.parse(header + message).eventBodies().get(0);
    int rejected = 0;
    int head = message.indexOf("Avg prompt") + "Avg prompt".length();
    for (int cut = head; cut < message.length(); cut++) {
      RecordingSink sink = RecordingSink.parse(header + message.substring(0, cut));
      if (sink.events.isEmpty()) {
        assertThat(sink.rejections).as("cut at %d", cut).hasSize(1);
        assertThat(sink.reasons().get(0)).startsWith("stats line: ");
        rejected++;
      } else {
        assertThat(sink.eventBodies()).as("cut at %d", cut).containsExactly(whole);
      }
    }
    assertThat(rejected).isGreaterThan(message.length() - head - 60);
  }

  @Test
  void rejectsAnOtlpLineCutAnywhere() {
    String line = OtlpLines.V1_LINE;
    for (int cut = 1; cut < line.length(); cut++) {
      RecordingSink sink = RecordingSink.parse(line.substring(0, cut));
      assertThat(sink.events).as("cut at %d", cut).isEmpty();
      assertThat(sink.rejections).as("cut at %d", cut).hasSize(1);
      if (cut > "{\"resourceSpans\"".length()) {
        assertThat(sink.reasons().get(0)).as("cut at %d", cut).startsWith("otlp: ");
      }
    }
  }

  @Test
  void rejectsReplacementCharactersWhereStructureIsExpectedOnly() {
    RecordingSink inHeader = RecordingSink.parse("INFO 05-\uFFFD9 10:13:11 [a.py:1] text");
    RecordingSink inNumber =
        RecordingSink.parse(API + V1_STATS_FULL.replace("32 reqs", "3\uFFFD reqs"));
    RecordingSink inText = RecordingSink.parse(API + "Loading weights for caf\uFFFD model");

    assertThat(inHeader.reasons()).containsExactly("invalid utf-8");
    assertThat(inNumber.reasons()).containsExactly("stats line: bad 'Running' value");
    assertThat(inText.rules()).containsExactly("vllm: other record");
  }

  @Test
  @Timeout(
      value = 60,
      unit = TimeUnit.SECONDS) // a hang guard against backtracking, not a benchmark
  void rejectsATenMegabyteJunkLineWithACappedExcerpt() {
    StringBuilder junk = new StringBuilder(TEN_MB);
    String pattern = "INFO 05-1 (x pid= | 12/ [ Traceback Warning: \uFFFD ";
    while (junk.length() < TEN_MB) {
      junk.append(pattern);
    }

    RecordingSink sink = RecordingSink.parse(junk.toString());

    assertThat(sink.rejections).hasSize(1);
    Rejection rejection = sink.rejections.get(0);
    assertThat(rejection.reason()).isEqualTo("invalid utf-8");
    assertThat(rejection.excerpt().length()).isLessThanOrEqualTo(Rejection.MAX_EXCERPT);
  }

  @Test
  @Timeout(
      value = 60,
      unit = TimeUnit.SECONDS) // a hang guard against backtracking, not a benchmark
  void readsATenMegabyteReceivedRequestLineWithoutKeepingThePrompt() {
    StringBuilder line = new StringBuilder(TEN_MB + 1_000_000);
    line.append(API.replace("loggers.py:271", "logger.py:39"))
        .append("Received request chatcmpl-big-1: prompt: '");
    while (line.length() < TEN_MB) {
      line.append("secret words, params: max_tokens=9 \\' ");
    }
    line.append("', params: SamplingParams(n=1, stop=['x'], max_tokens=128), prompt_token_ids: [");
    for (int token = 0; token < 100_000; token++) {
      line.append(token == 0 ? "" : ", ").append(token);
    }
    line.append("], prompt_embeds shape: None, lora_request: None.");

    RecordingSink sink = RecordingSink.parse(line.toString());

    assertThat(sink.events).singleElement().isInstanceOf(RequestArrived.class);
    RequestArrived arrived = (RequestArrived) sink.events.get(0);
    assertThat(arrived.requestKey()).isEqualTo("big-1");
    assertThat(arrived.promptTokens()).isEqualTo(100_000);
    assertThat(arrived.maxTokens()).isEqualTo(128);
    assertThat(EventJson.write(arrived)).doesNotContain("secret");
  }

  @Test
  void neverPutsPromptTextIntoTheRejectionOfABrokenRequestLine() {
    RecordingSink sink =
        RecordingSink.parse(
            "INFO 13-40 10:13:11 [logger.py:39] Received request chatcmpl-x: prompt: 'secret'",
            "INFO 05-19 10:13:11 [logger.py:3x] Received request chatcmpl-x: prompt: 'secret'",
            API + "Received request chatcmpl-y with secret text but no layout");

    assertThat(sink.rejections).hasSize(3);
    assertThat(sink.rejections).allSatisfy(r -> assertThat(r.excerpt()).doesNotContain("secret"));
  }
}
