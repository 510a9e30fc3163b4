package dev.tokentrace.cli;

import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.WorkloadSettings;
import dev.tokentrace.simulator.output.RunSummary;
import dev.tokentrace.simulator.output.ScenarioWriter;
import dev.tokentrace.simulator.scenario.Parameter;
import dev.tokentrace.simulator.scenario.Parameters;
import dev.tokentrace.simulator.scenario.Scenario;
import dev.tokentrace.simulator.scenario.ScenarioSettings;
import dev.tokentrace.simulator.scenario.Scenarios;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * {@code tokentrace simulate}: writes a simulated scenario (engine outputs, client file, {@code
 * truth.csv}, {@code SOURCE.md}) into a directory. The model parameters are declared once in {@link
 * Parameters} (name, default, description) and become options here through {@link
 * ParameterOptions}; a {@code --scenario} preset sets some of them, explicit options win.
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    modelTransformer = SimulateCommand.ParameterOptions.class,
    description = {
      "Simulate a continuous-batching inference server and its benchmark client, and write the"
          + " server's outputs in a chosen engine format, the client timing file and the ground"
          + " truth (truth.csv) of every request's client queue, network, queue, prefill and decode"
          + " time.",
      "Same parameters and seed give byte-identical files.",
      "With --serve PORT: run the simulated server live instead, an OpenAI-compatible endpoint"
          + " (--api's path) on loopback that streams SSE in real time as the simulated engine"
          + " queues, prefills and decodes, while the engine's logs (and vLLM's otlp.jsonl) and"
          + " server_truth.csv (each request's true queue, prefill and decode time) grow in --out,"
          + " appended and flushed per line. Requests are named by X-Request-Id (else SGLang's"
          + " body rid); the prompt counts one token per word; max_tokens tokens are generated."
          + " Workload, network and client parameters do not apply; it runs until SIGTERM or"
          + " Ctrl-C."
    })
