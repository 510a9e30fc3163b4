package dev.tokentrace.loadgen;

import static java.util.Objects.requireNonNull;

import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * Runs one load: issues requests by {@link LoadSettings} (fixed concurrency or fixed rate), writes
 * each outcome to the client CSV as it completes, and stops issuing when the server turns out to be
 * unreachable before anything succeeded. The entry point of loadgen; one run per instance.
 */
public final class LoadRunner {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private final LoadSettings settings;
  private final Plan plan;
  private final LoadSummary summary = new LoadSummary();

  public LoadRunner(LoadSettings settings) {
    this.settings = requireNonNull(settings, "settings is null");
    long durationNanos =
        settings.duration() == null ? Long.MAX_VALUE : settings.duration().toNanos();
    this.plan = new Plan(settings.warmup(), settings.requests(), durationNanos);
  }

  /**
   * Runs to the end and returns what happened.
   *
   * @throws java.io.UncheckedIOException naming the output file that could not be written
   */
  public LoadSummary run() throws InterruptedException {
    try (ClientTimingsFile csv = ClientTimingsFile.create(settings.out(), false);
        ItlCsv itls = ItlCsv.create(settings.itlOut())) {
      return run(
          csv,
          itls,
          new ClientTimingsFile.Columns(settings.promptTokens(), fixedConcurrency(), null));
    }
  }

  /**
   * Runs to the end into files a caller holds open (a {@link MatrixRunner} cell); returns this
   * run's summary.
   */
  LoadSummary run(ClientTimingsFile csv, ItlCsv itls, ClientTimingsFile.Columns columns)
      throws InterruptedException {
    ExecutorService pool = Executors.newCachedThreadPool(LoadRunner::daemon);
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .executor(pool)
            .build();
    RequestSender sender = new RequestSender(client, settings);
    try {
      Recorder recorder = new Recorder(csv, itls, columns);
      if (settings.rate() == null) {
        closedLoop(sender, recorder);
      } else {
        openLoop(sender, recorder, pool);
      }
    } finally {
      pool.shutdownNow();
    }
    return summary;
  }

  /** The CSV's concurrency column: the worker count of a closed loop; empty for a rate. */
  private int fixedConcurrency() {
    return settings.rate() == null ? settings.concurrency() : 0;
  }

  /** {@code concurrency} workers, each sending its next request as soon as one ends. */
  private void closedLoop(RequestSender sender, Recorder recorder) throws InterruptedException {
    long start = System.nanoTime();
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < settings.concurrency(); i++) {
      Thread worker =
          new Thread(
              () -> {
                long index;
                while ((index = plan.next(System.nanoTime() - start)) >= 0) {
                  if (!issue(sender, recorder, index, System.nanoTime(), null)) {
                    return;
                  }
                }
              },
              "tokentrace-loadgen-" + i);
      worker.setDaemon(true);
      workers.add(worker);
      worker.start();
    }
    for (Thread worker : workers) {
      worker.join();
    }
  }

  /** Requests issued on the arrival schedule; at most {@code concurrency} in flight when set. */
  private void openLoop(RequestSender sender, Recorder recorder, ExecutorService pool)
      throws InterruptedException {
    Arrivals arrivals = new Arrivals(settings.arrival(), settings.rate(), settings.seed());
    Semaphore slots =
        settings.concurrency() > 0 ? new Semaphore(settings.concurrency(), true) : null;
    long start = System.nanoTime();
    List<java.util.concurrent.Future<?>> inFlight = new ArrayList<>();
    while (true) {
      long due = start + arrivals.nextOffsetNanos();
      long waitNanos;
      while ((waitNanos = due - System.nanoTime()) > 0) {
        LockSupport.parkNanos(waitNanos);
      }
      long index = plan.next(System.nanoTime() - start);
      if (index < 0) {
        break;
      }
      long issued = System.nanoTime();
      inFlight.add(pool.submit(() -> issue(sender, recorder, index, issued, slots)));
    }
    for (java.util.concurrent.Future<?> request : inFlight) {
      try {
        request.get();
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException("a loadgen request failed unexpectedly", e.getCause());
      }
    }
  }

  /** Sends one request and records it; false when the run should stop. */
  private boolean issue(
      RequestSender sender,
      Recorder recorder,
      long index,
      long issuedNanos,
      @Nullable Semaphore slots) {
    Instant issued = Instant.now().minusNanos(System.nanoTime() - issuedNanos);
    String id = settings.idPrefix() + index;
    try {
      if (slots != null) {
        slots.acquire(); // the client's own queue: measured as client_queue_ms
      }
      try {
        Outcome outcome = sender.send(id, plan.warmup(index), issued, issuedNanos);
        recorder.record(outcome);
        if (RequestSender.Failure.UNREACHABLE.equals(outcome.status())
            && summary.succeeded() == 0) {
          plan.stop(); // nothing got through: the URL is wrong or the server is down
          return false;
        }
        return true;
      } finally {
        if (slots != null) {
          slots.release();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      plan.stop();
      return false;
    }
  }

  /** Writes an outcome to the files and the summary. */
  private final class Recorder {
    private final ClientTimingsFile csv;
    private final ItlCsv itls;
    private final ClientTimingsFile.Columns columns;

    Recorder(ClientTimingsFile csv, ItlCsv itls, ClientTimingsFile.Columns columns) {
      this.csv = csv;
      this.itls = itls;
      this.columns = columns;
    }

    void record(Outcome outcome) {
      csv.write(outcome, columns);
      itls.write(outcome);
      summary.add(outcome);
    }
  }

  private static Thread daemon(Runnable task) {
    Thread thread = new Thread(task, "tokentrace-loadgen-http");
    thread.setDaemon(true);
    return thread;
  }
}
