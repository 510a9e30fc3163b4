package dev.tokentrace.cli;

import dev.tokentrace.app.ClientLoads;
import dev.tokentrace.app.CorrelateRequest;
import dev.tokentrace.app.Correlation;
import dev.tokentrace.app.Reports;
import dev.tokentrace.correlate.attribution.AttributionResult;
import dev.tokentrace.correlate.client.ClientLoadResult;
import dev.tokentrace.correlate.client.ClientLoadSettings;
import dev.tokentrace.event.Engine;
import dev.tokentrace.ingest.Ingest;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.IngestSummary;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.report.ReportFormat;
import dev.tokentrace.report.ReportSettings;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.store.Database;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tokentrace demo}: the main job end to end on the checked-in samples: every engine's sample
 * logs through an embedded Kafka broker into a fresh DuckDB file, the client timings loaded,
 * attribution computed and the reports written; the terminal gets a compact summary ({@link
 * DemoSummary}) and the paths of the files.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    defaultValueProvider = DemoCommand.Defaults.class,
    sortOptions = false,
    description = {
      "Run the whole pipeline on the checked-in samples: server logs of vLLM, SGLang and"
          + " TensorRT-LLM -> embedded Kafka broker -> DuckDB, client timings loaded, latency"
          + " attributed. Prints the attribution table and the bottleneck paragraph; the full"
          + " report is written as Markdown and HTML (its path printed last). The DuckDB file is"
          + " left for your own SQL.",
      "The demo's --match defaults to heuristic, not id: requests are matched by ID where the"
          + " server logged one and, where no ID can match (the TensorRT-LLM samples), by time and"
          + " tokens; 'correlate' and 'report' default to --match id."
    })
