package dev.tokentrace.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.HandComputedDataset;
import dev.tokentrace.report.analysis.ReportAnalysis;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.Text;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.query.NamedQueryRunner;
import dev.tokentrace.store.query.QueryOutputFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The environment the method demands, end to end from server_config rows (as the sink writes them)
 * to the report: each instance's settings and unknowns, a restart with other flags, and a baseline
 * of another run that differs in max_num_seqs, dtype and engine version, whose differences come
 * before any latency and are named in the conclusion.
 */
final class ServerConfigReportTest {
  @TempDir Path dir;

  @Test
  void aBaselineWithOtherSettingsListsTheDifferencesBeforeAnyLatencyAndInTheConclusion()
      throws Exception {
    Path baseline = database("baseline", "0.9.1", "torch.bfloat16", "256");
    Path current = database("current", "0.11.0", "fp8", "128");

    String markdown;
    ReportData data;
    try (Database database = Database.open(DatabaseSettings.file(current))) {
      ReportService service = new ReportService(database, HandComputedDataset.CLOCK);
      ReportSettings settings =
          new ReportSettings(ReportFormat.MARKDOWN, AttributionSettings.defaults(), baseline);
      data = service.build(settings, "tokentrace report");
      StringBuilder out = new StringBuilder();
      service.write(settings, "tokentrace report", out);
      markdown = out.toString();
    }

    String comparison = markdown.substring(markdown.indexOf("## Baseline comparison"));
    assertThat(comparison)
        .contains("### Configuration")
        .contains("| gpu-0    | max_num_seqs")
        .contains("max_num_seqs 256 → 128")
        .contains("dtype bfloat16 → fp8")
        .contains("engine 0.9.1 → 0.11.0");
    assertThat(comparison.indexOf("### Configuration"))
        .isLessThan(comparison.indexOf("### Latency and throughput"))
        .isLessThan(comparison.indexOf("| TTFT"));
    assertThat(
            String.join(
                " ", ReportAnalysis.of(data).bottleneck().stream().map(Text::plain).toList()))
        .contains("did not have the same server configuration")
        .contains("max_num_seqs 256 → 128")
        .contains("dtype bfloat16 → fp8")
        .contains("engine 0.9.1 → 0.11.0");
    String bottleneck =
        markdown.substring(markdown.indexOf("## Bottleneck"), markdown.indexOf("## Data quality"));
    assertThat(bottleneck.replace("\n", " ")).contains("max_num_seqs 256 → 128");
  }

  @Test
  void theEnvironmentStatesEachSettingAndWhatIsUnknownWithHowToRecordIt() throws Exception {
    Path file = database("one", "0.11.0", "torch.bfloat16", "128");
    try (Database database = Database.open(DatabaseSettings.file(file))) {
      ReportService service = new ReportService(database, HandComputedDataset.CLOCK);
      ReportSettings md = new ReportSettings(ReportFormat.MARKDOWN, AttributionSettings.defaults());
      StringBuilder out = new StringBuilder();
      service.write(md, "tokentrace report", out);
      String environment =
          out.substring(out.indexOf("## Environment"), out.indexOf("## Core metrics"))
              .replace("\n  ", " ");

      assertThat(environment)
          .contains("engine version `0.11.0`")
          .contains("model `/models/m`")
          .contains("precision `bfloat16`")
          .contains("tensor parallel `2`")
          .contains("max concurrent sequences `128`")
          .contains("chunked prefill `on`")
          .contains("KV-cache size `94256 tokens, room for 2.88× requests of 32768 tokens`")
          .contains("GPUs `2 (tensor × pipeline × data parallel), platform cuda`")
          .contains("Restarted with other settings: `max_num_seqs`")
          .contains("GPU model and driver (no engine log names it: save `nvidia-smi")
          .contains("speculative decoding")
          .doesNotContain("sk-");

      ReportSettings json = new ReportSettings(ReportFormat.JSON, AttributionSettings.defaults());
      StringBuilder document = new StringBuilder();
      service.write(json, "tokentrace report", document);
      JsonNode configuration =
          new ObjectMapper().readTree(document.toString()).at("/environment/configuration/0");
      assertThat(configuration.at("/instance").asText()).isEqualTo("gpu-0");
      assertThat(configuration.at("/settings").findValuesAsText("setting"))
          .contains("engine version", "model", "precision", "max concurrent sequences");
      assertThat(configuration.at("/unknown").findValuesAsText("setting"))
          .contains("GPU model and driver");
      assertThat(configuration.at("/changed/0").asText()).isEqualTo("max_num_seqs");

      StringBuilder changes = new StringBuilder();
      new NamedQueryRunner(database)
          .run("server_config", Map.of("changes_only", "true"), QueryOutputFormat.CSV, changes);
      assertThat(changes.toString().lines().toList())
          .containsExactly(
              "engine,instance,section,key,value,previous_value,changed,since_ts,source_path,"
                  + "source_line,times",
              "vllm,gpu-0,args,max_num_seqs,128,256,true,2026-03-01T11:59:30Z,logs/server.log,40,1");
    }
  }

