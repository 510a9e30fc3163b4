package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** LLMPerf individual responses composed by us with the keys of docs/formats/clients.md#llmperf. */
final class LlmperfClientTimingReaderTest {
  @TempDir Path dir;

  @Test
  void readsEachResponseWithLocalIdsAndKeepsErrors() throws Exception {
    String content =
        "[{\"error_code\": null, \"inter_token_latency_s\": 0.01, \"ttft_s\": 0.0625,"
            + " \"end_to_end_latency_s\": 0.75, \"request_output_throughput_token_per_s\": 100.0,"
            + " \"number_total_tokens\": 350, \"number_output_tokens\": 86,"
            + " \"number_input_tokens\": 264},\n"
            + " {\"error_code\": 503, \"error_msg\": \"Service Unavailable\","
            + " \"number_input_tokens\": 264},\n"
            + " {\"error_code\": null, \"ttft_s\": 0.5, \"end_to_end_latency_s\": 0.25,"
            + " \"number_output_tokens\": 3}]";
    Path file = ClientFiles.write(dir, "x_individual_responses.json", content);
    CollectingSink sink = ClientFiles.read(new LlmperfClientTimingReader(), file);

    assertThat(sink.rows)
        .extracting(
            ClientTiming::requestId,
            ClientTiming::status,
            ClientTiming::ttftMs,
            ClientTiming::e2eMs,
            ClientTiming::outputTokens)
        .containsExactly(
            Tuple.tuple("llmperf#1", "ok", 62.5, 750.0, 86),
            Tuple.tuple("llmperf#2", "error: 503 Service Unavailable", null, null, null));
    assertThat(sink.messages())
        .containsExactly(file + ":3: client: 'ttft_s' > 'end_to_end_latency_s' (500.0 > 250.0)");
    assertThat(sink.warnings).hasSize(1);
  }

  @Test
  void rejectsAResponseAtItsTextLineAndKeepsPromptsOutOfErrorTexts() throws Exception {
    String content =
        String.join(
            "\n",
            "[",
            "  {",
            "    \"error_code\": null,",
            "    \"ttft_s\": 0.1,",
            "    \"end_to_end_latency_s\": 0.5,",
            "    \"number_output_tokens\": 3",
            "  },",
            "  {",
            "    \"error_code\": null,",
            "    \"ttft_s\": 0.5,",
            "    \"end_to_end_latency_s\": 0.25",
            "  },",
            "  {",
            "    \"error_code\": 400,",
            "    \"error_msg\": \"Error in preprocessing prompt inputs: {'prompt': 'zebracorn'}\"",
            "  },",
            "  {\"error_code\": null,");
    Path file = ClientFiles.write(dir, "y_individual_responses.json", content);
    CollectingSink sink = ClientFiles.read(new LlmperfClientTimingReader(), file);

    // the second response starts on line 8, the truncated end is on line 17
    assertThat(sink.messages())
        .hasSize(2)
        .first()
        .isEqualTo(file + ":8: client: missing value for 'number_output_tokens'");
    assertThat(sink.messages().get(1)).startsWith(file + ":17: client: malformed json");
    assertThat(sink.rows)
        .extracting(ClientTiming::status)
        .containsExactly(
            "ok",
            "error: 400 Error in preprocessing prompt inputs: {'prompt': <redacted 9 chars>}");
  }
}
