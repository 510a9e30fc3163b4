package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.SourcePosition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The line-at-a-time readers give what the batch readers give for the same file, a CSV reader
 * resumed with its state reads the rows after its header, and every line is reported
 * (docs/follow.md#client-files); a row survives its Kafka form column for column
 * (docs/storage.md#client-rows-in-kafka).
 */
final class ClientLineReaderTest {
  private static final String CSV =
      "request_id,start_ts,ttft_ms,e2e_ms,output_tokens,concurrency\n"
          + "r-1,2026-03-02T09:00:00.250Z,80.5,900.25,40,8\n"
          + "\n"
          + "r-2,2026-03-02T09:00:01Z,81,901,41,8\n"
          + "r-3,bad,1,2,3,8\n";

  @TempDir Path dir;

  @Test
  void aFollowedCsvGivesTheRowsOfTheFileReadWhole() throws Exception {
    Path file = ClientFiles.write(dir, "c.csv", CSV);
    CollectingSink whole = ClientFiles.read(new CsvClientTimingReader(), file);
    Reported followed = new Reported();
    ClientLineReader reader = new CsvClientTimingReader().lineReader(ClientFiles.head(CSV), null);
    feed(reader, file.toString(), CSV, 1, 0, followed);
    assertThat(followed.sink.rows).isEqualTo(whole.rows).hasSize(2);
    assertThat(followed.sink.messages()).isEqualTo(whole.messages()).hasSize(1);
    assertThat(followed.lines).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(reader.state()).isEqualTo(CSV.substring(0, CSV.indexOf('\n')));
  }

  @Test
  void aResumedCsvReaderReadsTheRowsAfterItsHeaderByItsState() throws Exception {
    Path file = ClientFiles.write(dir, "c.csv", CSV);
    CollectingSink whole = ClientFiles.read(new CsvClientTimingReader(), file);
    String header = CSV.substring(0, CSV.indexOf('\n'));
    ClientLineReader resumed =
        new CsvClientTimingReader().lineReader(ClientFiles.head(CSV), header);
    Reported followed = new Reported();
    String rest = CSV.substring(CSV.indexOf('\n') + 1);
    feed(resumed, file.toString(), rest, 2, header.length() + 1, followed);
    assertThat(followed.sink.rows).isEqualTo(whole.rows);
  }

  @Test
  void aRowSurvivesItsKafkaFormColumnForColumn() throws Exception {
    Path file = ClientFiles.write(dir, "c.csv", CSV);
    for (ClientTiming timing : ClientFiles.read(new CsvClientTimingReader(), file).rows) {
      ClientTiming.Stored stored = new ClientTiming.Stored("run-1", "csv", timing);
      Object[] values = ClientRowJson.read(ClientRowJson.write(stored));
      List<Object> expected = new ArrayList<>();
      ClientTiming.TABLE.columns().forEach(column -> expected.add(column.get(stored)));
      assertThat(values).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void somethingElseThanAClientRowIsRefused() {
    for (String value : List.of("[]", "{", "{\"run_id\":\"r\"}", "{\"run_id\":1}")) {
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> ClientRowJson.read(value.getBytes(StandardCharsets.UTF_8)))
          .as(value)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  /** Gives {@code text}'s lines (numbered from {@code firstLine}) to the reader. */
  private static void feed(
      ClientLineReader reader,
      String path,
      String text,
      long firstLine,
      long firstOffset,
      Reported sink) {
    long offset = firstOffset;
    long number = firstLine;
    for (String line : text.split("\n", -1)) {
      if (line.isEmpty() && offset - firstOffset >= text.length()) {
        break; // after the last newline
      }
      sink.current = number;
      reader.line(new SourcePosition(path, number, offset), line, sink);
      offset += line.length() + 1;
      number++;
    }
  }

  /** Collects the output and the lines something was reported for. */
  private static final class Reported implements ClientReaderOutput {
    final CollectingSink sink = new CollectingSink();
    final List<Long> lines = new ArrayList<>();
    long current;

    @Override
    public void row(ClientTiming timing) {
      sink.row(timing);
      lines.add(current);
    }

    @Override
    public void rejected(ClientRejection rejection) {
      sink.rejected(rejection);
      lines.add(current);
    }

    @Override
    public void warning(SourcePosition position, String message) {
      sink.warning(position, message);
    }

    @Override
    public void ignored(SourcePosition position, String rule) {
      lines.add(current);
    }
  }
}
