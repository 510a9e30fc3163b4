package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Instant;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GuideLLM {@code benchmarks.json} in the current layout, composed by us from the schema of
 * guidellm @ ee7a7745 ({@code GenerativeRequestStats}, {@code RequestInfo.timings};
 * docs/formats/clients.md#guidellm) with our own values, plus the fixtures of the older layout and
 * of the v2 report.
 */
public final class GuidellmClientTimingReaderTest {
  private final GuidellmClientTimingReader reader = new GuidellmClientTimingReader();
  @TempDir Path dir;

  public static String request(String responseId, String timings, String extra) {
    return "{\"type_\":\"generative_request_stats\","
        + "\"request_id\":\"11111111-2222-4333-8444-555555555555\","
        + (responseId == null ? "" : "\"response_id\":\"" + responseId + "\",")
        + "\"request_args\":\"{\\\"messages\\\": \\\"a prompt never kept\\\"}\","
        + "\"output\":\"an output never kept\","
        + "\"info\":{\"request_id\":\"11111111-2222-4333-8444-555555555555\",\"status\":\"completed\","
        + "\"scheduler_node_id\":0,\"timings\":{"
        + timings
        + "}"
        + extra
        + "},\"input_metrics\":{\"text_tokens\":100,\"total_tokens\":100},"
        + "\"output_metrics\":{\"text_tokens\":30,\"total_tokens\":30},"
        + "\"prompt_tokens\":100,\"output_tokens\":30}";
  }

  public static final String FULL_TIMINGS =
      "\"queued\":1772366399.5,\"dequeued\":1772366399.75,\"request_start\":1772366400.0,"
          + "\"first_token_iteration\":1772366400.125,\"last_token_iteration\":1772366401.5,"
          + "\"request_end\":1772366401.5625,\"token_iterations\":30";

  public static String file(String successful, String incomplete, String errored) {
    return "{\"metadata\":{\"version\":2,\"guidellm_version\":\"0.8.0\"},"
        + "\"benchmarks\":[{\"type_\":\"generative_benchmark\","
        + "\"config\":{\"strategy\":{\"type_\":\"concurrent\",\"streams\":4}},"
        + "\"metrics\":{\"request_latency\":{\"successful\":{\"mean\":1.5}}},"
        + "\"requests\":{\"successful\":["
        + successful
        + "],\"incomplete\":["
        + incomplete
        + "],\"errored\":["
        + errored
        + "],\"total\":null}}]}";
  }

  @Test
  void readsTheCurrentLayoutKeyedByTheServersResponseId() throws Exception {
    String chat = request("chatcmpl-a269fdcb7c6ce890", FULL_TIMINGS, "");
    String completion =
        request(
                "cmpl-0123456789abcdef",
                FULL_TIMINGS.replace("1772366400.125", "1772366400.25"),
                "")
            .replace(",\"output_tokens\":30", "");
    String incomplete =
        request(
            "chatcmpl-feedfacecafe0001",
            "\"request_start\":1772366402.0,\"first_token_iteration\":1772366402.0625",
            "");
    String errored =
        request(null, "\"request_start\":1772366403.0", ",\"error\":\"ConnectError: refused\"");
    Path file =
        ClientFiles.write(
            dir, "benchmarks.json", file(chat + "," + completion, incomplete, errored));
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.warnings).isEmpty();
    assertThat(sink.rows)
        .extracting(
            ClientTiming::requestId,
            ClientTiming::requestKey,
            ClientTiming::idKind,
            ClientTiming::status,
            ClientTiming::ttftMs,
            ClientTiming::e2eMs,
            ClientTiming::outputTokens)
        .containsExactly(
            Tuple.tuple(
                "chatcmpl-a269fdcb7c6ce890",
                "a269fdcb7c6ce890",
                IdKind.RESPONSE,
                "ok",
                125.0,
                1500.0,
                30),
            Tuple.tuple(
                "cmpl-0123456789abcdef",
                "0123456789abcdef",
                IdKind.RESPONSE,
                "ok",
                250.0,
                1500.0,
                30),
            Tuple.tuple(
                "chatcmpl-feedfacecafe0001",
                "feedfacecafe0001",
                IdKind.RESPONSE,
                "incomplete",
                62.5,
                null,
                30),
            Tuple.tuple(
                "11111111-2222-4333-8444-555555555555",
                "11111111-2222-4333-8444-555555555555",
                IdKind.LOCAL,
                "error: ConnectError: refused",
                null,
                null,
                30));
    ClientTiming first = sink.rows.get(0);
    assertThat(first.startTs()).isEqualTo(Instant.parse("2026-03-01T12:00:00Z"));
    assertThat(first.concurrency()).isEqualTo(4);
    assertThat(first.promptTokens()).isEqualTo(100);
    assertThat(first.detail().chunks()).isEqualTo(30);
    assertThat(sink.rows).extracting(row -> row.source().line()).containsExactly(1L, 2L, 3L, 4L);
  }

  @Test
  void saysOnceThatFilesWithoutResponseIdsNeedHeuristicMatching() throws Exception {
    String local = request(null, FULL_TIMINGS, "");
    Path file = ClientFiles.write(dir, "benchmarks.json", file(local + "," + local, "", ""));
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rows)
        .hasSize(2)
        .allSatisfy(row -> assertThat(row.idKind()).isEqualTo(IdKind.LOCAL));
    assertThat(sink.warnings)
        .containsExactly(
            file
                + ":1: guidellm: requests have no response_id (GuideLLM before response IDs, issue"
                + " #452); their request_id never reached the server: join with --match heuristic");
  }

  @Test
  void readsYamlToo() throws Exception {
    String yaml =
        String.join(
            "\n",
            "---",
            "benchmarks:",
            "- type_: generative_benchmark",
            "  args:",
            "    strategy:",
            "      type_: synchronous",
            "  requests:",
            "    successful:",
            "    - request_id: 9f8e7d6c-0000-4000-8000-000000000001",
            "      response_id: chatcmpl-yaml0001",
            "      info:",
            "        timings:",
            "          request_start: 1772366400.0",
            "          first_token_iteration: 1772366400.5",
            "          last_token_iteration: 1772366402.0",
            "      prompt_tokens: 12",
            "      output_tokens: 7",
            "    errored: []",
            "");
    Path file = ClientFiles.write(dir, "benchmarks.yaml", yaml);
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rejections).isEmpty();
    ClientTiming row = sink.rows.get(0);
    assertThat(row.requestKey()).isEqualTo("yaml0001");
    assertThat(row.ttftMs()).isEqualTo(500.0);
    assertThat(row.e2eMs()).isEqualTo(2000.0);
    assertThat(row.concurrency()).isEqualTo(1);
    assertThat(reader.recognize(FileHead.of(file)).matches()).isTrue();
  }

  @Test
  void rejectsABadRequestAndKeepsTheOthers() throws Exception {
    String bad = request("chatcmpl-bad", FULL_TIMINGS.replace("1772366401.5,", "\"later\","), "");
    String good = request("chatcmpl-good", FULL_TIMINGS, "");
    Path file = ClientFiles.write(dir, "benchmarks.json", file(bad + "," + good, "", ""));
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rows).extracting(ClientTiming::requestKey).containsExactly("good");
    assertThat(sink.messages())
        .containsExactly(
            file + ":1: client: bad 'info.timings.last_token_iteration' value \"\"later\"\"");
  }

  @Test
  void readsTheOlderLayoutOfTheFixtureInJsonAndYaml() {
    for (String name : new String[] {"benchmarks_stripped.json", "benchmarks_stripped.yaml"}) {
      Path file = Fixtures.file("guidellm/" + name);
      CollectingSink sink = ClientFiles.read(reader, file);

      assertThat(sink.rejections).as(name).isEmpty();
      assertThat(sink.rows).as(name).hasSize(1);
      ClientTiming row = sink.rows.get(0);
      assertThat(row.requestId()).isEqualTo("73054dd1-486f-4894-a861-075750b82453");
      assertThat(row.idKind()).isEqualTo(IdKind.LOCAL);
      assertThat(row.startTs()).isEqualTo(Instant.parse("2025-06-05T20:59:28.182700Z"));
      assertThat(row.ttftMs()).isEqualTo(21.281957626342773);
      assertThat(row.e2eMs()).isCloseTo(689.0919, within(1e-3));
      assertThat(row.promptTokens()).isEqualTo(257);
      assertThat(row.outputTokens()).isEqualTo(128);
      assertThat(row.concurrency()).as("synchronous").isEqualTo(1);
      assertThat(sink.warnings).as(name).hasSize(1);
      assertThat(reader.recognize(FileHead.of(file)).matches()).as(name).isTrue();
    }
  }

  @Test
  void readsTheV2ReportFixtureWhoseRequestListsAreEmpty() {
    Path file = Fixtures.file("guidellm/guidellm_report_v2.json");
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rows).isEmpty();
    assertThat(sink.rejections).isEmpty();
    assertThat(reader.recognize(FileHead.of(file)).matches()).isTrue();
  }
}
