package dev.tokentrace.correlate.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.clients.AiperfClientTimingReaderTest;
import dev.tokentrace.clients.ClientReadSettings;
import dev.tokentrace.clients.ClientReaderOutput;
import dev.tokentrace.clients.ClientTimingReader;
import dev.tokentrace.clients.CsvClientTimingReader;
import dev.tokentrace.clients.FileHead;
import dev.tokentrace.clients.Fixtures;
import dev.tokentrace.clients.Recognition;
import dev.tokentrace.clients.VllmBenchClientTimingReaderTest;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.TestQueries;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ClientTimingLoaderTest {
  /** 159 bytes, sha256 below: two good rows (one without concurrency) and one bad. */
  private static final String CONTENT =
      "request_id,start_ts,ttft_ms,e2e_ms,output_tokens,concurrency\n"
          + "chatcmpl-a,2026-03-01T12:00:00Z,10,20,5,\n"
          + "b,1772366401000,11,21,6,4\n"
          + "c,2026-03-01T12:00:02Z,x,22,7,\n";

  private static final String SHA256 =
      "bfdfd9a7ec42c79f2bc8ceda0b2e47c33857bb8de68465175542c6e055950882";
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-03-01T12:30:00Z"), ZoneOffset.UTC);

  @TempDir Path dir;
  private Database database;
  private ClientTimingLoader loader;

  @BeforeEach
  void open() {
    database = Database.open(DatabaseSettings.inMemory());
    loader = new ClientTimingLoader(database, CLOCK);
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void loadsRowsRejectsAndTheRunInOneGo() throws Exception {
    Path file = write("run.csv", CONTENT);
    ClientLoadResult result = loader.load(settings(List.of(file), null, 1, 0.5));

    assertThat(result.runId()).isEqualTo("clients-20260301T123000Z");
    assertThat(result.rows()).isEqualTo(2);
    assertThat(result.rejected()).isEqualTo(1);
    assertThat(result.toleranceExceeded()).isFalse();
    assertThat(result.messages()).containsExactly(file + ":4: client: bad 'ttft_ms' value \"x\"");
    assertThat(result.summary())
        .isEqualTo(
            "rows=2 rejected=1 (33.33%) skipped_files=0 run=clients-20260301T123000Z -> client_timing, rejects");

    assertThat(
            TestQueries.rows(
                database,
                "SELECT run_id, client_format, source_line, request_id, request_key,"
                    + " strftime(start_ts, '%Y-%m-%dT%H:%M:%S.%f') AS start, ttft_ms, e2e_ms,"
                    + " output_tokens, concurrency, status, warmup FROM client_timing ORDER BY source_line"))
        .containsExactly(
            row(
                "clients-20260301T123000Z",
                "csv",
                2L,
                "chatcmpl-a",
                "a",
                "2026-03-01T12:00:00.000000",
                10.0,
                20.0,
                5,
                1,
                "ok",
                false),
            row(
                "clients-20260301T123000Z",
                "csv",
                3L,
                "b",
                "b",
                "2026-03-01T12:00:01.000000",
                11.0,
                21.0,
                6,
                4,
                "ok",
                false));
    assertThat(
            TestQueries.rows(
                database,
                "SELECT source_path, line_no, byte_offset, engine, reason, excerpt,"
                    + " CAST(ingested_ts AS VARCHAR) AS ingested FROM rejects"))
        .containsExactly(
            Map.of(
                "source_path", file.toString(),
                "line_no", 4L,
                "byte_offset", 128L,
                "engine", "client",
                "reason", "bad 'ttft_ms' value \"x\"",
                "excerpt", "c,2026-03-01T12:00:02Z,x,22,7,",
                "ingested", "2026-03-01 12:30:00"));
    assertThat(
            TestQueries.rows(
                database,
                "SELECT r.kind, r.command, f.path, f.kind AS file_kind, f.bytes, f.sha256"
                    + " FROM runs r JOIN run_files f USING (run_id)"))
        .containsExactly(
            Map.of(
                "kind",
                "clients",
                "command",
                "tokentrace clients run.csv",
                "path",
                file.toString(),
                "file_kind",
                "client:csv",
                "bytes",
                159L,
                "sha256",
                SHA256));
    assertThat(TestQueries.one(database, String.class, "SELECT params FROM runs"))
        .isEqualTo(
            "{\"format\":\"csv\",\"formats\":{\""
                + file
                + "\":\"csv\"},\"request_id_prefix\":null,\"concurrency\":1,"
                + "\"max_reject_ratio\":0.5,\"files\":[\""
                + file
                + "\"]}");
  }

  @Test
  void skipsAFileWhoseContentWasAlreadyLoaded() throws Exception {
    Path first = write("a.csv", CONTENT);
    Path copy = write("b.csv", CONTENT);
    loader.load(settings(List.of(first), null, null, 1.0));

    ClientLoadResult again = loader.load(settings(List.of(copy, first), null, null, 1.0));

    assertThat(again.runId()).isEqualTo("clients-20260301T123000Z-2");
    assertThat(again.rows()).isZero();
    assertThat(again.skippedFiles()).isEqualTo(2);
    assertThat(again.messages())
        .containsExactly(
            copy + ": client: file skipped: already loaded by run clients-20260301T123000Z",
            first + ": client: file skipped: already loaded by run clients-20260301T123000Z");
    assertThat(TestQueries.one(database, Long.class, "SELECT count(*) FROM client_timing"))
        .isEqualTo(2L);
    assertThat(TestQueries.one(database, Long.class, "SELECT count(*) FROM runs")).isEqualTo(2L);
  }

  @Test
  void reportsWhenRejectsExceedTheTolerance() throws Exception {
    ClientLoadResult result =
        loader.load(settings(List.of(write("run.csv", CONTENT)), null, null, 0.01));
    assertThat(result.toleranceExceeded()).isTrue();
    assertThat(TestQueries.one(database, Long.class, "SELECT count(*) FROM client_timing"))
        .isEqualTo(2L);
  }

  @Test
  void refusesARunIdThatIsTakenAndLoadsNothing() throws Exception {
    Path file = write("run.csv", CONTENT);
    loader.load(settings(List.of(file), "bench-1", null, 1.0));
    Path other = write("other.csv", CONTENT.replace("chatcmpl-a", "z"));
    assertThatThrownBy(() -> loader.load(settings(List.of(other), "bench-1", null, 1.0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("run 'bench-1' already exists; choose another --run-id, or --replace it");
    assertThat(TestQueries.one(database, Long.class, "SELECT count(*) FROM client_timing"))
        .isEqualTo(2L);
  }

  @Test
  void rollsBackEverythingWhenAFileCannotBeRead() throws Exception {
    Path good = write("run.csv", CONTENT);
    Path missing = dir.resolve("missing.csv");
    assertThatThrownBy(() -> loader.load(settings(List.of(good, missing), null, null, 1.0)))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage("cannot read " + missing);
    assertThat(TestQueries.one(database, Long.class, "SELECT count(*) FROM client_timing"))
        .isZero();
    assertThat(TestQueries.one(database, Long.class, "SELECT count(*) FROM runs")).isZero();
  }

  @Test
  void rollsBackAppendedRowsWhenReadingFailsHalfWay() throws Exception {
    ClientTimingReader failing =
        new ClientTimingReader() {
          @Override
          public String format() {
            return "csv";
          }

          @Override
          public Recognition recognize(FileHead head) {
            return Recognition.yes();
          }

          @Override
          public void read(Path file, ClientReaderOutput sink) {
            new CsvClientTimingReader().read(file, sink); // appends two rows and a reject
            throw new UncheckedIOException("disk gone", new java.io.IOException("simulated"));
          }
        };
    ClientTimingLoader loader = new ClientTimingLoader(database, CLOCK, format -> failing);
    Path file = write("run.csv", CONTENT);
    assertThatThrownBy(() -> loader.load(settings(List.of(file), null, null, 1.0)))
        .hasMessage("disk gone");
    assertThat(TestQueries.one(database, Long.class, "SELECT count(*) FROM client_timing"))
        .isZero();
    assertThat(TestQueries.one(database, Long.class, "SELECT count(*) FROM rejects")).isZero();
    assertThat(TestQueries.one(database, Long.class, "SELECT count(*) FROM runs")).isZero();
  }

  @Test
  void detectsEachFilesFormatAndStoresWhatTheReadersFound() throws Exception {
    Path csv = write("run.csv", CONTENT);
    Path aiperf =
        write(
            "profile_export.jsonl",
            AiperfClientTimingReaderTest.completed("u-1", 1_772_366_400_000_000_000L, 80.25, 850.5)
                + "\n");
    Path bench =
        write(
            "bench.json",
            VllmBenchClientTimingReaderTest.HEAD + VllmBenchClientTimingReaderTest.ARRAYS);
    ClientLoadResult result =
        loader.load(
            ClientLoadSettings.from(
                List.of(csv, aiperf, bench), "auto", null, null, "clients", 1.0, "bench-9-"));

    assertThat(result.rows()).isEqualTo(2 + 1 + 3);
    assertThat(
            TestQueries.rows(
                database,
                "SELECT client_format, count(*) AS n, min(id_kind) AS kind FROM client_timing"
                    + " GROUP BY ALL ORDER BY client_format"))
        .containsExactly(
            Map.of("client_format", "aiperf", "n", 1L, "kind", "sent"),
            Map.of("client_format", "csv", "n", 2L, "kind", "sent"),
            Map.of("client_format", "vllm-bench", "n", 3L, "kind", "rebuilt"));
    assertThat(
            TestQueries.rows(
                database,
                "SELECT request_key, ack_ms, http_connect_ms, http_send_ms, http_wait_ms,"
                    + " http_receive_ms, chunks, itl_max_ms, client_queue_ms FROM client_timing"
                    + " WHERE client_format = 'aiperf'"))
        .containsExactly(
            Map.of(
                "request_key", "u-1",
                "ack_ms", 12.5,
                "http_connect_ms", 1.25,
                "http_send_ms", 0.5,
                "http_wait_ms", 70.0,
                "http_receive_ms", 770.0,
                "chunks", 4,
                "itl_max_ms", 31.25,
                "client_queue_ms", 2.5));
    assertThat(
            TestQueries.column(database, String.class, "SELECT kind FROM run_files ORDER BY path"))
        .containsExactly("client:vllm-bench", "client:aiperf", "client:csv");
    assertThat(
            TestQueries.column(
                database,
                String.class,
                "SELECT request_id FROM client_timing WHERE client_format = 'vllm-bench'"
                    + " ORDER BY source_line"))
        .containsExactly("bench-9-0", "bench-9-1", "bench-9-2");
  }

  @Test
  void namesEveryFileWhoseFormatCannotBeDetectedBeforeLoadingAnything() throws Exception {
    Path good = write("run.csv", CONTENT);
    Path first = write("a.txt", "hello\n");
    Path second = write("b.json", "{\"hello\": 1}");
    assertThatThrownBy(
            () ->
                loader.load(
                    ClientLoadSettings.from(
                        List.of(good, first, second), null, null, null, "x", null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(first + ": client: no client format recognized (give --format)")
        .hasMessageContaining(second + ": client: no client format recognized (give --format)");
    assertThat(TestQueries.one(database, Long.class, "SELECT count(*) FROM runs")).isZero();
  }

  @Test
  void settingsDefaults() {
    ClientLoadSettings settings =
        ClientLoadSettings.from(List.of(Path.of("a.csv")), null, null, null, "x", null);
    assertThat(settings.format()).isEqualTo("auto");
    assertThat(settings.read().requestIdPrefix()).isNull();
    assertThat(settings.runId()).isNull();
    assertThat(settings.concurrency()).isNull();
    assertThat(settings.maxRejectRatio()).isEqualTo(0.01);
  }

  @Test
  void settingsExplicitMappingAndValidation() {
    ClientLoadSettings settings =
        ClientLoadSettings.from(List.of(Path.of("a.csv")), "csv", "run-1", 8, "cmd", 0.2);
    assertThat(settings)
        .isEqualTo(
            new ClientLoadSettings(List.of(Path.of("a.csv")), "csv", "run-1", 8, "cmd", 0.2));
    assertThat(
            ClientLoadSettings.from(
                    List.of(Path.of("b.json")), "vllm-bench", null, null, "cmd", null, "bench-x-")
                .read())
        .isEqualTo(new ClientReadSettings("bench-x-"));
    assertThatThrownBy(() -> new ClientReadSettings(""))
        .hasMessageContaining("--request-id-prefix must be 1-200 characters");
    assertThatThrownBy(() -> ClientLoadSettings.from(List.of(), null, null, null, "x", null))
        .hasMessageContaining("files is empty");
    assertThatThrownBy(
            () -> ClientLoadSettings.from(List.of(Path.of("a")), null, "a b", null, "x", null))
        .hasMessageContaining("--run-id must be");
    assertThatThrownBy(
            () -> ClientLoadSettings.from(List.of(Path.of("a")), null, null, 0, "x", null))
        .hasMessage("--concurrency must be >= 1: 0");
    assertThatThrownBy(
            () -> ClientLoadSettings.from(List.of(Path.of("a")), null, null, null, "x", 2.0))
        .hasMessage("--max-reject-ratio must be in [0, 1]: 2.0");
  }

  /** docs/formats/client-files.md#no-rows: a GuideLLM report without its requests. */
  @Test
  void aFileWithoutPerRequestRecordsIsAnErrorThatSaysWhyAndRegistersNoRun() throws Exception {
    Path file =
        write(
            "benchmarks.json",
            "{\"metadata\":{\"version\":2},\"benchmarks\":[{\"config\":{},"
                + "\"requests\":{\"successful\":[],\"errored\":[],\"incomplete\":[]}}]}");

    assertThatThrownBy(
            () ->
                loader.load(
                    new ClientLoadSettings(
                        List.of(file), "guidellm", null, null, "tokentrace clients", 0.5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(file + ": guidellm: no per-request rows: ")
        .hasMessageContaining("1 benchmark(s) but no per-request records")
        .hasMessageContaining("requests stripped");
    assertThat(TestQueries.rows(database, "SELECT run_id FROM runs")).isEmpty();
  }

  @Test
  void theAggregateOnlyGuidellmFixtureIsAnError() {
    Path file = Fixtures.file("guidellm/guidellm_report_v2.json");

    assertThatThrownBy(
            () ->
                loader.load(
                    new ClientLoadSettings(
                        List.of(file), "auto", null, null, "tokentrace clients", 0.5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no per-request records");
  }

  @Test
  void anAiperfFileWithoutRecordsPointsAtTheRightFile() throws Exception {
    Path file = write("profile_export.jsonl", "\n");

    assertThatThrownBy(
            () ->
                loader.load(
                    new ClientLoadSettings(
                        List.of(file), "aiperf", null, null, "tokentrace clients", 0.5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pass that file, not profile_export_aiperf.json");
  }

  private static ClientLoadSettings settings(
      List<Path> files, String runId, Integer concurrency, double maxRejectRatio) {
    return new ClientLoadSettings(
        files, "csv", runId, concurrency, "tokentrace clients run.csv", maxRejectRatio);
  }

  private Path write(String name, String content) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, content);
    return file;
  }

  private static Map<String, Object> row(Object... values) {
    String[] names = {
      "run_id",
      "client_format",
      "source_line",
      "request_id",
      "request_key",
      "start",
      "ttft_ms",
      "e2e_ms",
      "output_tokens",
      "concurrency",
      "status",
      "warmup"
    };
    java.util.LinkedHashMap<String, Object> row = new java.util.LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) {
      row.put(names[i], values[i]);
    }
    return row;
  }
}
