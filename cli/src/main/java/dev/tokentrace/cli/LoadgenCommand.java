package dev.tokentrace.cli;

import dev.tokentrace.loadgen.Arrivals;
import dev.tokentrace.loadgen.Endpoint;
import dev.tokentrace.loadgen.LoadRunner;
import dev.tokentrace.loadgen.LoadSettings;
import dev.tokentrace.loadgen.LoadSummary;
import dev.tokentrace.loadgen.Matrix;
import dev.tokentrace.loadgen.MatrixRunner;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tokentrace loadgen}: options → {@link LoadSettings} → {@link LoadRunner}. */
@Command(
    name = "loadgen",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Send OpenAI-compatible streaming requests (stream: true) to an inference server and write"
          + " each request's client timing to our client CSV (the file 'clients --format csv'"
          + " loads): start, TTFT, end-to-end time, output tokens, client queue, status, warm-up.",
      "Every request is named PREFIX + index, sent as the X-Request-Id header (vLLM turns it into"
          + " cmpl-/chatcmpl-<id>) and, with --engine sglang, as the body's rid, so 'correlate'"
          + " joins it with the server's events by ID. The prompt is --prompt-tokens words; no"
          + " prompt or response text is stored.",
      "Load: --concurrency N workers (closed loop), or --rate R requests/s (constant or Poisson"
          + " gaps, at most --concurrency in flight when given; the wait for a slot is recorded"
          + " as client queue). Stops after --requests measured requests or --duration, whichever"
          + " comes first; --warmup requests go first and are marked. Failed requests are never"
          + " retried (a retry would load the server twice); they are written with their status.",
      "TTFT is the first chunk with non-empty text or delta content: SSE comments (heartbeats),"
          + " empty and role-only chunks, the usage chunk and [DONE] are not tokens. Output tokens"
          + " are the server's usage count when it sends one, else the content chunks.",
      ""
    })
