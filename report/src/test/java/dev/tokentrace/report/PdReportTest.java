package dev.tokentrace.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.attribution.HandComputedDataset;
import dev.tokentrace.report.load.ReportDataLoader;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report shows prefill/decode disaggregation (docs/formats/pd.md#attribution) only when the
 * attribution has P/D requests: the hand-computed dataset's included requests are made P/D rows
 * (decode server decode-0, kv_transfer 10 ms estimated, decode queueing 4 ms) with the decode
 * server's interval line counting 2 failed and 1 expired transfer.
 */
final class PdReportTest {
  private static final Instant AT = Instant.parse("2026-03-01T13:00:00Z");

  @TempDir Path dir;

  private Database database;

  @BeforeEach
  void load() throws Exception {
    database = Database.open(DatabaseSettings.inMemory());
    HandComputedDataset.load(database, dir);
    new Attributor(database, HandComputedDataset.CLOCK).run(AttributionSettings.defaults(), "t");
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void aSingleServerReportHasNoPdSection() throws Exception {
    ReportData data = ReportDataLoader.load(database, AT, AttributionSettings.defaults());

    assertThat(data.pd().present()).isFalse();
    assertThat(render(data, ReportFormat.MARKDOWN))
        .doesNotContain("Prefill/decode")
        .doesNotContain("kv transfer");
    assertThat(render(data, ReportFormat.HTML)).doesNotContain("Prefill/decode");
    assertThat(render(data, ReportFormat.JSON)).doesNotContain("prefill_decode");
  }

  @Test
  void aPdReportShowsTheTransferTheDecodeQueueingAndThePairs() throws Exception {
    makePd();
    ReportData data = ReportDataLoader.load(database, AT, AttributionSettings.defaults());
    long included = data.quality().includedRows();

    assertThat(data.pd().parts()).hasSize(2);
    assertThat(data.pd().parts().get(0).p50Ms()).isEqualTo(10.0);
    assertThat(data.pd().parts().get(1).p95Ms()).isEqualTo(4.0);
    assertThat(data.pd().estimated()).isEqualTo(included);

    String md = render(data, ReportFormat.MARKDOWN);
    assertThat(md)
        .satisfies(
            text ->
                assertThat(text.replace("\n", " "))
                    .contains("+ prefill + kv transfer + queueing (decode) + decode; share"))
        .containsPattern("\\| kv transfer +\\| +10\\.0 \\|")
        .containsPattern("\\| queueing \\(decode\\) +\\| +4\\.0 \\|")
        .contains("### Prefill/decode pairs")
        .contains(included + " of " + included + " transfers are estimated")
        .containsPattern("\\| decode-0 +\\| +" + included + " \\|");

    String html = render(data, ReportFormat.HTML);
    assertThat(html)
        .contains("<h3 id=\"pd\">Prefill/decode pairs</h3>")
        .contains("transfers are estimated")
        .contains("decode-0")
        .doesNotContain("<script src")
        .doesNotContain("https://");

    JsonNode pd =
        new ObjectMapper()
            .readTree(render(data, ReportFormat.JSON))
            .at("/attribution/prefill_decode");
    assertThat(pd.at("/components/0/component").asText()).isEqualTo("kv_transfer");
    assertThat(pd.at("/components/0/p50_ms").asDouble()).isEqualTo(10.0);
    assertThat(pd.at("/components/1/component").asText()).isEqualTo("decode_queue");
    assertThat(pd.at("/pairs/0/decode_instance").asText()).isEqualTo("decode-0");
    assertThat(pd.at("/pairs/0/failed_transfers").asLong()).isEqualTo(2);
    assertThat(pd.at("/pairs/0/expired_transfers").asLong()).isEqualTo(1);
    assertThat(pd.at("/estimate_note").asText()).contains("transfers are estimated");
  }

  @Test
  void measuredTransfersHaveNoEstimateSentence() throws Exception {
    makePd();
    database
        .jdbi()
        .useHandle(
            h ->
                h.execute(
                    "UPDATE request_attribution SET kv_transfer_source = 'request'"
                        + " WHERE decode_instance IS NOT NULL"));
    ReportData data = ReportDataLoader.load(database, AT, AttributionSettings.defaults());

    assertThat(data.pd().estimateNote()).isNull();
    assertThat(render(data, ReportFormat.MARKDOWN))
        .contains("### Prefill/decode pairs")
        .doesNotContain("transfers are estimated");
  }

  private void makePd() {
    database
        .jdbi()
        .useHandle(
            h -> {
              h.execute(
                  "UPDATE request_attribution SET decode_instance = 'decode-0',"
                      + " kv_transfer_ms = 10.0, decode_queue_ms = 4.0,"
                      + " kv_transfer_source = 'interval_estimate' WHERE included");
              h.execute(
                  "INSERT INTO kv_transfer (engine, instance, ts, source_path, source_line,"
                      + " source_offset, side, transfers, duration_ms, failed, expired,"
                      + " source_kind) VALUES ('vllm', 'decode-0', TIMESTAMP '2026-03-01"
                      + " 12:00:10', 'decode-0/server.log', 1, 0, 'decode', 5, 10.0, 2, 1,"
                      + " 'nixl_interval')");
            });
  }

  private static String render(ReportData data, ReportFormat format) throws Exception {
    StringBuilder out = new StringBuilder();
    ReportService.render(data, format, out);
    return out.toString();
  }
}
