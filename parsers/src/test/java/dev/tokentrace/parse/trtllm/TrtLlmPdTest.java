package dev.tokentrace.parse.trtllm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseSettings;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Disaggregated serving (docs/formats/pd.md#tensorrt-llm): a {@code /perf_metrics} item with {@code
 * ctx_request_id} and the cache transceiver's transfer CSVs
 * (docs/formats/trtllm.md#kv-transfer-csv).
 */
final class TrtLlmPdTest {
  private static final ParseSettings SETTINGS = ParseSettings.of("gen-0", 2025);

  @Test
  void generationItemIsKeyedByTheContextRequestAndCarriesItsTransfer() {
    Recorder sink =
        run(
            "perf_metrics.jsonl",
            "[{\"request_id\":7,\"ctx_request_id\":1099511627781,\"perf_metrics\":{\"timing_metrics\":"
                + "{\"server_arrival_time\":75010.5,\"arrival_time\":75010.5,"
                + "\"first_scheduled_time\":75010.54,\"first_token_time\":75010.555,"
                + "\"server_first_token_time\":75010.555,\"last_token_time\":75011.2,"
                + "\"kv_cache_size\":2097152,\"kv_cache_transfer_start\":75010.5,"
                + "\"kv_cache_transfer_end\":75010.532}}}]");
    assertThat(sink.rejections).isEmpty();
    RequestTiming timing = (RequestTiming) sink.events.get(0);
    assertThat(timing.requestId()).isEqualTo("7");
    assertThat(timing.requestKey()).isEqualTo("1099511627781");
    assertThat(timing.queueMs()).isEqualTo(40.0);
    KvTransfer transfer = (KvTransfer) sink.events.get(1);
    assertThat(transfer.requestKey()).isEqualTo("1099511627781");
    assertThat(transfer.side()).isEqualTo("decode");
    assertThat(transfer.transfers()).isEqualTo(1);
    assertThat(transfer.durationMs()).isEqualTo(32.0);
    assertThat(transfer.mbPerTransfer()).isEqualTo(2.0);
    assertThat(transfer.throughputMbS()).isEqualTo(62.5);
    assertThat(transfer.sourceKind()).isEqualTo("perf_metrics");
  }

  @Test
  void contextItemWithoutTransferTimesIsOnlyItsHalf() {
    Recorder sink =
        run(
            "perf_metrics.jsonl",
            "[{\"request_id\":3,\"ctx_request_id\":1099511627781,\"perf_metrics\":{\"timing_metrics\":"
                + "{\"arrival_time\":75010.2,\"first_scheduled_time\":75010.21,"
                + "\"first_token_time\":75010.3,\"last_token_time\":75010.3}}}]");
    assertThat(sink.events).hasSize(1);
    assertThat(((RequestTiming) sink.events.get(0)).requestKey()).isEqualTo("1099511627781");
  }

  @Test
  void singleServerItemKeepsItsOwnId() {
    Recorder sink =
        run(
            "perf_metrics.jsonl",
            "[{\"request_id\":3,\"perf_metrics\":{\"timing_metrics\":{\"arrival_time\":1.0,"
                + "\"first_scheduled_time\":1.1,\"first_token_time\":1.2,\"last_token_time\":1.5}}}]");
    assertThat(sink.events).hasSize(1);
    assertThat(((RequestTiming) sink.events.get(0)).requestKey()).isEqualTo("3");
  }

  static Stream<Arguments> transferCsvs() {
    return Stream.of(
        // 2025: rank_<r>_recv.csv, one transmission; delay + duration
        Arguments.of(
            "cache_time/rank_1_recv.csv",
            List.of("RequestID,Delay(ms),Duration(ms),Bandwidth(Gbps)", "42,0.5,3.25,80"),
            "decode",
            3.75,
            9536.7431640625),
        Arguments.of(
            "cache_time/rank_0_send.csv",
            List.of("RequestID,Delay(ms),Duration(ms),Bandwidth(Gbps)", "42,1.5,3.25,80"),
            "prefill",
            4.75,
            9536.7431640625),
        // no header seen (a resumed tail): the 2025 layout
        Arguments.of("rank_1_recv.csv", List.of("42,0.5,3.25,80"), "decode", 3.75, 9536.7431640625),
        // 2026: the columns once per transmission, in any order; the latest end, the mean rate
        Arguments.of(
            "3c9f0e2a_2_recv.csv",
            List.of(
                "RequestID,Bandwidth(Gbps),Delay(ms),Duration(ms),Bandwidth(Gbps),Delay(ms),Duration(ms)",
                "42,80,0.5,2.0,240,1.0,2.5"),
            "decode",
            3.5,
            19073.486328125),
        // 2026 generation-side summary
        Arguments.of(
            "3c9f0e2a_0_gen_transfer_summary.csv",
            List.of("RequestID,gen_side_transfer_time(ms),kv_cache_size", "42,4.5,1048576"),
            "decode",
            4.5,
            null));
  }

  @ParameterizedTest
  @MethodSource("transferCsvs")
  void transferCsvRowIsTheRequestsTransfer(
      String path, List<String> lines, String side, double durationMs, Double mbPerS) {
    Recorder sink = run(path, lines.toArray(String[]::new));
    assertThat(sink.rejections).isEmpty();
    KvTransfer transfer = (KvTransfer) sink.events.get(0);
    assertThat(transfer.requestKey()).isEqualTo("42");
    assertThat(transfer.side()).isEqualTo(side);
    assertThat(transfer.durationMs()).isEqualTo(durationMs);
    assertThat(transfer.throughputMbS()).isEqualTo(mbPerS);
    assertThat(transfer.sourceKind()).isEqualTo(TransferCsv.SOURCE_KIND);
  }

  static Stream<Arguments> badRows() {
    String header = "RequestID,Delay(ms),Duration(ms),Bandwidth(Gbps)";
    return Stream.of(
        Arguments.of(
            "rank_0_recv.csv", header, "42,0.5,3.25", "transfer csv: 3 fields, header has 4"),
        Arguments.of(
            "rank_0_recv.csv",
            header,
            "42,0.5,n/a,80",
            "transfer csv: bad 'Duration(ms)' value \"n/a\""),
        Arguments.of(
            "rank_0_recv.csv",
            "RequestID,Delay(ms),Duration(ms),Bandwidth(Gbps)",
            "42,-1,3,80",
            "transfer csv: bad 'Delay(ms)' value \"-1\""),
        Arguments.of(
            "times.csv",
            header,
            "42,0.5,3.25,80",
            "transfer csv: file name says neither send nor recv"),
        Arguments.of(
            "rank_0_recv.csv",
            "RequestID,Bandwidth(Gbps),Duration(ms)",
            "4,80,",
            "transfer csv: bad 'Duration(ms)' value \"\""));
  }

  @ParameterizedTest
  @MethodSource("badRows")
  void rejectsBadTransferRows(String path, String header, String row, String reason) {
    Recorder sink = run(path, header, row);
    assertThat(sink.outcomes)
        .containsExactly("ignored 1: " + TransferCsv.HEADER_RULE, "rejected 2: " + reason);
  }

  @Test
  void headerWithoutAnExactDurationColumnRejectsItsRows() {
    Recorder sink = run("rank_0_recv.csv", "RequestID,Delay(ms),MaxDuration(ms)", "1,2,3");
    assertThat(sink.outcomes)
        .containsExactly(
            "ignored 1: " + TransferCsv.HEADER_RULE,
            "rejected 2: transfer csv: no duration column");
  }

  private static Recorder run(String path, String... lines) {
    TrtLlmLineParser parser = new TrtLlmLineParser(SETTINGS);
    Recorder sink = new Recorder();
    long offset = 0;
    for (int i = 0; i < lines.length; i++) {
      parser.parse(lines[i], new SourcePosition(path, i + 1, offset), sink);
      offset += lines[i].length() + 1;
    }
    parser.finish(sink);
    return sink;
  }
}