public final class SimulateCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Option(
      names = "--scenario",
      paramLabel = "NAME",
      description = "Preset of parameters (listed below); explicit options override it.")
  private @Nullable String scenario;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "DIR",
      description =
          "Directory to write into; created if missing, files of the same names replaced.")
  private Path out;

  @Option(
      names = "--serve",
      paramLabel = "PORT",
      description = "Serve live on this port (0: any free port, printed at start) instead.")
  private @Nullable Integer serve;

  @Option(
      names = "--pd",
      paramLabel = "SCENARIO",
      description =
          "Prefill/decode disaggregation instead (docs/formats/pd.md#simulator): a proxy, prefill"
              + " and decode servers in --engine's formats (vLLM: OTLP spans, NIXL's KV Transfer"
              + " metrics lines; SGLang: each server's time stats lines; TensorRT-LLM: each"
              + " server's /perf_metrics and the transfer CSVs; dynamo: the workers' JSONL logs and"
              + " the frontend's request-trace records), the client CSV and truth.csv with the KV"
              + " transfer and each side's queueing. One of: transfer-bound, decode-saturated,"
              + " prefill-saturated, slow-link; --requests runs its first N requests. With --serve"
              + " PORT (vLLM): a live proxy in front of the scenario's prefill and decode servers, in"
              + " real time (docs/formats/pd.md#live). Not with --scenario.")
  private @Nullable String pd;

  @Option(
      names = "--pd-stats-interval",
      paramLabel = "SECONDS",
      defaultValue = "10",
      description =
          "With --serve and --pd: seconds between the decode servers' KV Transfer metrics lines"
              + " (vLLM's VLLM_LOG_STATS_INTERVAL).")
  private long pdStatsInterval = 10;

  @Option(
      names = "--proxy-rewrites",
      description =
          "With --pd (vLLM): the proxy sends the servers a UUID of its own instead of the client's"
              + " request ID, as vLLM's example proxy does, and writes its access log"
              + " proxy/access.jsonl (docs/formats/pd.md#proxy-access-log).")
  private boolean proxyRewrites;

  @Option(
      names = "--nixl-debug",
      description =
          "With --pd (vLLM): each decode server's log is as at VLLM_LOGGING_LEVEL=DEBUG behind"
              + " kubectl's --timestamps, with NIXL's per-request read lines, so each request's"
              + " transfer is read instead of estimated (docs/formats/pd.md#vllm-nixl-debug-lines).")
  private boolean nixlDebug;

  @Option(
      names = "--no-rid",
      description =
          "With --pd --engine sglang: the client sets no rid, so each server names the request by"
              + " a uuid of its own and the two halves share only the router's bootstrap_room"
              + " (docs/formats/pd.md#sglang-request-ids).")
  private boolean noRid;

  @Option(
      names = "--kv-metrics",
      description =
          "With --pd --engine sglang: also save each prefill server's /metrics scrapes every 10 s"
              + " (prefill-N/metrics.prom) with SGLang's KV transfer histograms and failed-transfer"
              + " counter (docs/formats/pd.md#sglang-kv-transfer-metrics).")
  private boolean kvMetrics;

  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      defaultValue = "127.0.0.1",
      description = "With --serve: the address to listen on.")
  private String bind = "127.0.0.1";

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (pd != null) {
      Map<String, String> values = explicitValues();
      if (serve != null && (proxyRewrites || nixlDebug || noRid || kvMetrics)) {
        err.println(
            "simulate: --proxy-rewrites, --nixl-debug, --no-rid and --kv-metrics shape the batch"
                + " files of --pd, not --serve");
        return ExitCodes.USAGE;
      }
      if (serve != null) {
        return PdSimulate.serve(
            spec.commandLine(),
            pd,
            values.getOrDefault(Parameters.ENGINE, "vllm"),
            values.getOrDefault(Parameters.API, "chat"),
            scenario != null,
            out,
            bind,
            serve,
            pdStatsInterval);
      }
      return PdSimulate.run(
          pd,
          values.getOrDefault(Parameters.ENGINE, "vllm"),
          values.get(Parameters.REQUESTS),
          proxyRewrites,
          nixlDebug,
          noRid,
          kvMetrics,
          scenario != null,
          out,
          commandLine()
              .replaceFirst(
                  "^tokentrace simulate",
                  "tokentrace simulate --pd "
                      + pd
                      + (proxyRewrites ? " --proxy-rewrites" : "")
                      + (nixlDebug ? " --nixl-debug" : "")
                      + (noRid ? " --no-rid" : "")
                      + (kvMetrics ? " --kv-metrics" : "")),
          err);
    }
    ScenarioSettings settings;
    try {
      settings = ScenarioSettings.from(Scenarios.effective(scenario, explicitValues()));
    } catch (IllegalArgumentException e) {
      for (String problem : e.getMessage().split("\n", -1)) {
        err.println("simulate: " + problem);
      }
      return 2;
    }
    if (serve != null) {
      return new LiveServe(spec.commandLine(), out).run(settings, bind, serve);
    }
    long startNanos = System.nanoTime();
    try {
      WorkloadSettings workload = settings.simulation().workload();
      Progress progress =
          new Progress(err, (long) workload.requests() * workload.concurrency().size());
      RunSummary summary =
          new ScenarioWriter(settings.simulation(), settings.output())
              .write(out, commandLine(), settings.parameters(), progress);
      progress.done();
      report(summary, (System.nanoTime() - startNanos) / 1e9);
      return 0;
    } catch (UncheckedIOException e) {
      err.println("simulate: " + e.getMessage() + ": " + e.getCause().getMessage());
      return 1;
    }
  }

  /** Parameters given on the command line, in parameter order. */
  private Map<String, String> explicitValues() {
    ParseResult parsed = spec.commandLine().getParseResult();
    Map<String, String> values = new LinkedHashMap<>();
    for (Parameter parameter : Parameters.all()) {
      if (parsed.hasMatchedOption(parameter.name())) {
        values.put(parameter.name(), parsed.matchedOptionValue(parameter.name(), ""));
      }
    }
    return values;
  }

  /** The command as SOURCE.md records it: scenario, explicit options, output directory. */
  private String commandLine() {
    List<String> words = new ArrayList<>(List.of("tokentrace", "simulate"));
    if (scenario != null) {
      words.add("--scenario");
      words.add(scenario);
    }
    explicitValues()
        .forEach(
            (name, value) -> {
              words.add(name);
              words.add(value);
            });
    words.add("--out");
    words.add(out.toString());
    return String.join(" ", words);
  }

  private void report(RunSummary summary, double seconds) {
    PrintWriter stdout = spec.commandLine().getOut();
    double megabytes = summary.bytes() / 1e6;
    stdout.printf(
        "wrote %d requests (%d attempts, %.1f s simulated) to %s: %.1f MB in %d files in %.1f s"
            + " (%.0f requests/s, %.1f MB/s)%n",
        summary.requests(),
        summary.attempts(),
        summary.simulatedUs() / 1e6,
        out,
        megabytes,
        summary.files().size(),
        seconds,
        summary.requests() / Math.max(seconds, 1e-9),
        megabytes / Math.max(seconds, 1e-9));
    stdout.flush();
  }

  /** Shows how many requests are done, on a terminal only, at most every two seconds. */
  private static final class Progress implements SimObserver {
    private static final long EVERY_NANOS = 2_000_000_000L;

    private final PrintWriter err;
    private final long total;
    private final boolean terminal = System.console() != null;
    private long done;
    private long lastNanos = System.nanoTime();
    private boolean shown;

    Progress(PrintWriter err, long total) {
      this.err = err;
      this.total = total;
    }

    @Override
    public void clientDone(RequestView request) {
      if (!terminal || !request.finalAttempt() || ++done % 1024 != 0) {
        return;
      }
      long now = System.nanoTime();
      if (now - lastNanos >= EVERY_NANOS) {
        lastNanos = now;
        shown = true;
        err.printf("\rsimulate: %d of %d requests (%d%%)", done, total, done * 100 / total);
        err.flush();
      }
    }

    void done() {
      if (shown) {
        err.println();
        err.flush();
      }
    }
  }

  /** Adds one string option per {@link Parameters} entry, and the scenario list as a footer. */
  static final class ParameterOptions implements IModelTransformer {
    private static final int WIDTH = 78;

    @Override
    public CommandSpec transform(CommandSpec command) {
      for (Parameter parameter : Parameters.all()) {
        command.addOption(
            OptionSpec.builder(parameter.name())
                .paramLabel(parameter.label())
                .type(String.class)
                .defaultValue(parameter.defaultValue())
                .description(parameter.description())
                .build());
      }
      List<String> footer = new ArrayList<>();
      for (Scenario preset : Scenarios.all()) {
        String summary = preset.name() + ": " + preset.description() + ".";
        wrap(footer, "  ", "      ", List.of(summary.split(" ")));
        List<String> pairs = new ArrayList<>();
        preset.values().forEach((name, value) -> pairs.add(name + " " + value));
        wrap(footer, "      ", "        ", pairs);
      }
      command.usageMessage().footerHeading("%nScenarios (--scenario NAME):%n");
      command.usageMessage().footer(footer.toArray(new String[0]));
      return command;
    }

    /** Wraps at word boundaries so picocli, which wraps without indent, leaves lines alone. */
    private static void wrap(List<String> lines, String first, String rest, List<String> words) {
      StringBuilder line = new StringBuilder(first);
      for (String word : words) {
        if (line.length() + word.length() + 1 > WIDTH && line.length() > rest.length()) {
          lines.add(line.toString());
          line = new StringBuilder(rest);
        } else if (line.length() > first.length() && line.charAt(line.length() - 1) != ' ') {
          line.append(' ');
        }
        line.append(word);
      }
      lines.add(line.toString());
    }
  }
}
