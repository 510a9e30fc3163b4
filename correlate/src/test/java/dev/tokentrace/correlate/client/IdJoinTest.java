package dev.tokentrace.correlate.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.tokentrace.clients.AiperfClientTimingReaderTest;
import dev.tokentrace.clients.ClientFiles;
import dev.tokentrace.clients.GenaiPerfClientTimingReaderTest;
import dev.tokentrace.clients.GuidellmClientTimingReaderTest;
import dev.tokentrace.clients.VllmBenchClientTimingReaderTest;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.attribution.RequestAttribution;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.rows.ClockOffset;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end on a real DuckDB: client files of every ID-carrying format, loaded with {@code
 * --format auto}, joined to server records the vLLM parser made of log lines, by the one request
 * key.
 */
final class IdJoinTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-03-01T13:00:00Z"), ZoneOffset.UTC);
  private static final long T0_NS = 1_772_366_400_000_000_000L; // 2026-03-01T12:00:00Z

  @TempDir Path dir;
  private Database database;

  @BeforeEach
  void open() {
    database = Database.open(DatabaseSettings.inMemory());
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void joinsEveryFormatsIdToTheServersRecordsByOneKey() throws Exception {
    String uuid = "7609a2e7-aa53-4ab1-98f4-f35ecafefd25";
    Path aiperf =
        ClientFiles.write(
            dir,
            "profile_export.jsonl",
            AiperfClientTimingReaderTest.completed(uuid, T0_NS, 80.0, 900.0)
                    .replace(
                        "\"output_sequence_length\":{\"value\":40",
                        "\"output_sequence_length\":{\"value\":8")
                + "\n");
    Path bench =
        ClientFiles.write(
            dir,
            "bench.json",
            VllmBenchClientTimingReaderTest.HEAD + VllmBenchClientTimingReaderTest.ARRAYS);
    Path guidellm =
        ClientFiles.write(
            dir,
            "benchmarks.json",
            GuidellmClientTimingReaderTest.file(
                GuidellmClientTimingReaderTest.request(
                    "chatcmpl-a269fdcb7c6ce890", GuidellmClientTimingReaderTest.FULL_TIMINGS, ""),
                "",
                ""));
    Path genaiPerf =
        ClientFiles.write(
            dir,
            "profile_export.json",
            GenaiPerfClientTimingReaderTest.export(
                GenaiPerfClientTimingReaderTest.request(
                    T0_NS,
                    (T0_NS + 60_000_000L) + "," + (T0_NS + 950_000_000L),
                    GenaiPerfClientTimingReaderTest.sse(
                            "{\"id\":\"cmpl-bench-1a2b3c4d-17\",\"choices\":[{\"text\":\"a\"}]}")
                        + ","
                        + GenaiPerfClientTimingReaderTest.sse(
                            "{\"id\":\"cmpl-bench-1a2b3c4d-17\",\"choices\":[{\"text\":\"b\"}]}"))));
    new ClientTimingLoader(database, CLOCK)
        .load(
            ClientLoadSettings.from(
                List.of(aiperf, bench, guidellm, genaiPerf),
                "auto",
                "bench-run",
                null,
                "tokentrace clients ...",
                1.0,
                "bench-1a2b3c4d-"));
    List<EngineEvent> events = new ArrayList<>();
    events.addAll(
        ServerEvents.parseVllm(
            ServerEvents.span("chatcmpl-" + uuid, 8),
            ServerEvents.received("cmpl-bench-1a2b3c4d-0-0"),
            ServerEvents.span("cmpl-bench-1a2b3c4d-1-0", 20),
            ServerEvents.span("chatcmpl-a269fdcb7c6ce890", 30),
            ServerEvents.span("cmpl-bench-1a2b3c4d-17-0", 2)));
    ServerEvents.insert(database, events);

    Attributor attributor = new Attributor(database, CLOCK);
    attributor.run(AttributionSettings.defaults(), "tokentrace correlate");

    assertThat(attributor.requests())
        .extracting(
            RequestAttribution::requestId,
            RequestAttribution::requestKey,
            RequestAttribution::joinStatus,
            RequestAttribution::idKind)
        .containsExactlyInAnyOrder(
            tuple(uuid, uuid, "matched", "sent"),
            tuple("bench-1a2b3c4d-0", "bench-1a2b3c4d-0", "arrival_only", "rebuilt"),
            tuple("bench-1a2b3c4d-1", "bench-1a2b3c4d-1", "matched", "rebuilt"),
            tuple("bench-1a2b3c4d-2", "bench-1a2b3c4d-2", "client_only", "rebuilt"),
            tuple("chatcmpl-a269fdcb7c6ce890", "a269fdcb7c6ce890", "matched", "response"),
            tuple("cmpl-bench-1a2b3c4d-17", "bench-1a2b3c4d-17", "matched", "response"));
    assertThat(attributor.dataQuality().serverOnlyKeys()).isZero();
    // the vllm bench run's perf_counter clock is placed on the server clock by its two ID pairs
    // with an arrival (a text-log line and a span); the AIPerf, GuideLLM and GenAI-Perf wall
    // clocks by their spans
    assertThat(attributor.clockOffsets())
        .extracting(ClockOffset::clientClock, ClockOffset::serverSource, ClockOffset::usedPairs)
        .containsExactlyInAnyOrder(
            tuple("monotonic", "mixed", 2), tuple("wall", "request_timing", 3));
  }
}
