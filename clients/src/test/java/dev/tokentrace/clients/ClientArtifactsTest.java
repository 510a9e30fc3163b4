package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tool output folders given to {@code clients}: the per-request file is found and the run's load is
 * read from the aggregate file, as docs/formats/client-files.md#output-folders describes. The
 * folders are written by hand to the tools' documented layouts.
 */
final class ClientArtifactsTest {
  @TempDir Path dir;

  @Test
  void anAiperfArtifactsFolderGivesItsRecordsAndTheConcurrencyOfItsAggregate() throws IOException {
    Path run = Files.createDirectories(dir.resolve("artifacts/my-run"));
    Files.writeString(run.resolve("profile_export.jsonl"), "{}\n");
    Files.writeString(
        run.resolve("profile_export_aiperf.json"),
        "{\"request_throughput\": {\"unit\": \"requests/sec\", \"avg\": 13.1},\n"
            + " \"input_config\": {\"endpoint\": {\"streaming\": true},\n"
            + "   \"loadgen\": {\"concurrency\": 8, \"request_rate_mode\": \"concurrency_burst\"}}}\n");

    ClientArtifacts found = ClientArtifacts.find(dir.resolve("artifacts"));

    assertThat(found.tool()).isEqualTo("AIPerf");
    assertThat(found.requests()).isEqualTo(run.resolve("profile_export.jsonl"));
    assertThat(found.concurrency()).isEqualTo(8);
    assertThat(found.requestRate()).isNull();
    assertThat(found.describe())
        .isEqualTo(
            "AIPerf output: "
                + run.resolve("profile_export.jsonl")
                + "; from profile_export_aiperf.json: concurrency 8");
  }

  @Test
  void aGenaiPerfFolderGivesItsRequestRate() throws IOException {
    Files.writeString(dir.resolve("profile_export.json"), "{\"experiments\": []}\n");
    Files.writeString(
        dir.resolve("profile_export_genai_perf.json"),
        "{\"time_to_first_token\": {\"unit\": \"ms\", \"avg\": 12.0},"
            + " \"input_config\": {\"concurrency\": null, \"request_rate\": 10.0}}");

    ClientArtifacts found = ClientArtifacts.find(dir);

    assertThat(found.tool()).isEqualTo("GenAI-Perf");
    assertThat(found.concurrency()).isNull();
    assertThat(found.requestRate()).isEqualTo(10.0);
    assertThat(found.describe()).endsWith("from profile_export_genai_perf.json: request rate 10/s");
  }

  @Test
  void aGenaiPerfFolderExportedUnderItsOwnNameIsFoundByItsAggregate() throws IOException {
    // genai-perf profile --profile-export-file my_profile_export.json
    Files.writeString(dir.resolve("my_profile_export.json"), "{\"experiments\": []}\n");
    Files.writeString(
        dir.resolve("my_profile_export_genai_perf.json"),
        "{\"input_config\": {\"concurrency\": 16, \"request_rate\": null}}");
    Files.writeString(dir.resolve("my_profile_export_genai_perf.csv"), "Metric,avg\n");

    ClientArtifacts found = ClientArtifacts.find(dir);

    assertThat(found.tool()).isEqualTo("GenAI-Perf");
    assertThat(found.requests()).isEqualTo(dir.resolve("my_profile_export.json"));
    assertThat(found.concurrency()).isEqualTo(16);
    assertThat(found.requestRate()).isNull();
  }

  @Test
  void aGuidellmFolderHasNoAggregateOfItsOwn() throws IOException {
    Files.writeString(dir.resolve("benchmarks.json"), "{\"benchmarks\": []}");

    ClientArtifacts found = ClientArtifacts.find(dir);

    assertThat(found.tool()).isEqualTo("GuideLLM");
    assertThat(found.aggregate()).isNull();
    assertThat(found.describe()).contains("no aggregate file");
  }

  @Test
  void aFolderWithoutARunOrWithSeveralIsAnErrorThatSaysWhy() throws IOException {
    assertThatThrownBy(() -> ClientArtifacts.find(dir))
        .hasMessageContaining("no benchmark output in this folder");

    Files.createDirectories(dir.resolve("c4"));
    Files.createDirectories(dir.resolve("c8"));
    Files.writeString(dir.resolve("c4/profile_export.jsonl"), "{}\n");
    Files.writeString(dir.resolve("c8/profile_export.jsonl"), "{}\n");
    assertThatThrownBy(() -> ClientArtifacts.find(dir))
        .hasMessageContaining("holds 2 runs")
        .hasMessageContaining("load each folder on its own");
  }

  /** Real AIPerf artifact folders, where the shared fixtures exist (absent in CI: skipped). */
  @Test
  void realAiperfFoldersAreRecognised() throws IOException {
    Path fixtures = Path.of("..", "..", "shared", "fixtures");
    Assumptions.assumeTrue(Files.isDirectory(fixtures), "no ../shared/fixtures here");
    try (Stream<Path> files = Files.walk(fixtures, 6)) {
      for (Path records :
          files.filter(f -> f.getFileName().toString().equals("profile_export.jsonl")).toList()) {
        ClientArtifacts found = ClientArtifacts.find(records.getParent());
        assertThat(found.tool()).isEqualTo("AIPerf");
        assertThat(found.requests()).isEqualTo(records);
      }
    }
  }
}
