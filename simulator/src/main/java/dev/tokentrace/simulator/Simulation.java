package dev.tokentrace.simulator;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.simulator.EventQueue.Event;
import dev.tokentrace.simulator.EventQueue.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * Runs the model: the client ({@link Client}), the network, and the server ({@link Scheduler}),
 * advancing from event to event and telling the observer every fact in time order. Time is in
 * integral microseconds, so every duration derived from it is exact. One use per instance; not
 * thread-safe.
 */
public final class Simulation implements Scheduler.Listener {
  private final SimulationSettings settings;
  private final SimObserver observer;
  private final EventQueue events = new EventQueue();
  private final Scheduler scheduler;
  private final Client client;
  private final Network network;
  private final List<Attempt> pendingAborts = new ArrayList<>();
  private @Nullable Step inFlight;
  private long nowUs;
  private boolean used;

  public Simulation(SimulationSettings settings, SimObserver observer) {
    this.settings = requireNonNull(settings, "settings is null");
    this.observer = requireNonNull(observer, "observer is null");
    SplittableRandom master = new SplittableRandom(settings.seed());
    this.network = new Network(settings.network(), master.split());
    this.scheduler = new Scheduler(settings, this, master.split(), network);
    this.client = new Client(settings, events, network, observer, master.split(), master.split());
  }

  /** Runs to the end: every phase's requests done and the server idle. */
  public void run() {
    if (used) {
      throw new IllegalStateException("a Simulation runs once");
    }
    used = true;
    events.add(0, Kind.PHASE_START, null);
    while (true) {
      long nextEventUs = events.nextTimeUs();
      if (inFlight == null && scheduler.hasWork() && nextEventUs > nowUs) {
        startStep();
        continue;
      }
      long nextStepUs = inFlight == null ? Long.MAX_VALUE : inFlight.endUs;
      if (nextEventUs == Long.MAX_VALUE && nextStepUs == Long.MAX_VALUE) {
        break;
      }
      if (nextStepUs <= nextEventUs) {
        moveTo(nextStepUs);
        finishStep();
      } else {
        Event event = events.poll();
        moveTo(event.timeUs());
        handle(event);
      }
    }
    observer.finished(scheduler);
  }

  private void moveTo(long timeUs) {
    if (timeUs > nowUs) {
      observer.advance(timeUs, scheduler);
      nowUs = timeUs;
      scheduler.now(timeUs);
    }
  }

  private void startStep() {
    Step step = scheduler.schedule();
    if (step == null) {
      throw new IllegalStateException(
          "scheduler stalled at " + nowUs + " us: waiting=" + scheduler.waiting());
    }
    inFlight = step;
    observer.stepStarted(step, scheduler);
  }

  private void finishStep() {
    Step step = requireNonNull(inFlight, "no step in flight");
    scheduler.complete(step);
    observer.stepFinished(step, scheduler);
    inFlight = null;
    for (Attempt attempt : pendingAborts) {
      abort(attempt);
    }
    pendingAborts.clear();
  }

  private void handle(Event event) {
    switch (event.kind()) {
      case PHASE_START:
        client.startPhase(nowUs);
        break;
      case ISSUE:
        client.issue(nowUs);
        break;
      case SERVER_ARRIVAL:
        Attempt attempt = attemptOf(event);
        attempt.serverArrivalUs = nowUs;
        scheduler.arrive(attempt);
        observer.serverArrival(attempt, scheduler);
        break;
      case CLIENT_DONE:
        client.done(attemptOf(event), nowUs);
        break;
      case CLIENT_TIMEOUT:
        client.timeout(attemptOf(event), nowUs);
        break;
      case SERVER_ABORT:
        if (inFlight != null) {
          pendingAborts.add(attemptOf(event)); // engines abort between steps
        } else {
          abort(attemptOf(event));
        }
        break;
      case RETRY:
        client.retry(attemptOf(event), nowUs);
        break;
      default:
        throw new IllegalStateException("unhandled event: " + event);
    }
  }

  private static Attempt attemptOf(Event event) {
    Attempt attempt = event.attempt();
    if (attempt == null) {
      throw new IllegalStateException("event without attempt: " + event);
    }
    return attempt;
  }

  private void abort(Attempt attempt) {
    if (scheduler.abort(attempt)) {
      observer.serverAborted(attempt, scheduler);
    }
  }

  @Override
  public void preempted(Attempt attempt) {
    observer.preempted(attempt, scheduler);
  }

  @Override
  public void finished(Attempt attempt) {
    events.add(attempt.clientLastTokenUs, Kind.CLIENT_DONE, attempt);
    observer.serverFinished(attempt, scheduler);
  }
}
