package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Instant;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GenAI-Perf {@code profile_export.json} composed by us in the shape perf_analyzer writes
 * (docs/formats/clients.md#genai-perf: {@code timestamp}, {@code response_timestamps}, raw SSE in
 * {@code response_outputs}), our own values; plus the perf_analyzer docs fixture.
 */
public final class GenaiPerfClientTimingReaderTest {
  private static final long T0 = 1_772_366_400_000_000_000L; // 2026-03-01T12:00:00Z

  private final GenaiPerfClientTimingReader reader = new GenaiPerfClientTimingReader();
  @TempDir Path dir;

  public static String sse(String json) {
    return "{\"response\":\"data: " + json.replace("\"", "\\\"") + "\\n\\n\"}";
  }

  public static String request(long start, String stamps, String outputs) {
    return "{\"timestamp\":"
        + start
        + ",\"request_inputs\":{\"payload\":\"{\\\"prompt\\\": \\\"never kept\\\"}\"},"
        + "\"response_timestamps\":["
        + stamps
        + "],\"response_outputs\":["
        + outputs
        + "]}";
  }

  public static String export(String requests) {
    return "{\"experiments\":[{\"experiment\":{\"mode\":\"concurrency\",\"value\":8},"
        + "\"requests\":["
        + requests
        + "],\"window_boundaries\":[1,5,6]}],\"version\":\"0.0.1\",\"service_kind\":\"openai\","
        + "\"endpoint\":\"v1/completions\"}";
  }

  @Test
  void takesTheIdFromTheSseStreamAndTimesOnlyChunksWithText() throws Exception {
    String completion =
        request(
            T0,
            (T0 + 100_000_000)
                + ","
                + (T0 + 120_000_000)
                + ","
                + (T0 + 150_000_000)
                + ","
                + (T0 + 151_000_000),
            sse(
                    "{\"id\":\"cmpl-5f0c0a6e3a1b4a7c\",\"object\":\"text_completion\",\"choices\":[{\"text\":\" I\"}]}")
                + ","
                + sse("{\"id\":\"cmpl-5f0c0a6e3a1b4a7c\",\"choices\":[{\"text\":\" am\"}]}")
                + ","
                + sse(
                    "{\"id\":\"cmpl-5f0c0a6e3a1b4a7c\",\"choices\":[{\"text\":\"\"}],"
                        + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}")
                + ",{\"response\":\"data: [DONE]\\n\\n\"}");
    String failed = request(T0 + 1_000_000_000, "", "");
    String chat =
        request(
            T0 + 2_000_000_000,
            (T0 + 2_050_000_000) + "," + (T0 + 2_060_000_000) + "," + (T0 + 2_090_000_000),
            sse(
                    "{\"id\":\"chatcmpl-client-42\",\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"}}]}")
                + ","
                + sse(
                    "{\"id\":\"chatcmpl-client-42\",\"choices\":[{\"delta\":{\"content\":\" there\"}}]}")
                + ","
                + sse(
                    "{\"id\":\"chatcmpl-client-42\",\"choices\":[{\"delta\":{\"content\":\"!\"}}]}"));
    Path file =
        ClientFiles.write(
            dir, "profile_export.json", export(completion + "," + failed + "," + chat));
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows)
        .extracting(
            ClientTiming::requestId,
            ClientTiming::requestKey,
            ClientTiming::status,
            ClientTiming::outputTokens,
            ClientTiming::promptTokens,
            ClientTiming::concurrency)
        .containsExactly(
            Tuple.tuple("cmpl-5f0c0a6e3a1b4a7c", "5f0c0a6e3a1b4a7c", "ok", 2, 5, 8),
            Tuple.tuple("genai-perf#2", "genai-perf#2", "error: no response", null, null, 8),
            Tuple.tuple("chatcmpl-client-42", "client-42", "ok", 3, null, 8));
    ClientTiming completionRow = sink.rows.get(0);
    assertThat(completionRow.idKind()).isEqualTo(IdKind.RESPONSE);
    assertThat(completionRow.startTs()).isEqualTo(Instant.parse("2026-03-01T12:00:00Z"));
    assertThat(completionRow.ttftMs()).isEqualTo(100.0);
    assertThat(completionRow.e2eMs())
        .as("to the last chunk with text, not [DONE]")
        .isEqualTo(120.0);
    assertThat(completionRow.detail().chunks()).isEqualTo(2);
    assertThat(completionRow.detail().itlMaxMs()).isEqualTo(20.0);
    assertThat(sink.rows.get(2).e2eMs()).isEqualTo(90.0);
    assertThat(sink.warnings).as("a failed request without an id is no news").isEmpty();
  }

  @Test
  void rejectsABadTimestampAndKeepsTheRest() throws Exception {
    String bad = request(T0, "\"soon\"", "");
    String good =
        request(
            T0,
            String.valueOf(T0 + 5_000_000),
            sse("{\"id\":\"cmpl-ok\",\"choices\":[{\"text\":\"x\"}]}"));
    Path file = ClientFiles.write(dir, "p.json", export(bad + "," + good));
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rows).extracting(ClientTiming::requestKey).containsExactly("ok");
    assertThat(sink.messages())
        .containsExactly(file + ":1: client: bad 'response_timestamps' value \"\"soon\"\"");
  }

  @Test
  void readsThePerfAnalyzerDocsFixture() {
    Path file = Fixtures.file("genai-perf/decoupled_output_file.json");
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows)
        .extracting(ClientTiming::requestId, ClientTiming::status, ClientTiming::concurrency)
        .containsExactly(
            Tuple.tuple("genai-perf#1", "ok", 4),
            Tuple.tuple("genai-perf#2", "error: no response", 4),
            Tuple.tuple("genai-perf#3", "ok", 4));
    ClientTiming first = sink.rows.get(0);
    assertThat(first.startTs()).as("toy timestamps are not epoch ns").isNull();
    assertThat(first.startMonoS()).isCloseTo(1e-9, within(1e-18));
    assertThat(first.ttftMs()).isCloseTo(1e-6, within(1e-15));
    assertThat(first.e2eMs()).isCloseTo(3e-6, within(1e-15));
    assertThat(first.outputTokens()).as("no outputs: one token per response").isEqualTo(3);
    assertThat(sink.warnings).hasSize(2);
    assertThat(reader.recognize(FileHead.of(file)).matches()).isTrue();
  }
}
