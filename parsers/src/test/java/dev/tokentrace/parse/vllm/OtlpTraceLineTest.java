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

  @Test
  void readsBareNonFiniteNumbersAsNull() {
    String line =
        OtlpLines.line(
            OtlpLines.span(
                "llm_request",
                OtlpLines.V1_ATTRIBUTES
                    .replace("0.0841", "NaN")
                    .replace("2.3332", "-Infinity")
                    .replace("{\"intValue\":\"23\"}", "{\"intValue\":23}")));

    RequestTiming timing = (RequestTiming) RecordingSink.parse(line).events.get(0);

    assertThat(timing.serverTtftMs()).isNull();
    assertThat(timing.e2eMs()).isNull();
    assertThat(timing.outputTokens()).isEqualTo(23);
    assertThat(timing.prefillMs()).isEqualTo(70.3);
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
