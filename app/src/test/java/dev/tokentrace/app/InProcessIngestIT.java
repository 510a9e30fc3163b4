package dev.tokentrace.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.EventTable;
import dev.tokentrace.event.EventTables;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.sink.SinkSettings;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.store.DatabaseSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue [3.3] item 5: the batch ingest use case without configured brokers loads in-process (no
 * broker start) and stores the same rows as through the embedded broker: every event table, {@code
 * rejects} and the {@code ingest_files} ledger, compared with {@code EXCEPT ALL} both ways
 * (docs/design.md#embedded-broker). Columns that legitimately differ are left out: {@code
 * rejects.ingested_ts} and {@code ingest_files.loaded_ts} (when the run happened); {@code
 * kafka_offsets} is not compared (the in-process path consumes no topic).
 */
final class InProcessIngestIT {
  private static final Path SAMPLES = Path.of("..", "samples");

  @TempDir Path dir;

  @Test
  void inProcessAndThroughTheBrokerStoreTheSameRowsAndARunAgainSkipsEveryFile() throws Exception {
    Path direct = dir.resolve("direct.duckdb");
    Path broker = dir.resolve("broker.duckdb");

    String directErr = ingest(direct, false);
    String brokerErr = ingest(broker, true);

    assertThat(directErr)
        .contains("ingest: in-process (no broker): 6 files")
        .doesNotContain("embedded kafka broker");
    assertThat(brokerErr)
        .contains("embedded kafka broker on 127.0.0.1:")
        .doesNotContain("in-process");
    List<String> compared = new ArrayList<>();
    for (EventTable<?> table : EventTables.ALL) {
      compared.add("SELECT * FROM %s." + table.name());
    }
    compared.add("SELECT * EXCLUDE (ingested_ts) FROM %s.rejects");
    compared.add("SELECT * EXCLUDE (loaded_ts) FROM %s.ingest_files");
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      statement.execute("ATTACH '" + direct + "' AS d (READ_ONLY)");
      statement.execute("ATTACH '" + broker + "' AS b (READ_ONLY)");
      long events = 0;
      for (String query : compared) {
        events += count(statement, "SELECT count(*) FROM (" + query.formatted("d") + ")");
        for (String[] pair : new String[][] {{"d", "b"}, {"b", "d"}}) {
          String difference = query.formatted(pair[0]) + " EXCEPT ALL " + query.formatted(pair[1]);
          assertThat(rows(statement, difference + " LIMIT 3"))
              .as("%s: rows of %s not in %s", query, pair[0], pair[1])
              .isEmpty();
        }
      }
      assertThat(events).as("rows compared").isGreaterThan(1000);
      assertThat(count(statement, "SELECT count(*) FROM d.rejects")).as("rejects").isPositive();
      assertThat(count(statement, "SELECT count(*) FROM d.kafka_offsets")).isZero();
    }

    String again = ingest(direct, false);
    assertThat(again)
        .contains("already loaded")
        .contains("ingest: every file is loaded already; nothing to do")
        .doesNotContain("in-process");
  }

  private static List<String> rows(Statement statement, String sql) throws Exception {
    List<String> rows = new ArrayList<>();
    try (ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          row.append(result.getMetaData().getColumnName(i)).append('=');
          row.append(result.getString(i)).append(' ');
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  private static long count(Statement statement, String sql) throws Exception {
    try (ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  /**
   * Ingests the sample files (server logs, exports and a GPU file with bad lines) through the use
   * case; what it said on stderr.
   */
  private static String ingest(Path db, boolean viaBroker) {
    List<SourceFile> sources = new ArrayList<>();
    for (String file :
        List.of(
            "vllm/v0.7-baseline/server.log",
            "vllm/v0.7-baseline/otlp.jsonl",
            "sglang/v0.5.6-preemption/server.log",
            "trtllm/v1.1-client-queue-bound/server.log",
            "trtllm/v1.1-client-queue-bound/iteration_stats.jsonl",
            "gpu/formats/nvidia-smi-bad-input/gpu.csv")) {
      sources.add(source(SAMPLES.resolve(file)));
    }
    DatabaseSettings database = DatabaseSettings.from(db, null, null);
    SinkSettings sink =
        new SinkSettings(
            db,
            database.memoryLimit(),
            database.threads(),
            SinkSettings.DEFAULT_POLL_TIMEOUT,
            SinkSettings.DEFAULT_STALL_TIMEOUT);
    StringWriter err = new StringWriter();
    int code =
        Ingestion.load(
            new Ingestion.BatchRequest(
                sources,
                IngestSettings.of(KafkaSettings.from(null, null, null, null)),
                sink,
                false,
                viaBroker),
            new ArrayList<>(),
            Ingestion.DEFAULT_MAX_REJECT_RATIO,
            new PrintWriter(err, true));
    assertThat(code).as(err.toString()).isIn(ExitStatus.OK, ExitStatus.REJECTS);
    return err.toString();
  }

  /** A sample file with the engine its first lines show, in UTC, for logs of 2025. */
  private static SourceFile source(Path file) {
    ParseSettings settings =
        new ParseSettings(ParseSettings.DEFAULT_INSTANCE, ZoneOffset.UTC, 2025);
    try (Stream<String> lines = Files.lines(file)) {
      Parsers.Detection detection = Parsers.detect(lines.limit(400).toList(), settings);
      return new SourceFile(file, detection.engine().orElseThrow(), settings);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
