package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.Ids;
import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code vllm bench serve --save-result --save-detailed} JSON
 * (docs/formats/clients.md#vllm-bench-serve), one file per concurrency level as separate bench runs
 * would write. Per-request values are parallel arrays in request order (IDs are {@code
 * --request-id-prefix} + index, not in the file); times in seconds; {@code start_times} are the
 * client's {@code perf_counter} (monotonic, not epoch); {@code ttfts} and {@code latencies} count
 * from the start after the client semaphore, {@code queue_times} is that semaphore wait. Generated
 * texts are left empty. Unlike the other writers this one holds one level's per-request values
 * (token gaps included) until the level ends, because the file is ordered by request.
 */
final class VllmBenchWriter implements SimObserver, Closeable {
  private final Path dir;
  private final OutputSettings output;
  private final WallClock clock;
  private final long clientBootUs;
  private @Nullable Level level;

  private final String requestRate;

  /**
   * @param requestRate {@code --request-rate} as the file records it: {@code inf} for a closed
   *     loop, else the Poisson rate
   */
  VllmBenchWriter(Path dir, OutputSettings output, long seed, String requestRate) {
    this.dir = dir;
    this.requestRate = requestRate;
    this.output = output;
    this.clock = new WallClock(output.start(), output.zone());
    this.clientBootUs = 1_800_000_000L + Math.floorMod(Ids.mix(seed ^ 0xc11e47L), 86_400_000_000L);
  }

  /** One request's values, kept until its level is written; failed requests have zeros. */
  record Entry(
      int promptTokens,
      int outputTokens,
      long ttftUs,
      long latencyUs,
      long startUs,
      long queueUs,
      long[] gapsUs,
      String error) {}

  /** The requests of one concurrency level. */
  private static final class Level {
    final int concurrency;
    final long startUs;
    final List<@Nullable Entry> entries = new ArrayList<>();

    Level(int concurrency, long startUs) {
      this.concurrency = concurrency;
      this.startUs = startUs;
    }
  }

  @Override
  public void phaseStarted(int phase, int concurrency, long nowUs) {
    flush(nowUs);
    level = new Level(concurrency, nowUs);
  }

  @Override
  public void clientDone(RequestView request) {
    Level current = level;
    if (!request.finalAttempt() || current == null) {
      return;
    }
    while (current.entries.size() <= request.index()) {
      current.entries.add(null);
    }
    long[] times = request.clientTokenTimesUs();
    long[] gaps = new long[Math.max(0, times.length - 1)];
    for (int i = 1; i < times.length; i++) {
      gaps[i - 1] = times[i] - times[i - 1];
    }
    boolean ok = !request.timedOut();
    current.entries.set(
        request.index(),
        new Entry(
            request.promptTokens(),
            ok ? request.generatedTokens() : 0,
            ok ? request.clientFirstTokenUs() - request.sentUs() : 0,
            ok ? request.clientEndUs() - request.sentUs() : 0,
            request.sentUs(),
            request.clientQueueUs(),
            ok ? gaps : new long[0],
            ok ? "" : "TimeoutError: request timed out"));
  }

  @Override
  public void finished(ServerView server) {
    flush(server.nowUs());
  }

  private void flush(long endUs) {
    Level level = this.level;
    if (level == null) {
      return;
    }
    // serve.py: f"{backend}-{request_rate}qps{-concurrency<N>}-{model}-{%Y%m%d-%H%M%S}.json"
    String date = date(level.startUs);
    String concurrency = level.concurrency > 0 ? "-concurrency" + level.concurrency : "";
    String name =
        "openai-chat-"
            + requestRate
            + "qps"
            + concurrency
            + "-Llama-3.1-8B-Instruct-"
            + date
            + ".json";
    try (TextFile out = TextFile.create(dir.resolve(name))) {
      VllmBenchJson json = new VllmBenchJson(level.entries, clientBootUs);
      json.write(out.begin(), date, requestRate, level.concurrency, endUs - level.startUs);
      out.end();
    }
    this.level = null;
  }

  private String date(long simUs) {
    StringBuilder text = new StringBuilder();
    clock.dateTime(text, simUs, false);
    return text.toString().replace("-", "").replace(":", "").replace(' ', '-');
  }

  @Override
  public void close() {
    // each level's file is closed when written
  }
}
