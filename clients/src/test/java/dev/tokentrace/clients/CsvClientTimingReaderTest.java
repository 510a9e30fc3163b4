package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class CsvClientTimingReaderTest {
  private static final String HEADER =
      "request_id,start_ts,ttft_ms,e2e_ms,output_tokens,client_queue_ms,prompt_tokens,concurrency,status,warmup";
  private static final String GOOD = "r1,2026-03-01T12:00:00Z,10,20,5,,,,,";

  private final CsvClientTimingReader reader = new CsvClientTimingReader();
  @TempDir Path dir;

  @Test
  void readsEveryColumnOfAGoodRow() throws Exception {
    CollectingSink sink =
        read(HEADER, "chatcmpl-req-7,2026-03-01T12:00:00.250Z,120.5,980.25,64,3.5,512,8,ok,true");
    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows).hasSize(1);
    ClientTiming row = sink.rows.get(0);
    assertThat(row.requestId()).isEqualTo("chatcmpl-req-7");
    assertThat(row.requestKey()).isEqualTo("req-7");
    assertThat(row.startTs()).isEqualTo(Instant.parse("2026-03-01T12:00:00.250Z"));
    assertThat(row.startMonoS()).isNull();
    assertThat(row.ttftMs()).isEqualTo(120.5);
    assertThat(row.e2eMs()).isEqualTo(980.25);
    assertThat(row.outputTokens()).isEqualTo(64);
    assertThat(row.clientQueueMs()).isEqualTo(3.5);
    assertThat(row.promptTokens()).isEqualTo(512);
    assertThat(row.concurrency()).isEqualTo(8);
    assertThat(row.status()).isEqualTo("ok");
    assertThat(row.warmup()).isTrue();
    assertThat(row.source().line()).isEqualTo(2);
    assertThat(row.source().offset()).isEqualTo(HEADER.length() + 1);
  }

  @Test
  void readsTheCellOfAMatrixSweepAndNoCellInOlderFiles() throws Exception {
    // docs/formats/client-files.md#matrix-columns
    CollectingSink sink =
        read(
            HEADER + ",max_tokens,cell",
            "p64-o8-c2-0,2026-03-01T12:00:00Z,10,20,8,0,64,2,ok,false,8,prompt=64 output=8"
                + " concurrency=2",
            "warmup-0,2026-03-01T12:00:00Z,10,20,8,0,64,2,ok,true,8,warm-up",
            "p64-o8-c2-1,2026-03-01T12:00:00Z,10,20,8,0,64,2,ok,false,,");
    assertThat(sink.rejections).isEmpty();
    assertThat(sink.warnings).isEmpty();
    assertThat(sink.rows.get(0).matrix())
        .isEqualTo(new ClientTiming.MatrixCell("prompt=64 output=8 concurrency=2", 8));
    assertThat(sink.rows.get(1).matrix().cell()).isEqualTo("warm-up");
    assertThat(sink.rows.get(2).matrix()).isNull();
    assertThat(read(HEADER, GOOD).rows.get(0).matrix()).isNull();
    assertThat(
            read(HEADER + ",max_tokens,cell", "r1,2026-03-01T12:00:00Z,10,20,5,,,,,,0,c")
                .rejections)
        .extracting(ClientRejection::reason)
        .containsExactly("bad 'max_tokens' value \"0\"");
  }

  @Test
  void needsOnlyTheRequiredColumnsInAnyOrderAndCase() throws Exception {
    CollectingSink sink =
        read(" E2E_MS ,Request_Id,output_tokens,start_ts,TTFT_ms", "20,r1,5,1772366400123,10");
    assertThat(sink.rejections).isEmpty();
    ClientTiming row = sink.rows.get(0);
    assertThat(row.requestId()).isEqualTo("r1");
    assertThat(row.e2eMs()).isEqualTo(20.0);
    assertThat(row.startTs()).isEqualTo(Instant.parse("2026-03-01T12:00:00.123Z"));
    assertThat(row.clientQueueMs()).isNull();
    assertThat(row.concurrency()).isNull();
    assertThat(row.status()).isEqualTo("ok");
    assertThat(row.warmup()).isFalse();
  }

  @Test
  void ignoresUnknownColumnsWithOneWarningPerFile() throws Exception {
    Path file =
        write(
            "request_id,start_ts,ttft_ms,e2e_ms,output_tokens,model,Note",
            "r1,2026-03-01T12:00:00Z,10,20,5,m,a",
            "r2,2026-03-01T12:00:01Z,11,21,5,m,b",
            "r3,2026-03-01T12:00:02Z,12,22,5,m,c");
    CollectingSink sink = read(file);
    assertThat(sink.rows).extracting(ClientTiming::requestId).containsExactly("r1", "r2", "r3");
    assertThat(sink.warnings)
        .containsExactly(file + ":1: header: ignoring unknown column(s) model, note");
  }

  @Test
  void keepsFailedRequestsWithoutTimings() throws Exception {
    CollectingSink sink =
        read(
            HEADER,
            "r1,2026-03-01T12:00:00Z,,,,,,,timeout,",
            "r2,2026-03-01T12:00:00Z,10,20,5,,,,OK,",
            "r3,2026-03-01T12:00:00Z,10,20,5,,,,200,0",
            "r4,2026-03-01T12:00:00Z,,1500,0,,,,http 503,no");
    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows)
        .extracting(ClientTiming::status)
        .containsExactly("timeout", "ok", "ok", "http 503");
    assertThat(sink.rows.get(0).ttftMs()).isNull();
    assertThat(sink.rows.get(0).ok()).isFalse();
    assertThat(sink.rows.get(3).e2eMs()).isEqualTo(1500.0);
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        ",2026-03-01T12:00:00Z,10,20,5,,,,,                  | missing value for 'request_id'",
        "r1,,10,20,5,,,,,                                     | missing value for 'start_ts'",
        "r1,2026-03-01T12:00:00Z,,20,5,,,,,                   | missing value for 'ttft_ms'",
        "r1,2026-03-01T12:00:00Z,10,,5,,,,,                   | missing value for 'e2e_ms'",
        "r1,2026-03-01T12:00:00Z,10,20,,,,,,                  | missing value for 'output_tokens'",
        "r1,2026-03-01T12:00:00Z,abc,20,5,,,,,                | bad 'ttft_ms' value \"abc\"",
        "r1,2026-03-01T12:00:00Z,NaN,20,5,,,,,                | bad 'ttft_ms' value \"NaN\"",
        "r1,2026-03-01T12:00:00Z,10,Infinity,5,,,,,           | bad 'e2e_ms' value \"Infinity\"",
        "r1,2026-03-01T12:00:00Z,0x1p3,20,5,,,,,              | bad 'ttft_ms' value \"0x1p3\"",
        "r1,2026-03-01T12:00:00Z,10d,20,5,,,,,                | bad 'ttft_ms' value \"10d\"",
        "r1,2026-03-01T12:00:00Z,1e999,2e999,5,,,,,           | bad 'ttft_ms' value \"1e999\"",
        "r1,2026-03-01T12:00:00Z,-3,20,5,,,,,                 | negative 'ttft_ms' value \"-3\"",
        "r1,2026-03-01T12:00:00Z,10,-20,5,,,,,                | negative 'e2e_ms' value \"-20\"",
        "r1,2026-03-01T12:00:00Z,10,20,-1,,,,,                | negative 'output_tokens' value \"-1\"",
        "r1,2026-03-01T12:00:00Z,10,20,2.5,,,,,               | bad 'output_tokens' value \"2.5\"",
        "r1,2026-03-01T12:00:00Z,10,20,99999999999,,,,,       | bad 'output_tokens' value \"99999999999\"",
        "r1,2026-03-01T12:00:00Z,10,20,5,-1,,,,               | negative 'client_queue_ms' value \"-1\"",
        "r1,2026-03-01T12:00:00Z,10,20,5,,many,,,             | bad 'prompt_tokens' value \"many\"",
        "r1,2026-03-01T12:00:00Z,10,20,5,,,0,,                | bad 'concurrency' value \"0\"",
        "r1,2026-03-01T12:00:00Z,10,20,5,,,,,maybe            | bad 'warmup' value \"maybe\"",
        "r1,2026-03-01T12:00:00Z,30,20,5,,,,,                 | 'ttft_ms' > 'e2e_ms' (30 > 20)",
        "r1,2026-03-01T12:00:00Z,10,20,5,15,,,,               | 'client_queue_ms' > 'ttft_ms' (15 > 10)",
        "r1,2026-03-01T12:00:00,10,20,5,,,,,                  | bad 'start_ts' value \"2026-03-01T12:00:00\" (no zone: add Z or an offset)",
        "r1,353399.725,10,20,5,,,,,                           | bad 'start_ts' value \"353399.725\" (epoch not in 2000-2099 as s, ms, us or ns)",
        "r1,1969-12-31T23:59:59Z,10,20,5,,,,,                 | implausible 'start_ts' value 1969-12-31T23:59:59Z (not in 2000-2099)",
        "r1,9999-12-31T23:59:59Z,10,20,5,,,,,                 | implausible 'start_ts' value 9999-12-31T23:59:59Z (not in 2000-2099)",
        "r1,2026-03-01T12:00:00Z,10,700000000,5,,,,,          | implausible 'e2e_ms' value \"700000000\" (longer than 7 days)",
        "r1,2026-03-01T12:00:00Z,10,20                        | wrong column count: 4, expected 10",
        "r1,2026-03-01T12:00:00Z,10,20,5,,,,,,                | wrong column count: 11, expected 10",
        "`\"r1,2026-03-01T12:00:00Z,10,20,5,,,,,`             | malformed csv (unbalanced quote)",
        "`\"r1\"x,2026-03-01T12:00:00Z,10,20,5,,,,,`          | malformed csv (unbalanced quote)",
        HEADER + "                                            | duplicate header",
      })
  void rejectsABadRowAndKeepsGoing(String badRow, String reason) throws Exception {
    Path file = write(HEADER, badRow.strip(), GOOD);
    CollectingSink sink = read(file);
    assertThat(sink.messages()).containsExactly(file + ":2: client: " + reason);
    assertThat(sink.rejections.get(0).excerpt()).isEqualTo(badRow.strip());
    assertThat(sink.rows).singleElement().extracting(row -> row.source().line()).isEqualTo(3L);
  }

  @Test
  void rejectsARequestIdLongerThan256Characters() throws Exception {
    CollectingSink sink = read(HEADER, "x".repeat(257) + ",2026-03-01T12:00:00Z,10,20,5,,,,,");
    assertThat(sink.reasons()).containsExactly("'request_id' longer than 256 characters");
  }

  @Test
  void rejectsInvalidUtf8WithItsLineNumber() throws Exception {
    Path file = dir.resolve("latin1.csv");
    byte[] bad = "r\u00e9q,2026-03-01T12:00:00Z,10,20,5,,,,,".getBytes(StandardCharsets.ISO_8859_1);
    Files.write(file, concat((HEADER + "\n" + GOOD + "\n").getBytes(StandardCharsets.UTF_8), bad));
    CollectingSink sink = read(file);
    assertThat(sink.messages()).containsExactly(file + ":3: client: invalid utf-8");
    assertThat(sink.rows).hasSize(1);
  }

  @Test
  void rejectsAnOverlongLineWithoutLosingTheNextOne() throws Exception {
    Path file = write(HEADER, "r0," + "9".repeat(70_000), GOOD);
    CollectingSink sink = read(file);
    assertThat(sink.messages())
        .containsExactly(file + ":2: client: line too long (over 65536 bytes)");
    assertThat(sink.rejections.get(0).excerpt()).hasSize(512);
    assertThat(sink.rows).singleElement().extracting(row -> row.source().line()).isEqualTo(3L);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "'' | empty file",
        "'\n\n  \n' | empty file",
      })
  void rejectsAnEmptyFile(String content, String reason) throws Exception {
    Path file = dir.resolve("empty.csv");
    Files.writeString(file, content);
    CollectingSink sink = read(file);
    assertThat(sink.messages()).containsExactly(file + ":1: client: " + reason);
    assertThat(sink.rows).isEmpty();
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "request_id,start_ts,ttft_ms,output_tokens          | header: missing required column(s) e2e_ms (file skipped)",
        "r1,2026-03-01T12:00:00Z,10,20,5                     | header: missing required column(s) request_id, start_ts, ttft_ms, e2e_ms, output_tokens (file skipped)",
        "request_id,start_ts,ttft_ms,e2e_ms,output_tokens,TTFT_MS | header: duplicate column 'ttft_ms' (file skipped)",
        "request_id,start_ts,,ttft_ms,e2e_ms,output_tokens   | header: empty column name (file skipped)",
        "`request_id,\"start_ts`                             | header: malformed csv (unbalanced quote) (file skipped)",
      })
  void skipsTheFileWithOneRejectionWhenTheHeaderIsBad(String header, String reason)
      throws Exception {
    Path file = write(header.strip(), GOOD, GOOD);
    CollectingSink sink = read(file);
    assertThat(sink.messages()).containsExactly(file + ":1: client: " + reason);
    assertThat(sink.rows).isEmpty();
  }

  @Test
  void handlesCrLfByteOrderMarkAndBlankLines() throws Exception {
    Path file = dir.resolve("windows.csv");
    String content =
        "\uFEFF" + HEADER + "\r\n" + GOOD + "\r\n\r\n" + GOOD.replace("r1", "r2") + "\r\n";
    Files.writeString(file, content);
    CollectingSink sink = read(file);
    assertThat(sink.rejections).isEmpty();
    assertThat(sink.rows).extracting(ClientTiming::requestId).containsExactly("r1", "r2");
    assertThat(sink.rows.get(1).source().line()).isEqualTo(4);
    assertThat(sink.rows.get(1).source().offset())
        .isEqualTo(3 + HEADER.length() + 2 + GOOD.length() + 2 + 2);
    assertThat(sink.rows.get(1).ttftMs()).isEqualTo(10.0);
  }

  @Test
  void acceptsAQuotedIdWithAComma() throws Exception {
    CollectingSink sink = read(HEADER, "\"a,b\",2026-03-01T12:00:00Z,10,20,5,,,,,");
    assertThat(sink.rows).singleElement().extracting(ClientTiming::requestId).isEqualTo("a,b");
  }

  @Test
  void failsWithThePathWhenTheFileCannotBeRead() {
    Path missing = dir.resolve("missing.csv");
    assertThatThrownBy(() -> reader.read(missing, new CollectingSink()))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage("cannot read " + missing);
  }

  @Test
  void recognizesItsHeader() {
    assertThat(reader.recognize(head(HEADER + "\n" + GOOD)).matches()).isTrue();
    assertThat(reader.recognize(head("{\"metadata\":{\"x_request_id\":\"a\"}}")).matches())
        .isFalse();
    assertThat(ClientTimingReaders.forFormat(" CSV ").format()).isEqualTo("csv");
    assertThatThrownBy(() -> ClientTimingReaders.forFormat("k6"))
        .hasMessage(
            "unknown client format 'k6' (known: auto, csv, aiperf, genai-perf, guidellm,"
                + " sglang-bench, vllm-bench, llmperf, jmeter, wrk, nginx, envoy)");
  }

  private static FileHead head(String text) {
    return FileHead.of(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private CollectingSink read(String... lines) throws Exception {
    return read(write(lines));
  }

  private CollectingSink read(Path file) {
    CollectingSink sink = new CollectingSink();
    reader.read(file, sink);
    return sink;
  }

  private Path write(String... lines) throws Exception {
    Path file = dir.resolve("client.csv");
    Files.writeString(file, String.join("\n", lines) + "\n");
    return file;
  }

  private static byte[] concat(byte[] first, byte[] second) {
    byte[] all = new byte[first.length + second.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(second, 0, all, first.length, second.length);
    return all;
  }
}
