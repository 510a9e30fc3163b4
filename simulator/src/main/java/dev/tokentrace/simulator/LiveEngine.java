package dev.tokentrace.simulator;

import static java.util.Objects.requireNonNull;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * The simulated server's {@link Scheduler} driven in real time: one engine thread forms a batch,
 * sleeps for the step's modelled duration, applies it and hands each new token to the request's
 * stream, as a real engine's busy loop does. Arrivals and aborts reach it through an inbox and are
 * taken between steps only. Model time is microseconds since {@link #start()} on the monotonic
 * clock. When the thread wakes late (a loaded machine), the step ends when it actually woke, so
 * every time the observer records is what the server really did. Thread-safe: {@link #submit} and
 * {@link #abort} may be called from any thread; everything else runs on the engine thread.
 */
public final class LiveEngine implements AutoCloseable, Scheduler.Listener {
  /** How often an idle engine lets the observers' timers (stats line, span export) run. */
  private static final long IDLE_TICK_MS = 100;

  /** What the engine tells a request's HTTP stream; called on the engine thread. */
  public interface Stream {
    /** The request produced its {@code generated}-th token; {@code last} when it is finished. */
    void token(int generated, boolean last);

    /** The server dropped the request (the client went away). */
    default void aborted() {}
  }

  /**
   * A submitted request: what the server knows of it. {@code requestId} is the client's ID, or one
   * the server made up (vLLM then uses a random base in the same places).
   */
  public record Submission(String requestId, int promptTokens, int maxTokens, long nonce) {
    public Submission {
      requireNonNull(requestId, "requestId is null");
      Checks.positive("promptTokens", promptTokens);
      Checks.positive("maxTokens", maxTokens);
    }
  }

  /** A request handed to the engine; {@link #abort} takes it back. */
  public static final class Ticket {
    private final Attempt attempt;
    private final Stream stream;

    private Ticket(Attempt attempt, Stream stream) {
      this.attempt = attempt;
      this.stream = stream;
    }
  }

  private final SimObserver observer;
  private final Scheduler scheduler;
  private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
  private final Map<Attempt, Stream> streams = new IdentityHashMap<>();
  private volatile @Nullable RuntimeException failure;
  private final Thread thread;
  private volatile boolean stopping;
  private volatile long startNanos;
  private long nowUs;

  public LiveEngine(SimulationSettings settings, SimObserver observer) {
    requireNonNull(settings, "settings is null");
    this.observer = requireNonNull(observer, "observer is null");
    SplittableRandom master = new SplittableRandom(settings.seed());
    Network network = new Network(settings.network(), master.split());
    this.scheduler = new Scheduler(settings, this, master.split(), network);
    this.thread = new Thread(this::run, "tokentrace-live-engine");
    thread.setDaemon(true);
  }

  /** Starts the engine thread; model time 0 is now. */
  public void start() {
    start(System.nanoTime());
  }

  /**
   * Starts the engine thread with model time 0 at {@code zeroNanos} on {@link System#nanoTime()}
   * (at or before now): a server that read the wall clock at that instant places every model time
   * on it without a gap for what it did before starting the engine (docs/live.md#simulated-server).
   */
  public void start(long zeroNanos) {
    if (zeroNanos - System.nanoTime() > 0) {
      throw new IllegalArgumentException("model time 0 must not lie in the future");
    }
    startNanos = zeroNanos;
    thread.start();
  }

  /** Microseconds since {@link #start()} on the monotonic clock. */
  public long nowUs() {
    return (System.nanoTime() - startNanos) / 1000;
  }

  /** Queues a request that arrived now; its tokens go to {@code stream}. */
  public Ticket submit(Submission submission, Stream stream) {
    Attempt attempt =
        new Attempt(
            new Attempt.Request(
                submission.requestId(),
                true,
                0,
                0,
                0,
                false,
                submission.promptTokens(),
                submission.maxTokens()),
            1,
            submission.nonce());
    attempt.serverArrivalUs = nowUs();
    Ticket ticket = new Ticket(attempt, stream);
    inbox.add(ticket);
    return ticket;
  }

  /** Drops a request whose client went away; the engine aborts it between steps. */
  public void abort(Ticket ticket) {
    inbox.add(new Abort(ticket.attempt));
  }

  private record Abort(Attempt attempt) {}

  private void run() {
    try {
      loop();
    } catch (RuntimeException e) {
      failure = e; // reported by close(); requests in flight stay unanswered
      stopping = true;
    }
  }

  /** Why the engine thread died, or null while it runs (or ended normally). */
  public @Nullable RuntimeException failure() {
    return failure;
  }

  private void loop() {
    while (!stopping) {
      if (!scheduler.hasWork()) {
        awaitArrival();
        continue;
      }
      moveTo(nowUs());
      Step step = scheduler.schedule();
      if (step == null) {
        throw new IllegalStateException(
            "scheduler stalled at " + nowUs + " us: waiting=" + scheduler.waiting());
      }
      observer.stepStarted(step, scheduler);
      sleepUntil(step.endUs);
      step.endUs = Math.max(step.endUs, nowUs()); // the step ended when the engine woke
      moveTo(step.endUs);
      scheduler.complete(step);
      observer.stepFinished(step, scheduler);
      deliver(step);
      takeInbox();
    }
  }

  private void awaitArrival() {
    try {
      Object first = inbox.poll(IDLE_TICK_MS, TimeUnit.MILLISECONDS);
      moveTo(nowUs());
      if (first != null) {
        take(first);
        takeInbox();
      }
    } catch (InterruptedException e) {
      stopping = true; // close() interrupts the idle engine to end it
    }
  }

  private void takeInbox() {
    for (Object next = inbox.poll(); next != null; next = inbox.poll()) {
      take(next);
    }
  }

  private void take(Object message) {
    if (message instanceof Ticket) {
      Ticket ticket = (Ticket) message;
      streams.put(ticket.attempt, ticket.stream);
      scheduler.arrive(ticket.attempt);
      observer.serverArrival(ticket.attempt, scheduler);
    } else if (message instanceof Abort) {
      Attempt attempt = ((Abort) message).attempt();
      if (scheduler.abort(attempt)) {
        observer.serverAborted(attempt, scheduler);
        Stream stream = streams.remove(attempt);
        if (stream != null) {
          stream.aborted();
        }
      }
    } else {
      throw new IllegalStateException("unhandled message: " + message);
    }
  }

  /** Hands every token of the step to its stream, in batch order. */
  private void deliver(Step step) {
    for (int i = 0; i < step.size; i++) {
      Attempt attempt = step.batch[i];
      if (attempt.lastStep != step.index) {
        continue; // a prefill chunk or a preempted request: no token this step
      }
      boolean last = attempt.generated >= attempt.outputTokens;
      Stream stream = last ? streams.remove(attempt) : streams.get(attempt);
      if (stream != null) {
        stream.token(attempt.generated, last);
      }
    }
  }

  private void moveTo(long timeUs) {
    if (timeUs > nowUs) {
      observer.advance(timeUs, scheduler);
      nowUs = timeUs;
      scheduler.now(timeUs);
    }
  }

  private void sleepUntil(long endUs) {
    long remainingUs;
    while ((remainingUs = endUs - nowUs()) > 0) {
      LockSupport.parkNanos(remainingUs * 1000);
    }
  }

  @Override
  public void preempted(Attempt attempt) {
    observer.preempted(attempt, scheduler);
  }

  @Override
  public void finished(Attempt attempt) {
    attempt.finalAttempt = true;
    observer.serverFinished(attempt, scheduler);
  }

  /**
   * Stops the engine thread after the step in flight, then lets the observers write what they still
   * hold. Requests still in flight are left unanswered.
   */
  @Override
  public void close() {
    stopping = true;
    thread.interrupt();
    try {
      thread.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      throw new IllegalStateException("live engine did not stop within 30 s");
    }
    moveTo(nowUs());
    observer.finished(scheduler);
    RuntimeException failed = failure;
    if (failed != null) {
      throw new IllegalStateException("live engine failed: " + failed.getMessage(), failed);
    }
  }
}
