package dev.tokentrace.simulator.pd;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;

/**
 * The P/D model of {@link PdSimulation} in real time (docs/formats/pd.md#live), for {@code simulate
 * --serve --pd}: the proxy admits a request to a prefill server, waits until its model time says
 * the first token is out, then admits it to a decode server, which pulls the KV cache over the
 * pair's link and decodes. Model time 0 is the wall-clock instant read once at the start; every
 * later time is that instant plus the monotonic clock, so logged durations are the model's, exact
 * to the µs, and the proxy's and the threads' own delays are network for the client. Each server's
 * OTLP export ({@code prefill-N/otlp.jsonl}, {@code decode-N/otlp.jsonl}, one span per line), each
 * decode server's {@code KV Transfer metrics} lines ({@code decode-N/server.log}, one per stats
 * interval with transfers, logged at whole seconds) and {@value #TRUTH_FILE} grow in the directory,
 * flushed per line. Thread-safe.
 */
public final class PdLive implements AutoCloseable {
  /** The true server components of every finished request (docs/formats/pd.md#live). */
  public static final String TRUTH_FILE = "server_truth.csv";

  /** How long after an interval's end its line is written, so that every admission is in. */
  private static final long TICK_SLACK_US = 20_000;

  private final PdScenario scenario;
  private final boolean sglang;
  private final Instant zero;
  private final long zeroNanos;
  private final long intervalS;
  private final List<PriorityQueue<Long>> prefillSlots;
  private final List<PriorityQueue<Long>> decodeSlots;
  private final long[][] linkFree;
  private final BufferedWriter[] prefillSpans;
  private final BufferedWriter[] decodeSpans;
  private final BufferedWriter[] decodeLogs;
  private final List<List<PdRequest>> pending;
  private final BufferedWriter truth;
  private final Thread ticker;
  private int admitted;
  private boolean closed;

  /** A request on its prefill server: model times in µs. */
  public record Prefill(
      int index,
      String id,
      int promptTokens,
      int server,
      long arrivalUs,
      long startUs,
      long firstTokenUs) {}

  /** The same request on its decode server: model times in µs. */
  public record Decode(
      Prefill prefill,
      int outputTokens,
      int server,
      long arrivalUs,
      long kvReadyUs,
      long kvBytes,
      long startUs,
      long firstTokenUs,
      long lastTokenUs) {
    /** Model time of output token {@code k} (1-based). */
    public long tokenUs(int k) {
      return firstTokenUs + (lastTokenUs - firstTokenUs) * (k - 1) / Math.max(1, outputTokens - 1);
    }

    PdRequest request() {
      Prefill p = prefill;
      return new PdRequest(
          p.index(),
          p.id(),
          p.promptTokens(),
          outputTokens,
          p.arrivalUs(),
          0,
          p.server(),
          p.arrivalUs(),
          p.startUs(),
          p.firstTokenUs(),
          server,
          arrivalUs,
          kvReadyUs,
          kvBytes,
          startUs,
          firstTokenUs,
          lastTokenUs,
          firstTokenUs,
          lastTokenUs);
    }
  }

  private PdLive(PdScenario scenario, Path dir, long intervalS, boolean sglang) throws IOException {
    this.scenario = scenario;
    this.sglang = sglang;
    this.intervalS = intervalS;
    this.zeroNanos = System.nanoTime();
    this.zero = Instant.now();
    this.prefillSlots = slots(scenario.prefillServers(), scenario.prefillSlots());
    this.decodeSlots = slots(scenario.decodeServers(), scenario.decodeSlots());
    this.linkFree = new long[scenario.prefillServers()][scenario.decodeServers()];
    Files.createDirectories(dir);
    prefillSpans = new BufferedWriter[scenario.prefillServers()];
    for (int p = 0; p < prefillSpans.length; p++) {
      // SGLang: the prefill server's time stats lines (docs/formats/pd.md#live)
      prefillSpans[p] =
          append(dir.resolve(PdFiles.prefill(p)).resolve(sglang ? "server.log" : "otlp.jsonl"));
    }
    decodeSpans = new BufferedWriter[scenario.decodeServers()];
    decodeLogs = new BufferedWriter[scenario.decodeServers()];
    pending = new ArrayList<>();
    for (int d = 0; d < decodeSpans.length; d++) {
      Path server = dir.resolve(PdFiles.decode(d));
      decodeSpans[d] = append(server.resolve(sglang ? "server.log" : "otlp.jsonl"));
      // SGLang logs no interval line: its decode server's log is the one above
      decodeLogs[d] = sglang ? decodeSpans[d] : append(server.resolve("server.log"));
      pending.add(new ArrayList<>());
    }
    boolean fresh = !Files.exists(dir.resolve(TRUTH_FILE));
    truth = append(dir.resolve(TRUTH_FILE));
    if (fresh) {
      truth.write(
          "request_id,prefill_instance,decode_instance,prefill_queue_ms,prefill_ms,"
              + "kv_transfer_ms,decode_queue_ms,decode_ms,prompt_tokens,output_tokens\n");
      truth.flush();
    }
    ticker = new Thread(this::tick, "tokentrace-pd-stats");
    ticker.setDaemon(true);
  }

