package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.client.ClientLoadSettings;
import dev.tokentrace.correlate.client.ClientTimingLoader;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.ingest.tail.SourceParser;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.report.ReportFormat;
import dev.tokentrace.report.ReportService;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.store.Database;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Markup in logs stays text in every report: a vLLM scenario whose request IDs, instance name and a
 * warning carry {@code <script>} and an {@code onerror} handler goes through the real parser into
 * the database and out as HTML, Markdown and JSON. In HTML nothing of it may become an element or
 * an attribute; with Chromium installed the page is also rendered and must not run it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class ReportEscapingTest {
  static final String ID = "<script>document.title='pwned'</script>-";
  static final String INSTANCE = "<script>document.title='instance'</script>gpu\"0";
  static final String NOTICE = "<img src=x onerror=\"document.title='notice'\"> overloaded";
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

  private ReportData data;
  private Path dir;

  @BeforeAll
  void load(@TempDir Path temp) throws IOException {
    dir = temp;
    SampleScenarios.Scenario scenario =
        ScenarioDatabase.simulate(temp.resolve("samples"), "evil", 31, "--requests 6");
    String prefix = Files.readAllLines(scenario.clientFile()).get(1).replaceFirst("[0-9]+,.*$", "");
    for (Path file :
        List.of(
            scenario.dir().resolve("server.log"),
            scenario.dir().resolve("otlp.jsonl"),
            scenario.clientFile())) {
      Files.writeString(file, Files.readString(file, UTF_8).replace(prefix, ID), UTF_8);
    }
    // a warning in the documented vLLM V1 header format (docs/formats/vllm.md), composed here
    Files.writeString(
        scenario.dir().resolve("server.log"),
        "(APIServer pid=3646) WARNING 03-02 09:00:01 [scheduler.py:120] " + NOTICE + "\n",
        UTF_8,
        java.nio.file.StandardOpenOption.APPEND);
    try (Database database = ScenarioDatabase.open(temp, "evil")) {
      EventTables.insert(database, parse(scenario));
      new ClientTimingLoader(database, ScenarioDatabase.CLOCK)
          .load(
              ClientLoadSettings.from(
                  List.of(scenario.clientFile()), "csv", "evil-run", null, "test <b>1</b>", null));
      data =
          new ReportService(database, ScenarioDatabase.CLOCK)
              .build(AttributionSettings.defaults(), "tokentrace report <i>");
    }
    assertThat(data.evidence().requests()).isNotEmpty();
    assertThat(data.evidence().requests().get(0).requestKey()).startsWith(ID);
    assertThat(data.evidence().notices())
        .anySatisfy(notice -> assertThat(notice.firstMessage()).contains(NOTICE));
  }

  @Test
  void htmlShowsLogMarkupAsTextAndRunsOnlyItsOwnScript() throws IOException {
    String html = render(ReportFormat.HTML);
    assertThat(html.split("<script", -1)).hasSize(2);
    assertThat(html)
        .contains("<script>document.querySelectorAll(")
        .doesNotContain("<script>document.title")
        .doesNotContain("<img")
        .doesNotContain("onerror=\"")
        .doesNotContain("<b>1</b>")
        .doesNotContain("<i>")
        .contains("&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;-")
        .contains("&lt;script&gt;document.title=&#39;instance&#39;&lt;/script&gt;gpu&quot;0")
        .contains("&lt;img src=x onerror=&quot;document.title=&#39;notice&#39;&quot;&gt;")
        .contains("test &lt;b&gt;1&lt;/b&gt;")
        .contains("tokentrace report &lt;i&gt;");
  }

  @Test
  void markdownKeepsLogMarkupInCodeSpans() throws IOException {
    String markdown = render(ReportFormat.MARKDOWN);
    assertThat(markdown)
        .contains("`" + INSTANCE + "`")
        .contains("`test <b>1</b>`")
        .doesNotContain("`" + INSTANCE + "` <");
  }

  @Test
  void jsonCarriesLogTextVerbatimAsStrings() throws IOException {
    String json = render(ReportFormat.JSON);
    assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).get("requests"))
        .allSatisfy(row -> assertThat(row.get("request_key").asText()).startsWith(ID));
  }

  @Test
  void chromiumRendersThePageWithoutRunningLogMarkup() throws Exception {
    assumeTrue(Files.isExecutable(CHROMIUM), "no " + CHROMIUM + " here (CI has none)");
    Path page = dir.resolve("evil.html");
    Files.writeString(page, render(ReportFormat.HTML), UTF_8);
    Path profile = Files.createTempDirectory(dir, "chromium");
    Process chromium =
        new ProcessBuilder(
                CHROMIUM.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile,
                "--dump-dom",
                page.toUri().toString())
            .redirectError(dir.resolve("chromium.log").toFile())
            .start();
    String dom = new String(chromium.getInputStream().readAllBytes(), UTF_8);
    assertThat(chromium.waitFor(60, TimeUnit.SECONDS)).isTrue();
    // the page's own script ran (CSP allows it by hash); nothing from the logs did
    assertThat(dom)
        .contains("data-ready=\"true\"")
        .contains("<title>tokentrace report: ")
        .doesNotContain("pwned</title>", "instance</title>", "notice</title>")
        .doesNotContain("<title>pwned", "<title>instance", "<title>notice");
  }

  private String render(ReportFormat format) throws IOException {
    StringBuilder out = new StringBuilder();
    ReportService.render(data, format, out);
    return out.toString();
  }

  /** The scenario's files through the vLLM parser, stamped with the hostile instance name. */
  private static List<EngineEvent> parse(SampleScenarios.Scenario scenario) throws IOException {
    ParseSettings settings = new ParseSettings(INSTANCE, ZoneOffset.UTC, 2026);
    List<EngineEvent> events = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    TailOutput sink =
        new TailOutput() {
          @Override
          public void event(EngineEvent event) {
            events.add(event);
          }

          @Override
          public void rejected(Rejection rejection, byte[] rawLine) {
            rejected.add(rejection.message());
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
    assertThat(rejected).isEmpty();
    return events;
  }
}