  /** A database with the hand-computed requests and the startup lines of two server starts. */
  private Path database(String name, String version, String dtype, String maxNumSeqs)
      throws Exception {
    Path file = dir.resolve(name + ".duckdb");
    Path inputs = Files.createDirectories(dir.resolve(name));
    try (Database database = Database.open(DatabaseSettings.file(file))) {
      HandComputedDataset.load(database, inputs);
      database
          .jdbi()
          .useHandle(
              handle -> {
                // the first start, before the run, with other flags
                config(handle, "11:59:00", 1, "version", "version", version);
                config(handle, "11:59:00", 2, "args", "max_num_seqs", "256");
                config(handle, "11:59:00", 2, "args", "api_key", "[redacted]");
                // the start the run was served by
                config(handle, "11:59:30", 39, "version", "version", version);
                config(handle, "11:59:30", 40, "args", "model", "/models/m");
                config(handle, "11:59:30", 40, "args", "max_num_seqs", maxNumSeqs);
                for (String[] entry :
                    List.of(
                        new String[] {"version", version},
                        new String[] {"engine_core", "V1"},
                        new String[] {"model", "/models/m"},
                        new String[] {"dtype", dtype},
                        new String[] {"max_seq_len", "32768"},
                        new String[] {"tensor_parallel_size", "2"},
                        new String[] {"quantization", "None"},
                        new String[] {"speculative_config", "None"})) {
                  config(handle, "11:59:35", 41, "engine_config", entry[0], entry[1]);
                }
                config(handle, "11:59:36", 42, "scheduler", "chunked_prefill_enabled", "True");
                config(handle, "11:59:36", 42, "scheduler", "max_num_batched_tokens", "8192");
                config(handle, "11:59:50", 43, "kv_cache", "gpu_kv_cache_tokens", "94256");
                config(handle, "11:59:50", 44, "kv_cache", "max_concurrency", "2.88");
                config(
                    handle,
                    "11:59:50",
                    44,
                    "kv_cache",
                    "max_concurrency_tokens_per_request",
                    "32768");
                config(handle, "11:59:30", 38, "platform", "platform", "cuda");
              });
      new ReportService(database, HandComputedDataset.CLOCK)
          .build(AttributionSettings.defaults(), "tokentrace correlate");
    }
    return file;
  }

  private static void config(
      Handle handle, String time, int line, String section, String key, String value) {
    handle
        .createUpdate(
            "INSERT INTO server_config VALUES ('vllm', 'gpu-0', CAST(:ts AS TIMESTAMP),"
                + " 'logs/server.log', :line, 0, :section, :key, :value)")
        .bind("ts", "2026-03-01 " + time)
        .bind("line", line)
        .bind("section", section)
        .bind("key", key)
        .bind("value", value)
        .execute();
  }
}
