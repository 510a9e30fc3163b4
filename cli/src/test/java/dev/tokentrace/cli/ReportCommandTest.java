package dev.tokentrace.cli;

import static dev.tokentrace.cli.ClientRows.number;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tokentrace.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tokentrace report} in every format on a database with several runs (a simulated sweep, a
 * simulated network episode, the checked-in SGLang preemption sample), and against a baseline
 * database attached read-only.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class ReportCommandTest {
  static final Path SCHEMA = Path.of("..", "docs", "report-schema.json");
  private static final ObjectMapper JSON = new ObjectMapper();

  private Path dir;
  private Path db;
  private Path baseline;
  private final List<Path> clientFiles = new ArrayList<>();
  private Path baselineClient;
  private byte[] baselineBytes;
  private Path json;
  private Path html;
  private String markdown;

  @BeforeAll
  void load(@TempDir Path temp) {
    dir = temp;
    Path root = temp.resolve("samples");
    List<SampleScenarios.Scenario> scenarios = new ArrayList<>();
    scenarios.add(
        ScenarioDatabase.simulate(
            root, "sweep", 21, "--scenario concurrency-sweep --requests 8 --iteration-log true"));
    scenarios.add(
        ScenarioDatabase.simulate(
            root,
            "network",
            22,
            "--concurrency 2 --requests 40 --output-tokens fixed:8 --slow-network-at-s 1"
                + " --slow-network-duration-s 1 --slow-network-extra-ms 300"));
    SampleScenarios.find(GoldenSamplesTest.SAMPLES).stream()
        .filter(scenario -> scenario.id().equals("sglang-v0.5.6-preemption"))
        .forEach(scenarios::add);
    try (Database database = ScenarioDatabase.open(temp, "current")) {
      for (SampleScenarios.Scenario scenario : scenarios) {
        ScenarioDatabase.load(database, scenario);
        clientFiles.add(scenario.clientFile());
      }
      ScenarioDatabase.attribute(database);
    }
    SampleScenarios.Scenario before =
        ScenarioDatabase.simulate(
            root, "before", 23, "--scenario concurrency-sweep --requests 8 --max-batch 8");
    baselineClient = before.clientFile();
    try (Database database = ScenarioDatabase.open(temp, "baseline")) {
      ScenarioDatabase.load(database, before);
      ScenarioDatabase.attribute(database);
    }
    db = temp.resolve("current.duckdb");
    baseline = temp.resolve("baseline.duckdb");
    baselineBytes = read(baseline);
    // one report per format, the same attribution: JSON and Markdown against the baseline
    json = written("report.json", "--format", "json", "--baseline", baseline.toString());
    html = written("report.html", "--format", "html");
    SqlRuns.Result result = report("--baseline", baseline.toString());
    assertThat(result.code()).as(result.err()).isZero();
    markdown = result.out();
  }

  @Test
  void writesAJsonReportThatTheDocumentedSchemaAccepts() throws Exception {
    JsonNode report = JSON.readTree(json.toFile());
    JsonSchemaCheck schema = new JsonSchemaCheck(JSON.readTree(SCHEMA.toFile()));
    assertThat(schema.problems(report)).isEmpty();
    // every row type of the schema is exercised: no evidence list is empty
    report
        .get("evidence")
        .fields()
        .forEachRemaining(field -> assertThat(field.getValue()).as(field.getKey()).isNotEmpty());
    assertThat(report.get("bottleneck").get("runs")).hasSize(3);
    assertThat(report.get("baseline").get("rows")).isNotEmpty();
    // and the check is not vacuous
    ObjectNode broken = report.deepCopy();
    broken.remove("schema_version");
    ((ObjectNode) broken.get("requests").get(0)).put("surprise", 1);
    ((ObjectNode) broken.get("requests").get(1)).put("client_e2e_ms", "fast");
    assertThat(schema.problems(broken))
        .containsExactlyInAnyOrder(
            "$: missing required 'schema_version'",
            "$.requests[0]: property 'surprise' is not in the schema",
            "$.requests[1].client_e2e_ms: expected type [\"number\",\"null\"], got STRING");
  }

  @Test
  void comparesWithABaselineDatabaseAttachedReadOnly() throws Exception {
    JsonNode rows = JSON.readTree(json.toFile()).get("baseline").get("rows");
    JsonNode ftl = row(rows, "TTFT", "P50");
    assertThat(ftl.get("current").asDouble()).isCloseTo(ftlP50(clientFiles), within(1e-6));
    assertThat(ftl.get("baseline").asDouble())
        .isCloseTo(ftlP50(List.of(baselineClient)), within(1e-6));
    assertThat(ftl.get("delta").asDouble())
        .isCloseTo(ftl.get("current").asDouble() - ftl.get("baseline").asDouble(), within(1e-9));
    assertThat(row(rows, "share decode", "").get("unit").asText()).isEqualTo("share");
    assertThat(row(rows, "attributed requests", "").get("baseline").asDouble()).isPositive();
    // read-only: the baseline file is untouched and free again
    assertThat(read(baseline)).isEqualTo(baselineBytes);
    try (Database reopened = ScenarioDatabase.open(dir, "baseline")) {
      assertThat(reopened.name()).endsWith("baseline.duckdb");
    }
    assertThat(markdown)
        .contains("## Baseline comparison\n\nAgainst `" + baseline)
        .containsPattern(
            "\\| TTFT +\\| P50 +\\| +[0-9.]+ ms \\| +[0-9.]+ ms \\| +[-+][0-9.]+ ms \\|");
  }

  @Test
  void recomputesInMemoryAndNeverWritesTheFileEvenAReadOnlyOne() throws Exception {
    Path copy = dir.resolve("read-only.duckdb");
    Files.copy(db, copy);
    byte[] bytes = read(copy);
    java.nio.file.attribute.FileTime modified = Files.getLastModifiedTime(copy);
    Files.setPosixFilePermissions(
        copy, java.nio.file.attribute.PosixFilePermissions.fromString("r--r--r--"));

    SqlRuns.Result recomputed =
        SqlRuns.run("report", "--db", copy.toString(), "--warmup-first", "3");

    assertThat(recomputed.code()).as(recomputed.err()).isZero();
    assertThat(recomputed.err())
        .contains("report: recomputing the attribution with")
        .contains("in memory: the file is opened read-only and stays as it is");
    assertThat(recomputed.out()).contains("## Latency attribution");
    assertThat(read(copy)).as("the file's bytes").isEqualTo(bytes);
    assertThat(Files.getLastModifiedTime(copy)).as("the file's mtime").isEqualTo(modified);
    assertThat(dir.resolve("read-only.duckdb.wal")).doesNotExist();
    // nothing of the recomputation was stored: the next report still finds the stored rules
    SqlRuns.Result again = SqlRuns.run("report", "--db", copy.toString());
    assertThat(again.code()).as(again.err()).isZero();
    assertThat(again.err()).contains("report: reusing the attribution of");
  }

  @Test
  void refusesABaselineThatDoesNotExist() {
    SqlRuns.Result result = report("--baseline", dir.resolve("missing.duckdb").toString());
    assertThat(result.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).contains("--baseline").contains("missing.duckdb: no such file");
  }

  @Test
  void writesOneSelfContainedHtmlPageWithChartsAndASortableTable() throws Exception {
    String html = Files.readString(this.html, UTF_8);
    assertThat(html)
        .startsWith("<!DOCTYPE html>")
        .contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';")
        .contains("id=\"attribution\"", "id=\"ftl\"", "id=\"timeline\"", "id=\"requests\"")
        .contains("<table class=\"t sortable\">")
        .doesNotContain(" src=", "url(", "@import");
    // links only within the page: the table of contents
    assertThat(count(html, " href=")).isEqualTo(count(html, " href=\"#"));
    assertThat(html).contains("<nav class=\"toc\"");
    assertThat(count(html, "<svg ")).isGreaterThanOrEqualTo(4);
    assertThat(count(html, "<script")).isOne();
    // the only absolute URL is the SVG namespace
    Matcher urls = Pattern.compile("https?://[^\"' ]+").matcher(html);
    while (urls.find()) {
      assertThat(urls.group()).isEqualTo("http://www.w3.org/2000/svg");
    }
    String script = html.substring(html.indexOf("<script>") + 8, html.indexOf("</script>"));
    String hash =
        java.util.Base64.getEncoder()
            .encodeToString(MessageDigest.getInstance("SHA-256").digest(script.getBytes(UTF_8)));
    assertThat(html).contains("script-src 'sha256-" + hash + "'");
  }

  @Test
  void printsMarkdownThatFitsATerminal() {
    assertThat(markdown)
        .contains("## Findings by run")
        .contains("In run vllm-sweep, TTFT P50 goes from")
        .contains("### Shares by run and concurrency");
    assertThat(markdown.lines())
        .allSatisfy(
            line ->
                assertThat(
                        line.length() <= 100
                            || line.startsWith("|")
                            || line.strip().split(" ").length <= 3)
                    .as(line)
                    .isTrue());
  }

  private Path written(String name, String... args) {
    Path out = dir.resolve(name);
    List<String> command = new ArrayList<>(List.of(args));
    command.addAll(List.of("--out", out.toString()));
    SqlRuns.Result result = report(command.toArray(String[]::new));
    assertThat(result.code()).as(result.err()).isZero();
    // before it, report says which attribution rules it used and whether it reused or recomputed
    assertThat(result.err()).endsWith("report: " + out + "\n");
    return out;
  }

  private static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private SqlRuns.Result report(String... args) {
    List<String> command = new ArrayList<>(List.of("report", "--db", db.toString()));
    command.addAll(List.of(args));
    return SqlRuns.run(command.toArray(String[]::new));
  }

  private static JsonNode row(JsonNode rows, String metric, String stat) {
    for (JsonNode row : rows) {
      if (row.get("metric").asText().equals(metric) && row.get("stat").asText().equals(stat)) {
        return row;
      }
    }
    throw new AssertionError("no row " + metric + " " + stat + " in " + rows);
  }

  /** FTL P50 over the client files' ok, non-warm-up rows: the report's core metric. */
  private static double ftlP50(List<Path> files) {
    List<Map<String, String>> rows = new ArrayList<>();
    for (Path file : files) {
      rows.addAll(
          ClientRows.where(
              ClientRows.read(file),
              row -> row.get("status").equals("ok") && row.get("warmup").equals("false")));
    }
    return ClientRows.quantile(rows, row -> number(row, "ttft_ms"), 0.5);
  }

  private static int count(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      count++;
    }
    return count;
  }
}
