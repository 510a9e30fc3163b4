package dev.tokentrace.ingest;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.tokentrace.event.Engine;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.sink.SinkSettings;
import dev.tokentrace.ingest.sink.SinkSummary;
import dev.tokentrace.parse.ParseSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The service the CLI calls, end to end on its own embedded broker, with a stand-in parser. */
final class IngestIT {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-03-01T12:00:00Z"), ZoneOffset.UTC);

  @TempDir Path dir;

  @Test
  void runShipsAndSinksEveryFileOnceAndShipAndSinkResumeSeparately() throws Exception {
    Path server =
        write(
            "server.log",
            concat(
                bytes("A r1\n# banner\nN slow step\ngarbage\n"),
                new byte[] {'A', ' ', (byte) 0xff, '\n'},
                bytes("A r2")));
    Path rotated = write("server.log.1.gz", gzip(bytes("A r3\r\nA r4\n")));
    Path missing = dir.resolve("missing.log");
    Path db = dir.resolve("out/analysis.duckdb");
    List<SourceFile> files =
        List.of(
            new SourceFile(server, Engine.VLLM, ParseSettings.of("vllm-0", 2026)),
            new SourceFile(missing, Engine.VLLM, ParseSettings.of("vllm-0", 2026)),
            new SourceFile(rotated, Engine.SGLANG, ParseSettings.of("sg-0", 2026)));

    Path brokerDir;
    try (Ingest ingest = open()) {
      brokerDir = ingest.broker().directory();
      IngestSummary summary = ingest.run(files, SinkSettings.defaults(db));

      assertThat(summary.ship().failedFiles())
          .containsExactly(missing + ": cannot read: no such file");
      assertThat(summary.ship().files()).isEqualTo(3);
      assertThat(summary.lines()).isEqualTo(8);
      assertThat(summary.ship().describe()).isEqualTo("files=3");
      assertThat(summary.eventsWritten()).isEqualTo(5);
      assertThat(summary.rejectsWritten()).isEqualTo(2);
      assertThat(summary.sink().eventRows())
          .containsEntry("request_arrived", 4L)
          .containsEntry("server_notice", 1L);

      Path later = write("later.log", bytes("A r5\nA r6\n"));
      ShipSummary shipped =
          ingest.ship(
              List.of(new SourceFile(later, Engine.VLLM, ParseSettings.of("vllm-1", 2026))));
      SinkSummary sunk = ingest.sink(SinkSettings.defaults(db));

      assertThat(shipped.records()).isEqualTo(2);
      assertThat(sunk.eventsWritten()).isEqualTo(2);
      assertThat(sunk.rejectRows()).isZero();
    }
    assertThat(Files.exists(brokerDir)).isFalse();

    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + db)) {
      assertThat(
              rows(
                  connection,
                  "SELECT engine, instance, source_path, source_line, source_offset, request_id"
                      + " FROM request_arrived ORDER BY request_id"))
          .containsExactly(
              tuple("vllm", "vllm-0", server.toString(), 1L, 0L, "r1"),
              tuple("vllm", "vllm-0", server.toString(), 6L, 38L, "r2"),
              tuple("sglang", "sg-0", rotated.toString(), 1L, 0L, "r3"),
              tuple("sglang", "sg-0", rotated.toString(), 2L, 6L, "r4"),
              tuple("vllm", "vllm-1", dir.resolve("later.log").toString(), 1L, 0L, "r5"),
              tuple("vllm", "vllm-1", dir.resolve("later.log").toString(), 2L, 5L, "r6"));
      assertThat(
              rows(
                  connection,
                  "SELECT source_path, line_no, byte_offset, engine, reason, excerpt,"
                      + " CAST(ingested_ts AS VARCHAR) FROM rejects ORDER BY line_no"))
          .containsExactly(
              tuple(
                  server.toString(),
                  4L,
                  26L,
                  "vllm",
                  TinyParser.REASON,
                  "garbage",
                  "2026-03-01 12:00:00"),
              tuple(
                  server.toString(),
                  5L,
                  34L,
                  "vllm",
                  "invalid utf-8 at byte 3",
                  "A \uFFFD",
                  "2026-03-01 12:00:00"));
    }
  }

  private static Ingest open() {
    return Ingest.open(
        IngestSettings.of(KafkaSettings.defaults()),
        CLOCK,
        (engine, parse) -> new TinyParser(engine, parse.instance()));
  }

  private static List<Tuple> rows(Connection connection, String sql) throws SQLException {
    List<Tuple> rows = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        Object[] values = new Object[columns];
        for (int i = 0; i < columns; i++) {
          values[i] = result.getObject(i + 1);
        }
        rows.add(new Tuple(values));
      }
    }
    return rows;
  }

  private Path write(String name, byte[] content) throws IOException {
    return Files.write(dir.resolve(name), content);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      output.writeBytes(part);
    }
    return output.toByteArray();
  }

  private static byte[] gzip(byte[] content) throws IOException {
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    try (OutputStream gzip = new GZIPOutputStream(output)) {
      gzip.write(content);
    }
    return output.toByteArray();
  }
}