final class DemoCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin AttributionOptions rules = new AttributionOptions();

  @Option(
      names = "--samples",
      paramLabel = "DIR",
      description = "the samples directory (default: samples/ of the tokentrace checkout)")
  Path samples = defaultSamples();

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "where demo.duckdb, attribution.csv, report.md and report.html are written (replaced)",
      defaultValue = "tokentrace-demo")
  Path out = Path.of("tokentrace-demo");

  @Option(
      names = "--full",
      description = "print the whole Markdown report instead of the summary (hundreds of lines)")
  boolean full;

  @Override
  public Integer call() throws IOException {
    long started = System.nanoTime();
    PrintWriter err = spec.commandLine().getErr();
    try (BrokerStart broker = BrokerStart.begin()) {
      return run(started, err, broker);
    }
  }

  private Integer run(long started, PrintWriter err, BrokerStart broker) throws IOException {
    List<SampleScenarios.Scenario> scenarios = SampleScenarios.find(samples);
    // one P/D scenario, vLLM's (docs/formats/pd.md#samples); the other engines' P/D samples have
    // tests of their own
    List<SampleScenarios.PdSample> pd =
        SampleScenarios.findPd(samples).stream()
            .filter(sample -> sample.engine() == Engine.VLLM)
            .toList();
    if (scenarios.isEmpty() && pd.isEmpty()) {
      throw new UsageException(samples + ": no sample scenarios (samples/<engine>/<scenario>/)");
    }
    Files.createDirectories(out);
    Path db = out.resolve("demo.duckdb");
    Files.deleteIfExists(db);
    Files.deleteIfExists(out.resolve("demo.duckdb.wal"));
    DatabaseOptions database = new DatabaseOptions();
    database.db = db;

    err.println(
        "demo: "
            + (scenarios.size() + pd.size())
            + " scenarios from "
            + samples
            + (pd.isEmpty() ? "" : " (" + pd.size() + " prefill/decode)"));
    IngestSummary ingested = ingest(scenarios, pd, database, err, broker);
    try (Database analysis = Database.open(database.settings())) {
      loadClients(scenarios, pd, analysis, err);
      // demo builds its report right after attributing and stores no report results
      // (docs/design.md#stored-report-results)
      Correlation correlation = Correlation.of(analysis);
      AttributionResult attribution =
          correlation
              .run(
                  new CorrelateRequest(
                      rules.settings(), CommandLines.of(spec), CorrelateRequest.Mode.FULL, false))
              .result();
      Path csv = out.resolve("attribution.csv");
      correlation.writeCsv(csv);
      err.println("correlate: " + attribution.dataQuality().summary());
      Path report = out.resolve("report.md");
      Path html = out.resolve("report.html");
      ReportData data =
          Reports.of(analysis)
              .build(ReportSettings.from("md", rules.settings()), CommandLines.of(spec));
      Reports.write(data, ReportFormat.MARKDOWN, report);
      Reports.write(data, ReportFormat.HTML, html);
      PrintWriter stdout = spec.commandLine().getOut();
      String markdown = Files.readString(report);
      if (full) {
        stdout.println(markdown);
      } else {
        DemoSummary.of(markdown).forEach(stdout::println);
      }
      stdout.flush();
      err.println();
      err.println("demo: done in " + (System.nanoTime() - started) / 1_000_000 + " ms");
      err.println("  full report: " + report + (full ? "" : " (printed with --full)"));
      err.println("  attribution: " + csv);
      err.println("  duckdb:      " + db + " (" + ingested.eventsWritten() + " events)");
      err.println("  try:         ./tokentrace sql --db " + db + " slowest_requests");
      err.println("               ./tokentrace sql --db " + db + " --list");
      err.println("  html report: " + html.toAbsolutePath().normalize());
      err.flush();
    }
    return ExitCodes.OK;
  }

  private IngestSummary ingest(
      List<SampleScenarios.Scenario> scenarios,
      List<SampleScenarios.PdSample> pdSamples,
      DatabaseOptions database,
      PrintWriter err,
      BrokerStart broker) {
    ParseOptions parse = new ParseOptions();
    List<SourceFile> files = new ArrayList<>();
    for (SampleScenarios.Scenario scenario : scenarios) {
      parse.instance = scenario.id();
      parse.engine = scenario.engine().id();
      String year = scenario.properties().getProperty("year");
      parse.year = year == null ? null : Integer.valueOf(year.strip());
      parse.zone = scenario.properties().getProperty("zone", "UTC");
      files.addAll(SourceFiles.resolve(scenario.serverFiles(), parse));
      if (!scenario.gpuFiles().isEmpty()) { // the GPU telemetry of the engine's instance
        parse.engine = "gpu";
        files.addAll(SourceFiles.resolve(scenario.gpuFiles(), parse));
      }
    }
    // a prefill/decode sample: each server's folder is an instance (docs/formats/pd.md#samples)
    for (SampleScenarios.PdSample sample : pdSamples) {
      parse.engine = sample.engine().id();
      String year = sample.properties().getProperty("year");
      parse.year = year == null ? null : Integer.valueOf(year.strip());
      parse.zone = sample.properties().getProperty("zone", "UTC");
      for (var server : sample.servers().entrySet()) {
        parse.instance = sample.instance(server.getKey());
        files.addAll(SourceFiles.resolve(server.getValue(), parse));
      }
    }
    try (Ingest ingest = broker.take()) {
      if (ingest.broker() != null) {
        err.println(
            "kafka: embedded broker on "
                + ingest.bootstrapServers()
                + " started in "
                + ingest.broker().startupTime().toMillis()
                + " ms");
      }
      IngestSummary summary = ingest.run(files, database.sinkSettings());
      err.println("ingest: " + summary.describe());
      return summary;
    }
  }

  private void loadClients(
      List<SampleScenarios.Scenario> scenarios,
      List<SampleScenarios.PdSample> pdSamples,
      Database analysis,
      PrintWriter err) {
    ClientLoads loader = ClientLoads.of(analysis);
    long rows = 0;
    long rejected = 0;
    List<String[]> runs = new ArrayList<>();
    for (SampleScenarios.Scenario scenario : scenarios) {
      runs.add(
          new String[] {scenario.clientFile().toString(), scenario.clientFormat(), scenario.id()});
    }
    for (SampleScenarios.PdSample sample : pdSamples) {
      runs.add(new String[] {sample.clientFile().toString(), "csv", sample.id()});
    }
    for (String[] run : runs) {
      ClientLoadResult loaded =
          loader.load(
              ClientLoadSettings.from(
                  List.of(Path.of(run[0])), run[1], run[2], null, CommandLines.of(spec), null),
              false);
      loaded.messages().forEach(err::println);
      if (loaded.rejected() > 0 || loaded.rows() == 0) {
        // only a scenario with something to say gets its own line; the rest is one total below
        err.println("clients " + run[2] + ": " + loaded.summary());
      }
      rows += loaded.rows();
      rejected += loaded.rejected();
    }
    err.println(
        "clients: "
            + runs.size()
            + " runs, rows="
            + rows
            + " rejected="
            + rejected
            + " -> client_timing");
  }

  /**
   * The embedded broker (and its topics), started on a thread of its own as the demo begins: its
   * start (3-6 s) overlaps finding and reading the samples and loading DuckDB's library
   * (docs/design.md#embedded-broker). Closing it stops a broker that was not taken.
   */
  private static final class BrokerStart implements AutoCloseable {
    private final FutureTask<Ingest> opening;
    private boolean taken;

    private BrokerStart(FutureTask<Ingest> opening) {
      this.opening = opening;
    }

    static BrokerStart begin() {
      IngestSettings settings =
          new IngestSettings(
              new KafkaOptions().settings(),
              new ParseOptions().maxLineBytes,
              IngestSettings.DEFAULT_ADMIN_TIMEOUT);
      FutureTask<Ingest> opening = new FutureTask<>(() -> Ingest.open(settings));
      Thread thread = new Thread(opening, "tokentrace-broker-start");
      thread.setDaemon(true);
      thread.start();
      return new BrokerStart(opening);
    }

    /** The started ingest service (the caller closes it); throws what its start threw. */
    Ingest take() {
      taken = true;
      try {
        return opening.get();
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException failure) {
          throw failure;
        }
        throw new IllegalStateException(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("demo: interrupted while the broker started", e);
      }
    }

    @Override
    public void close() {
      if (taken) {
        return;
      }
      try {
        opening.get().close();
      } catch (ExecutionException e) {
        // nothing was started, nothing to stop; the demo failed before it needed the broker
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The demo's own defaults, shown by its --help: the TensorRT-LLM samples carry no client IDs (its
   * perf metrics count requests itself), so the demo pairs them by time; ID-joined engines are
   * unaffected by this mode.
   */
  static final class Defaults implements IDefaultValueProvider {
    @Override
    public @Nullable String defaultValue(ArgSpec argument) {
      return argument instanceof OptionSpec option && "--match".equals(option.longestName())
          ? "heuristic"
          : null;
    }
  }

  private static Path defaultSamples() {
    String home = System.getProperty("tokentrace.home");
    return home == null ? Path.of("samples") : Path.of(home, "samples");
  }
}
