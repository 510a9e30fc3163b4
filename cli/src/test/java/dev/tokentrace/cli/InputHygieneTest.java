package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.ingest.tail.SourceParser;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.report.ReportFormat;
import dev.tokentrace.report.ReportService;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input hygiene: instance names checked like run ids, the Markdown report escaping what the logs
 * say, DuckDB never reaching the network, enumerated query parameters, each reject printed once.
 */
final class InputHygieneTest {
  static final String EVIL_INSTANCE = "gpu0\n# Injected heading <img src=x onerror=alert(1)>";
  static final String EVIL_NOTICE = "startup\n## Injected <script>alert(2)</script>";

  @TempDir Path dir;

  @Test
  void instanceNamesAreCheckedLikeRunIds() {
    Path log = ScenarioDatabase.write(dir.resolve("a.log"), "INFO 03-02 09:00:00 [x.py:1] hi\n");
    for (String name : List.of("gpu\n0", "<b>x</b>", "x".repeat(101), "-gpu")) {
      SqlRuns.Result result = SqlRuns.run("parse", "--instance", name, log.toString());
      assertThat(result.code()).as(name).isEqualTo(ExitCodes.USAGE);
      assertThat(result.err()).contains("--instance: instance name must be 1-100 letters");
      assertThat(result.err()).doesNotContain("\n0\"");
    }
    assertThat(SqlRuns.run("parse", "--instance", "gpu-0.node:8000", log.toString()).code())
        .isZero();
  }

  @Test
  void markdownReportPrintsLogTextAsTextNeverAsHeadingsOrHtml() throws IOException {
    SampleScenarios.Scenario scenario =
        ScenarioDatabase.simulate(dir.resolve("samples"), "evil", 23, "--requests 6");
    String markdown;
    try (Database database = ScenarioDatabase.open(dir, "evil")) {
      List<EngineEvent> events = parse(scenario, EVIL_INSTANCE);
      // the simulated startup lines are server_config facts now: any event gives the envelope
      EngineEvent first = events.get(0);
      events.add(
          new ServerNotice(
              first.engine(),
              EVIL_INSTANCE,
              first.ts(),
              first.source(),
              "INFO",
              ServerNotice.Kind.STARTUP,
              EVIL_NOTICE));
      EventTables.insert(database, events);
      new dev.tokentrace.correlate.client.ClientTimingLoader(database, ScenarioDatabase.CLOCK)
          .load(
              dev.tokentrace.correlate.client.ClientLoadSettings.from(
                  List.of(scenario.clientFile()), "csv", "evil", null, "test", null));
      StringBuilder out = new StringBuilder();
      ReportService.render(
          new ReportService(database, ScenarioDatabase.CLOCK)
              .build(AttributionSettings.defaults(), "test"),
          ReportFormat.MARKDOWN,
          out);
      markdown = out.toString();
    }
    String outsideCode = markdown.replaceAll("`[^`]*`", "``");
    assertThat(outsideCode).doesNotContain("<img").doesNotContain("<script");
    assertThat(markdown.lines()).noneMatch(line -> line.strip().startsWith("# Injected"));
    assertThat(markdown.lines()).noneMatch(line -> line.strip().startsWith("## Injected"));
    assertThat(markdown).contains("gpu0 # Injected heading");
  }

  /** The scenario's server files through the vLLM parser, stamped with {@code instance}. */
  private static List<EngineEvent> parse(SampleScenarios.Scenario scenario, String instance)
      throws IOException {
    ParseSettings settings = new ParseSettings(instance, ZoneOffset.UTC, 2026);
    List<EngineEvent> events = new ArrayList<>();
    TailOutput sink =
        new TailOutput() {
          @Override
          public void event(EngineEvent event) {
            events.add(event);
          }

          @Override
          public void rejected(Rejection rejection, byte[] rawLine) {
            throw new AssertionError(rejection.message());
          }
        };
    for (Path file : scenario.serverFiles()) {
      new SourceParser(
              file.getFileName().toString(),
              Engine.VLLM,
              Parsers.create(Engine.VLLM, settings),
              sink)
          .readFile(file, LineSplitter.DEFAULT_MAX_LINE_BYTES);
    }
    return events;
  }

  @Test
  void duckDbNeverReachesTheNetwork() {
    String db = dir.resolve("net.duckdb").toString();
    // sql opens read-only and never creates a file: a writer creates it first
    Database.open(DatabaseSettings.file(Path.of(db))).close();
    SqlRuns.Result result =
        SqlRuns.run("sql", "--db", db, "-e", "SELECT * FROM read_csv('https://example.invalid/x')");

    assertThat(result.code()).isNotZero();
    // refused by sql's file policy (docs/privacy.md#sql-file-access) before DuckDB would look for
    // httpfs; either way nothing is installed, loaded or downloaded
    assertThat(result.err())
        .containsAnyOf("httpfs", "file system operations are disabled")
        .doesNotContain("Autoloading")
        .doesNotContain("Failed to download");
    SqlRuns.Result settings =
        SqlRuns.run(
            "sql",
            "--db",
            db,
            "-e",
            "SELECT current_setting('autoinstall_known_extensions') AS install,"
                + " current_setting('autoload_known_extensions') AS load",
            "--format",
            "csv");
    assertThat(settings.out()).isEqualTo("install,load\nfalse,false\n");
  }

  @Test
  void enumeratedQueryParametersTakeOnlyTheirValues() {
    String db = dir.resolve("q.duckdb").toString();
    // sql opens read-only and never creates a file: a writer creates it first
    Database.open(DatabaseSettings.file(Path.of(db))).close();
    SqlRuns.Result groupBy =
        SqlRuns.run("sql", "--db", db, "attribution_summary", "-p", "group_by=instanse");
    assertThat(groupBy.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(groupBy.err())
        .contains("bad value 'instanse' for param group_by: did you mean 'instance'?");

    SqlRuns.Result components =
        SqlRuns.run("sql", "--db", db, "attribution_summary", "-p", "components=network,queu");
    assertThat(components.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(components.err()).contains("bad value 'queu' for param components");

    SqlRuns.Result kind = SqlRuns.run("sql", "--db", db, "unmatched_requests", "-p", "kind=x");
    assertThat(kind.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(SqlRuns.run("sql", "--db", db, "attribution_summary", "-p", "group_by=run").code())
        .isZero();
  }

  @Test
  void eachClientRejectIsPrintedOnce() {
    Path client =
        ScenarioDatabase.write(
            dir.resolve("c.csv"),
            "request_id,start_ts,ttft_ms,e2e_ms,output_tokens\n"
                + "r1,2026-03-02T09:00:01Z,10,20,5\n"
                + "r2,2026-03-02T09:00:02Z,abc,20,5\n");
    PrintStream original = System.err;
    ByteArrayOutputStream logged = new ByteArrayOutputStream();
    SqlRuns.Result result;
    try {
      System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
      result =
          SqlRuns.run(
              "clients",
              "--db",
              dir.resolve("once.duckdb").toString(),
              "--max-reject-ratio",
              "1",
              client.toString());
    } finally {
      System.setErr(original);
    }
    String all = result.err() + logged.toString(StandardCharsets.UTF_8);
    String message = client + ":3: client: bad 'ttft_ms' value \"abc\"";
    assertThat(all.split(java.util.regex.Pattern.quote(message), -1)).hasSize(2);
  }
}