  /**
   * Starts the model of {@code scenario} writing into {@code dir} (files appended to), with a
   * {@code KV Transfer metrics} line every {@code intervalS} seconds (vLLM's {@code
   * VLLM_LOG_STATS_INTERVAL}, 10 by default).
   *
   * @throws UncheckedIOException naming the directory that cannot be written
   */
  public static PdLive start(PdScenario scenario, Path dir, long intervalS) {
    return start(scenario, dir, intervalS, "vllm");
  }

  /**
   * As {@link #start(PdScenario, Path, long)} in {@code engine}'s formats: {@code vllm} as there,
   * or {@code sglang}: each server's {@code server.log} gets the time stats line of every request
   * it finished (docs/formats/pd.md#sglang-time-stats), the prefill server's when the request's
   * decode finishes (its line needs the transfer's end), and no interval line.
   */
  public static PdLive start(PdScenario scenario, Path dir, long intervalS, String engine) {
    requireNonNull(scenario, "scenario is null");
    if (!engine.equals("vllm") && !engine.equals("sglang")) {
      throw new IllegalArgumentException("live P/D serves vllm or sglang, not " + engine);
    }
    if (intervalS < 1) {
      throw new IllegalArgumentException("stats interval must be at least 1 s: " + intervalS);
    }
    try {
      PdLive live = new PdLive(scenario, dir, intervalS, engine.equals("sglang"));
      live.ticker.start();
      return live;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir, e);
    }
  }

  /** Wall-clock instant of model time 0. */
  public Instant zero() {
    return zero;
  }

  /** Model time now, µs. */
  public long nowUs() {
    return (System.nanoTime() - zeroNanos) / 1000;
  }

  /** Sleeps until model time {@code us}. */
  public void sleepUntil(long us) throws InterruptedException {
    long left;
    while ((left = us - nowUs()) > 0) {
      TimeUnit.MICROSECONDS.sleep(left);
    }
  }

  /** The proxy sends request {@code id} to a prefill server (round robin), which queues it. */
  public synchronized Prefill admitPrefill(String id, int promptTokens) {
    int index = admitted++;
    int server = index % scenario.prefillServers();
    long arrival = nowUs();
    PriorityQueue<Long> free = prefillSlots.get(server);
    long start = Math.max(arrival, free.poll());
    long first =
        start + scenario.prefillFixedUs() + Math.round(scenario.prefillPerTokenUs() * promptTokens);
    free.add(first);
    return new Prefill(index, id, promptTokens, server, arrival, start, first);
  }

  /** The prefill server has answered (model time past its first token): its span is exported. */
  public synchronized void prefillDone(Prefill prefill, String serverId) {
    if (closed || sglang) {
      return;
    }
    Decode none = new Decode(prefill, 1, 0, 0, 0, 0, 0, 0, 0);
    write(
        prefillSpans[prefill.server()],
        PdFiles.spanLine(List.of(none.request()), true, zero, r -> serverId));
  }

  /**
   * The proxy sends the request on to a decode server (round robin, rotated against the prefill
   * servers' turn as in {@link PdSimulation}), which pulls the prompt's KV cache over the pair's
   * link (one transfer at a time per link) and then waits for one of its slots.
   */
  public synchronized Decode admitDecode(Prefill prefill, int outputTokens) {
    int index = prefill.index();
    int p = prefill.server();
    int d = (index + index / scenario.prefillServers()) % scenario.decodeServers();
    long arrival = nowUs();
    long bytes = scenario.kvBytesPerToken() * prefill.promptTokens();
    long transferUs = Math.round(bytes * 8 / (scenario.gbps(p, d) * 1e9) * 1e6);
    long kvReady = Math.max(arrival, linkFree[p][d]) + transferUs;
    linkFree[p][d] = kvReady;
    PriorityQueue<Long> free = decodeSlots.get(d);
    long start = Math.max(kvReady, free.poll());
    long first = start + scenario.decodeFirstUs();
    long last = first + (long) (outputTokens - 1) * scenario.decodePerTokenUs();
    free.add(last);
    Decode decode =
        new Decode(prefill, outputTokens, d, arrival, kvReady, bytes, start, first, last);
    if (!sglang) {
      pending.get(d).add(decode.request()); // for its interval line
    }
    return decode;
  }

  /** The decode server has finished (model time past its last token): span and truth row. */
  public synchronized void decodeDone(Decode decode, String serverId) {
    if (closed) {
      return;
    }
    PdRequest r = decode.request();
    if (sglang) {
      write(
          prefillSpans[r.prefillServer()],
          PdSglangFiles.logLine(
              zero,
              r.prefillFirstTokenUs() + r.kvTransferUs(),
              PdSglangFiles.prefill(r, scenario, false, zero)));
      write(
          decodeSpans[r.decodeServer()],
          PdSglangFiles.logLine(
              zero, r.decodeLastTokenUs(), PdSglangFiles.decode(r, scenario, false, zero)));
    } else {
      write(decodeSpans[decode.server()], PdFiles.spanLine(List.of(r), false, zero, x -> serverId));
    }
    write(
        truth,
        String.join(
                ",",
                r.id(),
                PdFiles.prefill(r.prefillServer()),
                PdFiles.decode(r.decodeServer()),
                PdFiles.millis(r.prefillQueueUs()),
                PdFiles.millis(r.prefillUs()),
                PdFiles.millis(r.kvTransferUs()),
                PdFiles.millis(r.decodeQueueUs()),
                PdFiles.millis(r.decodeUs()),
                Integer.toString(r.promptTokens()),
                Integer.toString(r.outputTokens()))
            + "\n");
  }

  /** Model time of the first interval end after {@code us}: a whole second of the wall clock. */
  private long nextBoundaryUs(long us) {
    long zeroEpochUs = zero.getEpochSecond() * 1_000_000 + zero.getNano() / 1000;
    long epochS = Math.floorDiv(zeroEpochUs + us, 1_000_000L * intervalS) * intervalS + intervalS;
    return epochS * 1_000_000 - zeroEpochUs;
  }

  private void tick() {
    long boundary = nextBoundaryUs(nowUs());
    try {
      while (true) {
        sleepUntil(boundary + TICK_SLACK_US);
        synchronized (this) {
          if (closed) {
            return;
          }
          log(boundary, boundary);
        }
        boundary = nextBoundaryUs(boundary);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Each decode server's line at {@code boundary} for the transfers that ended by {@code upTo}. */
  private void log(long boundary, long upTo) {
    for (int d = 0; d < pending.size(); d++) {
      List<PdRequest> done = new ArrayList<>();
      for (Iterator<PdRequest> it = pending.get(d).iterator(); it.hasNext(); ) {
        PdRequest r = it.next();
        if (r.kvReadyUs() <= upTo) {
          done.add(r);
          it.remove();
        }
      }
      if (!done.isEmpty()) {
        write(decodeLogs[d], PdFiles.transferLine(zero.plusNanos(boundary * 1000), done));
      }
    }
  }

  /**
   * Stops the stats thread; transfers not logged yet are logged at the end of the interval in
   * progress (as the next interval line would), and the files are closed.
   */
  @Override
  public void close() {
    ticker.interrupt();
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      log(nextBoundaryUs(nowUs()), Long.MAX_VALUE);
      List<BufferedWriter> all = new ArrayList<>(List.of(prefillSpans));
      all.addAll(List.of(decodeSpans));
      if (!sglang) {
        all.addAll(List.of(decodeLogs));
      }
      all.add(truth);
      UncheckedIOException failure = null;
      for (BufferedWriter w : all) {
        try {
          w.close();
        } catch (IOException e) {
          failure = new UncheckedIOException("cannot close a P/D output file", e);
        }
      }
      if (failure != null) {
        throw failure;
      }
    }
  }

  private static void write(BufferedWriter out, String text) {
    try {
      out.write(text);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to a P/D output file", e);
    }
  }

  private static BufferedWriter append(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    return Files.newBufferedWriter(
        file, UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private static List<PriorityQueue<Long>> slots(int servers, int slots) {
    List<PriorityQueue<Long>> all = new ArrayList<>(servers);
    for (int s = 0; s < servers; s++) {
      PriorityQueue<Long> free = new PriorityQueue<>();
      for (int k = 0; k < slots; k++) {
        free.add(0L);
      }
      all.add(free);
    }
    return all;
  }
}
