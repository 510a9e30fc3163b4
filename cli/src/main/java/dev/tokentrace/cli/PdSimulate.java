package dev.tokentrace.cli;

import dev.tokentrace.simulator.live.PdProxyServer;
import dev.tokentrace.simulator.output.Api;
import dev.tokentrace.simulator.pd.PdFiles;
import dev.tokentrace.simulator.pd.PdScenario;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;

/** {@code simulate --pd SCENARIO} (docs/formats/pd.md#simulator): kept out of the command. */
final class PdSimulate {
  private PdSimulate() {}

  /**
   * {@code simulate --serve PORT --pd SCENARIO} (docs/formats/pd.md#live): a {@link PdProxyServer}
   * until SIGTERM or Ctrl-C (or, in-process, until the calling thread is interrupted).
   */
  static int serve(
      CommandLine commandLine,
      String name,
      String engine,
      String apiName,
      boolean otherMode,
      Path dir,
      String bind,
      int port,
      long statsIntervalS) {
    PrintWriter out = commandLine.getOut();
    PrintWriter err = commandLine.getErr();
    PdScenario scenario = PdScenario.named(name);
    int usage = check(name, scenario, engine, otherMode, err);
    if (usage != ExitCodes.OK || scenario == null) {
      return usage;
    }
    if (!engine.equals("vllm") && !engine.equals("sglang")) {
      err.println(
          "simulate: --serve --pd serves vLLM's or SGLang's formats, not --engine " + engine);
      return ExitCodes.USAGE;
    }
    if (statsIntervalS < 1) {
      err.println("simulate: --pd-stats-interval must be at least 1 (seconds): " + statsIntervalS);
      return ExitCodes.USAGE;
    }
    Api api;
    try {
      api = Api.valueOf(apiName.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      err.println("simulate: --api must be chat or completions: " + apiName);
      return ExitCodes.USAGE;
    }
    PdProxyServer proxy;
    try {
      proxy =
          PdProxyServer.start(
              new InetSocketAddress(bind, port), dir, scenario, api, statsIntervalS, engine);
    } catch (UncheckedIOException e) {
      err.println("simulate: " + e.getMessage() + ": " + e.getCause().getMessage());
      err.flush();
      return ExitCodes.INFRASTRUCTURE;
    }
    CountDownLatch stop = new CountDownLatch(1);
    try (ShutdownHook hook = ShutdownHook.install("simulate", err, stop::countDown)) {
      out.printf(
          "simulate: P/D proxy (%s) serving %s on http://%s:%d%s in front of %d prefill and %d"
              + " decode server(s), %s formats, writing into %s; Ctrl-C to stop%n",
          name,
          api.name().toLowerCase(Locale.ROOT),
          bind,
          proxy.port(),
          api.path(),
          scenario.prefillServers(),
          scenario.decodeServers(),
          engine.equals("sglang") ? "SGLang" : "vLLM",
          dir);
      out.flush();
      boolean interrupted = false;
      try {
        stop.await();
      } catch (InterruptedException e) {
        interrupted = true; // in-process callers stop the proxy this way
      }
      int code;
      try {
        proxy.close();
        err.println("simulate: stopped; files in " + dir);
        code = ExitCodes.OK;
      } catch (RuntimeException e) {
        err.println("simulate: " + TokentraceMain.describe(e));
        code = ExitCodes.INFRASTRUCTURE;
      }
      err.flush();
      hook.finished(code);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      return code;
    }
  }

  private static int check(
      String name,
      @Nullable PdScenario scenario,
      String engine,
      boolean otherMode,
      PrintWriter err) {
    if (scenario == null) {
      err.println(
          "simulate: --pd '"
              + name
              + "' is not one of "
              + PdScenario.ALL.stream().map(PdScenario::name).collect(Collectors.joining(", ")));
    }
    if (otherMode) {
      err.println("simulate: --pd is not with --scenario");
    }
    if (scenario == null || otherMode) {
      return ExitCodes.USAGE;
    }
    if (!PdFiles.ENGINES.contains(engine)) {
      err.println(
          "simulate: --pd writes the formats of "
              + String.join(", ", PdFiles.ENGINES)
              + ", not --engine "
              + engine);
      return ExitCodes.USAGE;
    }
    return ExitCodes.OK;
  }

  static int run(
      String name,
      String engine,
      @Nullable String requests,
      boolean proxyRewrites,
      boolean nixlDebug,
      boolean noRid,
      boolean kvMetrics,
      boolean otherMode,
      Path out,
      String command,
      PrintWriter err) {
    PdScenario named = PdScenario.named(name);
    int usage = check(name, named, engine, otherMode, err);
    if (usage != ExitCodes.OK || named == null) {
      return usage;
    }
    PdScenario scenario;
    try {
      scenario = requests == null ? named : named.withRequests(Integer.parseInt(requests.strip()));
    } catch (IllegalArgumentException e) {
      err.println("simulate: --requests must be a whole number of at least 1: " + requests);
      return ExitCodes.USAGE;
    }
    if (proxyRewrites && !engine.equals("vllm")) {
      err.println("simulate: --proxy-rewrites is for vLLM's proxy only, not --engine " + engine);
      return ExitCodes.USAGE;
    }
    if (nixlDebug && !engine.equals("vllm")) {
      err.println(
          "simulate: --nixl-debug is for vLLM's NIXL connector only, not --engine " + engine);
      return ExitCodes.USAGE;
    }
    if ((noRid || kvMetrics) && !engine.equals("sglang")) {
      err.println(
          "simulate: "
              + (noRid ? "--no-rid" : "--kv-metrics")
              + " is for SGLang only, not --engine "
              + engine);
      return ExitCodes.USAGE;
    }
    try {
      int written = PdFiles.write(scenario, out, engine, proxyRewrites, nixlDebug, noRid);
      if (kvMetrics) {
        PdFiles.sglangMetrics(scenario, out);
      }
      if (engine.equals("vllm")) {
        // the TensorRT-LLM sample's SOURCE.md is written by hand (samples/pd/trtllm/)
        PdFiles.source(scenario, out, command);
      }
      err.println(
          "simulate: P/D scenario "
              + name
              + " in "
              + engine
              + "'s formats"
              + " ("
              + scenario.description()
              + "): "
              + written
              + " requests, "
              + scenario.prefillServers()
              + " prefill and "
              + scenario.decodeServers()
              + " decode server(s) written to "
              + out);
      return ExitCodes.OK;
    } catch (UncheckedIOException e) {
      err.println("simulate: " + e.getMessage() + ": " + e.getCause().getMessage());
      return ExitCodes.INFRASTRUCTURE;
    }
  }
}
