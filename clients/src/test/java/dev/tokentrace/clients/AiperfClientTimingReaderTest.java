package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AIPerf {@code profile_export.jsonl} records composed by us in the shape of the AIPerf docs
 * (docs/formats/clients.md#aiperf: working-with-profile-exports.md, http-trace-metrics.md), our own
 * values.
 */
public final class AiperfClientTimingReaderTest {
  private static final long START_NS = 1_772_366_400_000_000_000L; // 2026-03-01T12:00:00Z

  private final AiperfClientTimingReader reader = new AiperfClientTimingReader();
  @TempDir Path dir;

  static String metadata(String idField, long startNs, String phase, boolean cancelled) {
    return "{\"session_num\":0,"
        + idField
        + "\"x_correlation_id\":\"c0ffee00-0000-4000-8000-000000000001\","
        + "\"conversation_id\":\"c0ffee00-0000-4000-8000-000000000002\",\"turn_index\":0,"
        + "\"request_start_ns\":"
        + startNs
        + ",\"request_ack_ns\":"
        + (startNs + 12_500_000)
        + ",\"request_end_ns\":"
        + (startNs + 900_000_000)
        + ",\"worker_id\":\"worker_0a1b2c3d\",\"benchmark_phase\":\""
        + phase
        + "\",\"was_cancelled\":"
        + cancelled
        + ",\"cancellation_time_ns\":null}";
  }

  static String id(String value) {
    return "\"x_request_id\":\"" + value + "\",";
  }

  static String ms(double value) {
    return "{\"value\":" + value + ",\"unit\":\"ms\"}";
  }

  static String tokens(long value) {
    return "{\"value\":" + value + ",\"unit\":\"tokens\"}";
  }

  /** A completed request; the docs example repeats time_to_first_token, so does this one. */
  public static String completed(String requestId, long startNs, double ttftMs, double latencyMs) {
    return "{\"metadata\":"
        + metadata(id(requestId), startNs, "profiling", false)
        + ",\"metrics\":{\"input_sequence_length\":"
        + tokens(120)
        + ",\"time_to_first_token\":"
        + ms(999.0)
        + ",\"request_latency\":"
        + ms(latencyMs)
        + ",\"output_sequence_length\":"
        + tokens(40)
        + ",\"inter_chunk_latency\":{\"value\":[20.0,19.5,31.25],\"unit\":\"ms\"}"
        + ",\"http_req_blocked\":"
        + ms(2.5)
        + ",\"http_req_dns_lookup\":"
        + ms(0.0)
        + ",\"http_req_connecting\":"
        + ms(1.25)
        + ",\"http_req_sending\":"
        + ms(0.5)
        + ",\"http_req_waiting\":"
        + ms(70.0)
        + ",\"http_req_receiving\":"
        + ms(770.0)
        + ",\"time_to_first_token\":"
        + ms(ttftMs)
        + "},\"error\":null}";
  }

  @Test
  void readsACompletedRequestWithHttpPhasesAndChunkGaps() throws Exception {
    String uuid = "5f3a0c1e-7b2d-4e8f-9a61-0c2b3d4e5f60";
    Path file =
        ClientFiles.write(
            dir, "profile_export.jsonl", completed(uuid, START_NS, 80.25, 850.5) + "\n");
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.warnings).isEmpty();
    ClientTiming row = sink.rows.get(0);
    assertThat(row.requestId()).isEqualTo(uuid);
    assertThat(row.requestKey()).isEqualTo(uuid);
    assertThat(row.idKind()).isEqualTo(IdKind.SENT);
    assertThat(row.startTs()).isEqualTo(Instant.parse("2026-03-01T12:00:00Z"));
    assertThat(row.startMonoS()).isNull();
    assertThat(row.ttftMs()).as("the last of the repeated keys wins").isEqualTo(80.25);
    assertThat(row.e2eMs()).isEqualTo(850.5);
    assertThat(row.clientQueueMs()).as("http_req_blocked").isEqualTo(2.5);
    assertThat(row.outputTokens()).isEqualTo(40);
    assertThat(row.promptTokens()).isEqualTo(120);
    assertThat(row.status()).isEqualTo("ok");
    assertThat(row.warmup()).isFalse();
    assertThat(row.detail()).isEqualTo(new ClientDetail(12.5, 1.25, 0.5, 70.0, 770.0, 4, 31.25));
    assertThat(row.source().line()).isEqualTo(1);
  }

  /**
   * docs/formats/client-files.md#aiperf-schemas: the 2025-09 records (timestamp_ns, credit_phase,
   * error inside metadata, ttft, no request ID) and the 2025-10 ones (x_request_id, top-level
   * error, ttft) are read, not rejected whole.
   */
  @Test
  void readsTheEarlierSchemas() throws Exception {
    String first =
        "{\"record_id\":\"\",\"metadata\":{\"conversation_id\":\"c-1\",\"turn_index\":0,"
            + "\"timestamp_ns\":"
            + START_NS
            + ",\"worker_id\":\"worker_1\",\"record_processor_id\":\"rp_1\","
            + "\"credit_phase\":\"warmup\",\"error\":null},\"metrics\":{\"request_latency\":"
            + ms(123.5)
            + ",\"ttft\":"
            + ms(45.5)
            + ",\"output_sequence_length\":"
            + tokens(100)
            + "}}";
    String firstFailed =
        "{\"record_id\":\"\",\"metadata\":{\"conversation_id\":\"c-2\",\"turn_index\":0,"
            + "\"timestamp_ns\":"
            + (START_NS + 1_000_000_000L)
            + ",\"credit_phase\":\"profiling\",\"error\":{\"code\":503,"
            + "\"type\":\"ServiceUnavailable\",\"message\":\"busy\"}},\"metrics\":{}}";
    String second =
        "{\"metadata\":{\"x_request_id\":\"r-2\",\"x_correlation_id\":\"x-2\","
            + "\"conversation_id\":\"c-3\",\"turn_index\":0,\"timestamp_ns\":"
            + START_NS
            + ",\"worker_id\":\"worker_2\",\"credit_phase\":\"profiling\"},\"metrics\":{"
            + "\"input_sequence_length\":"
            + tokens(550)
            + ",\"ttft\":"
            + ms(334.5)
            + ",\"request_latency\":"
            + ms(821.25)
            + ",\"output_token_count\":"
            + tokens(62)
            + "},\"error\":null}";
    Path file =
        ClientFiles.write(
            dir, "profile_export.jsonl", first + "\n" + firstFailed + "\n" + second + "\n");

    assertThat(reader.recognize(FileHead.of(file)).matches()).isTrue();
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows)
        .extracting(
            ClientTiming::startTs,
            ClientTiming::status,
            ClientTiming::warmup,
            ClientTiming::ttftMs,
            ClientTiming::e2eMs,
            ClientTiming::outputTokens)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                Instant.parse("2026-03-01T12:00:00Z"), "ok", true, 45.5, 123.5, 100),
            org.assertj.core.groups.Tuple.tuple(
                Instant.parse("2026-03-01T12:00:01Z"),
                "error: 503 ServiceUnavailable",
                false,
                null,
                null,
                null),
            org.assertj.core.groups.Tuple.tuple(
                Instant.parse("2026-03-01T12:00:00Z"), "ok", false, 334.5, 821.25, 62));
    assertThat(sink.rows.get(2).requestId()).isEqualTo("r-2");
    assertThat(sink.warnings).hasSize(1);
  }

  @Test
  void keepsFailedCancelledAndWarmupRecordsMarked() throws Exception {
    String failed =
        "{\"metadata\":"
            + metadata(id("f-1"), START_NS, "profiling", false)
            + ",\"metrics\":{\"error_isl\":"
            + tokens(300)
            + "},\"error\":{\"code\":400,\"type\":\"BadRequestError\","
            + "\"message\":\"the prompt: words we must never store\"}}";
    String cancelledWarmup =
        "{\"metadata\":"
            + metadata(id("w-1"), START_NS, "warmup", true)
            + ",\"metrics\":{\"time_to_first_token\":"
            + ms(50.0)
            + "},\"error\":null}";
    Path file = ClientFiles.write(dir, "p.jsonl", failed + "\n" + cancelledWarmup + "\n");
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows)
        .extracting(
            ClientTiming::requestId,
            ClientTiming::status,
            ClientTiming::warmup,
            ClientTiming::promptTokens,
            ClientTiming::e2eMs)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "f-1", "error: 400 BadRequestError", false, 300, null),
            org.assertj.core.groups.Tuple.tuple("w-1", "cancelled", true, null, null));
  }

  @Test
  void convertsUnitsAndFallsBackToTheRawTrace() throws Exception {
    String record =
        "{\"metadata\":"
            + metadata(id("t-1"), START_NS, "profiling", false)
            + ",\"metrics\":{\"time_to_first_token\":{\"value\":60000000,\"unit\":\"ns\"},"
            + "\"request_latency\":{\"value\":0.5,\"unit\":\"s\"},\"output_sequence_length\":"
            + tokens(10)
            + "},\"trace_data\":{\"trace_type\":\"aiohttp\",\"request_send_start_ns\":"
            + (START_NS + 1_000_000)
            + ",\"request_headers\":{\"Authorization\":\"Bearer never-stored\"},"
            + "\"response_chunks\":[["
            + (START_NS + 60_000_000)
            + ",565]],\"blocked_ns\":1000000,\"sending_ns\":200000,\"waiting_ns\":55000000,"
            + "\"receiving_ns\":400000000,\"connecting_ns\":0},\"error\":null}";
    Path file = ClientFiles.write(dir, "p.jsonl", record + "\n");
    ClientTiming row = ClientFiles.read(reader, file).rows.get(0);

    assertThat(row.ttftMs()).isEqualTo(60.0);
    assertThat(row.e2eMs()).isEqualTo(500.0);
    assertThat(row.clientQueueMs()).isEqualTo(1.0);
    assertThat(row.detail()).isEqualTo(new ClientDetail(12.5, 0.0, 0.2, 55.0, 400.0, null, null));
  }

  @Test
  void givesRecordsWithoutARequestIdLocalIdsAndSaysSoOnce() throws Exception {
    String withoutId = completed("x", START_NS, 10, 20).replace("\"x_request_id\":\"x\",", "");
    Path file = ClientFiles.write(dir, "p.jsonl", withoutId + "\n" + withoutId + "\n");
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rows)
        .extracting(ClientTiming::requestId, ClientTiming::idKind)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("aiperf#1", IdKind.LOCAL),
            org.assertj.core.groups.Tuple.tuple("aiperf#2", IdKind.LOCAL));
    assertThat(sink.warnings)
        .containsExactly(
            file
                + ":1: aiperf: records without metadata.x_request_id cannot be joined by ID;"
                + " use --match heuristic");
  }

  @Test
  void rejectsBadRecordsOneLineAtATimeWithoutTheirText() throws Exception {
    String good = completed("g-1", START_NS, 10, 20);
    List<String> lines =
        List.of(
            good,
            "",
            "{\"metadata\": {\"x_request_id\": \"cut-off",
            completed("n-1", START_NS, 10, -5),
            completed("o-1", START_NS, 90, 80),
            completed("u-1", START_NS, 10, 20).replace("\"unit\":\"ms\"}}", "\"unit\":\"min\"}}"),
            completed("s-1", 123, 10, 20),
            "[1,2]",
            completed("g-2", START_NS, 10, 20));
    Path file = ClientFiles.write(dir, "p.jsonl", String.join("\n", lines) + "\n");
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rows).extracting(ClientTiming::requestId).containsExactly("g-1", "g-2");
    assertThat(sink.messages())
        .containsExactly(
            file
                + ":3: client: malformed json: Unexpected end-of-input: was expecting closing quote for a string value",
            file + ":4: client: negative 'metrics.request_latency' value \"-5.0\"",
            file
                + ":5: client: 'metrics.time_to_first_token' > 'metrics.request_latency' (90.0 > 80.0)",
            file + ":6: client: bad unit 'min' for 'metrics.time_to_first_token'",
            file
                + ":7: client: bad 'metadata.request_start_ns' value \"123\" (epoch not in"
                + " 2000-2099)",
            file + ":8: client: not a json object");
    assertThat(sink.rejections).allSatisfy(r -> assertThat(r.excerpt()).isEmpty());
  }

  @Test
  void readsTheAiperfFixture() {
    Path file = Fixtures.file("aiperf/qwen_concurrency1/profile_export.jsonl");
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows).hasSize(10);
    ClientTiming first = sink.rows.get(0);
    assertThat(first.requestId()).isEqualTo("ca141195-5655-4605-8050-c4366098739d");
    assertThat(first.requestKey()).isEqualTo(first.requestId());
    assertThat(first.startTs()).isEqualTo(Instant.ofEpochSecond(1761171265L, 622770758L));
    assertThat(first.ttftMs()).isEqualTo(31.157277999999998);
    assertThat(first.e2eMs()).isEqualTo(3605.766783);
    assertThat(first.outputTokens()).isEqualTo(200);
    assertThat(first.promptTokens()).isEqualTo(100);
    assertThat(first.detail().chunks()).isEqualTo(200);
    assertThat(first.detail().ackMs())
        .isCloseTo(10.931231, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(sink.rows).allSatisfy(row -> assertThat(row.ok()).isTrue());
    assertThat(reader.recognize(FileHead.of(file)).matches()).isTrue();
  }
}
