package dev.tokentrace.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.RequestTiming;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * OTLP/JSON export lines (docs/formats/vllm.md#otlp-json-export) beyond the one-span rows of the
 * line tables.
 */
final class OtlpTraceLineTest {
  private static final String OTHER_ATTRIBUTES =
      OtlpLines.V1_ATTRIBUTES.replace("chatcmpl-client-42", "0_chatcmpl-multi-7");

  @Test
  void emitsOneTimingPerLlmRequestSpanAcrossResourceAndScopeSpans() {
    String first =
        OtlpLines.line(
            OtlpLines.span("llm_request", OtlpLines.V1_ATTRIBUTES),
            OtlpLines.span("Load model", ""));
    String second = OtlpLines.line(OtlpLines.span("llm_request", OTHER_ATTRIBUTES));
    String merged =
        first.substring(0, first.length() - 2)
            + ","
            + second.substring("{\"resourceSpans\":[".length());

    RecordingSink sink = RecordingSink.parse(merged);

    assertThat(sink.events)
        .extracting(event -> ((RequestTiming) event).requestKey())
        .containsExactly("client-42", "multi-7");
    assertThat(sink.rejections).isEmpty();
    assertThat(sink.ignored).isEmpty();
  }

  @Test
  void rejectsASpanWithoutIdAndKeepsTheOthers() {
    String line =
        OtlpLines.line(
            OtlpLines.span("llm_request", OtlpLines.V1_ATTRIBUTES),
            OtlpLines.span(
                "llm_request", "{\"key\":\"gen_ai.latency.e2e\",\"value\":{\"doubleValue\":1.0}}"));

    RecordingSink sink = RecordingSink.parse(line);

    assertThat(sink.events).hasSize(1);
    assertThat(sink.reasons()).containsExactly("otlp: llm_request span without gen_ai.request.id");
  }

  @Test
  void readsALineAfterAByteOrderMark() {
    RecordingSink sink = RecordingSink.parse("\uFEFF" + OtlpLines.V1_LINE);

    assertThat(sink.eventBodies()).containsExactly(RecordingSink.json(OtlpLines.V1_BODY));
  }

  /**
   * Hostile numbers: a latency of NaN or an infinity (string or bare) is no duration; its span is
   * rejected naming the field and value, never read as null without a count, and the line's other
   * spans are read.
   */
  @Test
  void rejectsASpanWithANonFiniteLatencyAndKeepsTheOthers() {
    String line =
        OtlpLines.line(
            OtlpLines.span(
                "llm_request",
                OtlpLines.V1_ATTRIBUTES
                    .replace("0.0841", "NaN")
                    .replace("{\"intValue\":\"23\"}", "{\"intValue\":23}")),
            OtlpLines.span(
                "llm_request", OtlpLines.V1_ATTRIBUTES.replace("2.3332", "\"-Infinity\"")),
            OtlpLines.span("llm_request", OtlpLines.V1_ATTRIBUTES.replace("2.3332", "\"1e400\"")),
            OtlpLines.span("llm_request", OtlpLines.V1_ATTRIBUTES));

    RecordingSink sink = RecordingSink.parse(line);

    assertThat(sink.events).hasSize(1);
    assertThat(sink.reasons())
        .containsExactly(
            "otlp: 'gen_ai.latency.time_to_first_token' is NaN, not a finite number of seconds",
            "otlp: 'gen_ai.latency.e2e' is -Infinity, not a finite number of seconds",
            "otlp: 'gen_ai.latency.e2e' is 1e400, not a finite number of seconds");
  }

  @Test
  void readsTheSpecExampleCollapsedToOneLineAsAnExportWithoutRequests() throws IOException {
    Path fixture = findFixture("otel/trace.json");
    Assumptions.assumeTrue(fixture != null, "shared fixtures not present");
    String line = Files.readString(fixture).replaceAll("\\s*\\n\\s*", "");

    RecordingSink plain = RecordingSink.parse(line);
    RecordingSink renamed = RecordingSink.parse(line.replace("I'm a server span", "llm_request"));

    assertThat(plain.rules()).containsExactly("otlp: no llm_request span");
    assertThat(renamed.reasons())
        .containsExactly("otlp: llm_request span without gen_ai.request.id");
  }

  /** {@code shared/fixtures/<name>} in the working directory or one of its parents, or null. */
  private static Path findFixture(String name) {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("shared").resolve("fixtures").resolve(name);
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
