package dev.tokentrace.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.RequestTiming;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Trace files as people keep them (docs/formats/vllm-wild.md#pretty-otlp, #jaeger): OTLP/JSON
 * pretty-printed over many lines, Jaeger's JSON export, and files without llm_request spans. The
 * documents are composed by us to the OTLP/JSON and Jaeger formats.
 */
final class VllmTraceDocumentsTest {
  @Test
  void readsAPrettyPrintedOtlpDocumentAtItsFirstLine() {
    String[] lines = {
      "{",
      "  \"resourceSpans\": [",
      "    {",
      "      \"resource\": {\"attributes\": []},",
      "      \"scopeSpans\": [",
      "        {",
      "          \"scope\": {\"name\": \"vllm.llm_engine\"},",
      "          \"spans\": [",
      "            {",
      "              \"traceId\": \"5b8efff798038103d269b633813fc60c\",",
      "              \"spanId\": \"eee19b7ec3c1b174\",",
      "              \"name\": \"llm_request\",",
      "              \"kind\": 3,",
      "              \"startTimeUnixNano\": \"1779185591123456768\",",
      "              \"endTimeUnixNano\": \"1779185593456789000\",",
      "              \"attributes\": [",
      "                {\"key\": \"gen_ai.request.id\", \"value\": {\"stringValue\": \"chatcmpl-p1\"}},",
      "                {\"key\": \"gen_ai.latency.time_in_queue\", \"value\": {\"doubleValue\": 0.25}},",
      "                {\"key\": \"gen_ai.usage.completion_tokens\", \"value\": {\"intValue\": \"12\"}}",
      "              ]",
      "            }",
      "          ]",
      "        }",
      "      ]",
      "    }",
      "  ]",
      "}",
      "INFO 05-19 10:13:11 [loggers.py:271] Started engine process with PID 3812."
    };
    RecordingSink sink = RecordingSink.parse(lines);

    sink.assertEveryLineReported(lines.length);
    assertThat(sink.reasons()).isEmpty();
    RequestTiming timing = (RequestTiming) sink.events.get(0);
    assertThat(timing.requestId()).isEqualTo("chatcmpl-p1");
    assertThat(timing.queueMs()).isEqualTo(250.0);
    assertThat(timing.outputTokens()).isEqualTo(12);
    assertThat(timing.source().line()).isEqualTo(1);
  }

  @Test
  void readsAJaegerExport() {
    String[] lines = {
      "{",
      "  \"data\": [",
      "    {",
      "      \"traceID\": \"5b8efff798038103d269b633813fc60c\",",
      "      \"spans\": [",
      "        {",
      "          \"traceID\": \"5b8efff798038103d269b633813fc60c\",",
      "          \"spanID\": \"eee19b7ec3c1b174\",",
      "          \"operationName\": \"llm_request\",",
      "          \"references\": [],",
      "          \"startTime\": 1779185591123456,",
      "          \"duration\": 2333333,",
      "          \"tags\": [",
      "            {\"key\": \"gen_ai.request.id\", \"type\": \"string\", \"value\": \"cmpl-j1-0\"},",
      "            {\"key\": \"gen_ai.latency.time_in_queue\", \"type\": \"float64\", \"value\": 0.5},",
      "            {\"key\": \"gen_ai.latency.e2e\", \"type\": \"float64\", \"value\": 2.333333},",
      "            {\"key\": \"gen_ai.usage.prompt_tokens\", \"type\": \"int64\", \"value\": 40}",
      "          ],",
      "          \"processID\": \"p1\"",
      "        },",
      "        {\"traceID\": \"5b8e\", \"spanID\": \"01\", \"operationName\": \"POST /v1/completions\",",
      "         \"startTime\": 1779185591000000, \"duration\": 2400000, \"tags\": []}",
      "      ],",
      "      \"processes\": {\"p1\": {\"serviceName\": \"vllm\", \"tags\": []}}",
      "    }",
      "  ]",
      "}"
    };
    RecordingSink sink = RecordingSink.parse(lines);

    sink.assertEveryLineReported(lines.length);
    assertThat(sink.reasons()).isEmpty();
    assertThat(sink.events).hasSize(1);
    RequestTiming timing = (RequestTiming) sink.events.get(0);
    assertThat(timing.requestId()).isEqualTo("cmpl-j1-0");
    assertThat(timing.arrivalTs()).isEqualTo(Instant.parse("2026-05-19T10:13:11.123456Z"));
    assertThat(timing.queueMs()).isEqualTo(500.0);
    assertThat(timing.e2eMs()).isEqualTo(2333.333);
    assertThat(timing.promptTokens()).isEqualTo(40);
  }

  @Test
  void aTraceFileWithoutLlmRequestSpansSaysSo() {
    VllmLineParser parser = new VllmLineParser(RecordingSink.SETTINGS);
    RecordingSink sink = RecordingSink.parse(parser, OtlpLines.STARTUP_SPANS_ONLY);

    assertThat(sink.events).isEmpty();
    assertThat(sink.rules()).containsExactly("otlp: no llm_request span");
  }

  @Test
  void anUnclosedDocumentIsRejectedAtItsFirstLine() {
    String[] lines = {
      "{", "  \"resourceSpans\": [", "INFO 05-19 10:13:11 [loggers.py:271] Started engine."
    };
    RecordingSink sink = RecordingSink.parse(lines);

    sink.assertEveryLineReported(lines.length);
    assertThat(sink.reasons()).containsExactly("otlp: truncated json");
    assertThat(sink.rejections.get(0).position().line()).isEqualTo(1);
  }
}