final class LoadgenCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--url",
      paramLabel = "URL",
      defaultValue = "http://127.0.0.1:8000",
      description = "Server base URL; the endpoint path is added.")
  URI url;

  @Option(
      names = "--api",
      paramLabel = "API",
      defaultValue = "chat",
      description = "chat (/v1/chat/completions) or completions (/v1/completions).")
  String api;

  @Option(
      names = "--model",
      paramLabel = "NAME",
      defaultValue = "default",
      description = "The body's model field (vLLM checks it against --served-model-name).")
  String model;

  @Option(
      names = "--engine",
      paramLabel = "ENGINE",
      defaultValue = "vllm",
      description = "vllm, sglang or trtllm; sglang also sends the ID as the body's rid.")
  String engine;

  @Option(
      names = "--concurrency",
      paramLabel = "N",
      description =
          "Workers of a closed loop (default 1); with --rate, most requests in flight"
              + " (default: no cap).")
  @Nullable Integer concurrency;

  @Option(
      names = "--rate",
      paramLabel = "R",
      description = "Requests per second instead of a closed loop.")
  @Nullable Double rate;

  @Option(
      names = "--arrival",
      paramLabel = "KIND",
      defaultValue = "poisson",
      description = "With --rate: constant or poisson gaps.")
  String arrival;

  @Option(
      names = "--requests",
      paramLabel = "N",
      description = "Measured requests (warm-up not counted); default 100 without --duration.")
  @Nullable Long requests;

  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Issue measured requests for this long (250ms, 30s, 5m).")
  @Nullable Duration duration;

  @Option(
      names = "--warmup",
      paramLabel = "N",
      defaultValue = "0",
      description = "Warm-up requests sent first and marked warmup=true.")
  int warmup;

  @Option(
      names = "--prompt-tokens",
      paramLabel = "N",
      defaultValue = "128",
      description = "Prompt length in words (about one token each).")
  int promptTokens;

  @Option(
      names = "--max-tokens",
      paramLabel = "N",
      defaultValue = "64",
      description = "max_tokens; ignore_eos is set, so servers that honour it generate exactly N.")
  int maxTokens;

  @Option(
      names = "--id-prefix",
      paramLabel = "PREFIX",
      description = "Request ID prefix (default: tt-<8 random hex>-).")
  @Nullable String idPrefix;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "10m",
      converter = DurationConverter.class,
      description = "Per request, until the response headers arrive.")
  Duration timeout;

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "1",
      description = "Seed of the Poisson arrival gaps.")
  long seed;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "FILE",
      description = "Client CSV to write (replaced), rows flushed as requests complete.")
  Path out;

  @Option(
      names = "--matrix",
      arity = "1..*",
      paramLabel = "DIM=V1,V2",
      description =
          "Sweep a matrix into one --out file, the cell recorded per request (columns max_tokens"
              + " and cell): DIM is output, concurrency or prompt, e.g. --matrix"
              + " output=64,512,2048 concurrency=1,4,8,16. A dimension not given takes"
              + " --max-tokens, --concurrency or --prompt-tokens. --warmup requests run first;"
              + " then each cell runs --rounds rounds of concurrency requests at a fixed"
              + " concurrency. Not with --rate, --requests or --duration.")
  @Nullable List<String> matrix;

  @Option(
      names = "--rounds",
      paramLabel = "N",
      defaultValue = "3",
      description = "With --matrix: rounds per cell; a round is one request per concurrent user.")
  int rounds;

  @Option(
      names = "--itl-out",
      paramLabel = "FILE",
      description = "Also write each request's inter-token latencies (ms) here.")
  @Nullable Path itlOut;

  @Override
  public Integer call() throws InterruptedException {
    LoadSettings settings = settings();
    PrintWriter err = spec.commandLine().getErr();
    if (matrix != null) {
      return sweep(settings, err);
    }
    LoadSummary summary;
    try {
      summary = new LoadRunner(settings).run();
    } catch (UncheckedIOException e) {
      err.println("loadgen: " + e.getMessage() + ": " + e.getCause().getMessage());
      err.flush();
      return ExitCodes.INFRASTRUCTURE;
    }
    if (summary.unreachable()) {
      err.println("loadgen: cannot connect to " + settings.url() + ": connection refused");
      err.flush();
      return ExitCodes.INFRASTRUCTURE;
    }
    err.println("loadgen: " + summary.describe() + " -> " + settings.out());
    err.flush();
    return ExitCodes.OK;
  }

  /** --matrix: every cell into one file, a line per cell. */
  private Integer sweep(LoadSettings settings, PrintWriter err) throws InterruptedException {
    List<String> problems = new ArrayList<>();
    if (rate != null || requests != null || duration != null) {
      problems.add(
          "--matrix runs each cell at a fixed concurrency for --rounds rounds: drop"
              + " --rate, --requests and --duration");
    }
    Matrix sweep = null;
    try {
      sweep =
          Matrix.parse(
              matrix, promptTokens, maxTokens, concurrency != null ? concurrency : 1, rounds);
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    if (!problems.isEmpty()) {
      throw new UsageException(problems);
    }
    err.println(
        "loadgen: matrix of "
            + sweep.cells().size()
            + " cells, "
            + rounds
            + " rounds each, "
            + warmup
            + " warm-up requests first -> "
            + settings.out());
    List<MatrixRunner.CellSummary> cells;
    try {
      cells = new MatrixRunner(settings, sweep).run();
    } catch (UncheckedIOException e) {
      err.println("loadgen: " + e.getMessage() + ": " + e.getCause().getMessage());
      err.flush();
      return ExitCodes.INFRASTRUCTURE;
    }
    for (MatrixRunner.CellSummary cell : cells) {
      if (cell.summary().unreachable()) {
        err.println("loadgen: cannot connect to " + settings.url() + ": connection refused");
        err.flush();
        return ExitCodes.INFRASTRUCTURE;
      }
      err.println("loadgen: " + cell.cell().label() + ": " + cell.summary().describe());
    }
    err.flush();
    return ExitCodes.OK;
  }

  /** The settings, or every problem with the options at once (exit 2). */
  private LoadSettings settings() {
    List<String> problems = new ArrayList<>();
    Endpoint endpoint = parsed(problems, () -> Endpoint.of(api), Endpoint.CHAT);
    Arrivals.Kind kind = parsed(problems, () -> Arrivals.Kind.of(arrival), Arrivals.Kind.POISSON);
    boolean sglang = parsed(problems, this::sglang, false);
    String prefix =
        idPrefix != null
            ? idPrefix
            : "tt-" + HexFormat.of().toHexDigits(new SplittableRandom().nextInt()) + "-";
    long measured = requests != null ? requests : duration == null ? 100 : Long.MAX_VALUE;
    try {
      LoadSettings settings =
          new LoadSettings(
              url,
              endpoint,
              model,
              promptTokens,
              maxTokens,
              concurrency != null ? concurrency : rate == null ? 1 : 0,
              rate,
              kind,
              measured,
              duration,
              warmup,
              prefix,
              sglang,
              timeout,
              seed,
              out,
              itlOut);
      if (problems.isEmpty()) {
        return settings;
      }
    } catch (IllegalArgumentException e) {
      problems.addAll(List.of(e.getMessage().split("\n")));
    }
    throw new UsageException(problems);
  }

  /** The value, or {@code fallback} after adding the value's problems to {@code problems}. */
  private static <T> T parsed(List<String> problems, Supplier<T> value, T fallback) {
    try {
      return value.get();
    } catch (IllegalArgumentException e) {
      problems.addAll(List.of(e.getMessage().split("\n")));
      return fallback;
    }
  }

  private boolean sglang() {
    if (!List.of("vllm", "sglang", "trtllm").contains(engine)) {
      throw new IllegalArgumentException(
          "--engine '" + engine + "' is not one of vllm, sglang, trtllm");
    }
    return engine.equals("sglang");
  }
}
