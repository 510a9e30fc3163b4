package dev.tokentrace.simulator;

import dev.tokentrace.simulator.scenario.ScenarioSettings;
import dev.tokentrace.simulator.scenario.Scenarios;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs the model and keeps a copy of every attempt when the client is done with it. */
class Recorder implements SimObserver {
  /** An attempt's values, copied. */
  record Done(
      String clientId,
      int attempt,
      boolean finalAttempt,
      boolean timedOut,
      boolean warmup,
      int concurrency,
      int outputTokens,
      int generated,
      int preemptions,
      long serverSeq,
      long issuedUs,
      long sentUs,
      long serverArrivalUs,
      long firstScheduledUs,
      long firstTokenUs,
      long lastTokenUs,
      long clientFirstTokenUs,
      long clientEndUs,
      long reportedTtftUs,
      int reportedOutputTokens) {
    long queueUs() {
      return firstScheduledUs - serverArrivalUs;
    }

    long ttftUs() {
      return clientFirstTokenUs - issuedUs;
    }
  }

  final List<Done> done = new ArrayList<>();
  long preemptions;
  long steps;
  int maxInFlight;
  private int inFlight;

  static Recorder run(String scenario, String... overrides) {
    Map<String, String> explicit = new LinkedHashMap<>();
    for (int i = 0; i < overrides.length; i += 2) {
      explicit.put(overrides[i], overrides[i + 1]);
    }
    ScenarioSettings settings = ScenarioSettings.from(Scenarios.effective(scenario, explicit));
    Recorder recorder = new Recorder();
    new Simulation(settings.simulation(), recorder).run();
    return recorder;
  }

  @Override
  public void serverArrival(RequestView request, ServerView server) {
    inFlight = server.running() + server.waiting();
    maxInFlight = Math.max(maxInFlight, inFlight);
  }

  @Override
  public void stepFinished(StepView step, ServerView server) {
    steps++;
  }

  @Override
  public void preempted(RequestView request, ServerView server) {
    preemptions++;
  }

  @Override
  public void clientDone(RequestView r) {
    done.add(
        new Done(
            r.clientId(),
            r.attempt(),
            r.finalAttempt(),
            r.timedOut(),
            r.warmup(),
            r.concurrency(),
            r.outputTokens(),
            r.generatedTokens(),
            r.preemptions(),
            r.serverSeq(),
            r.issuedUs(),
            r.sentUs(),
            r.serverArrivalUs(),
            r.firstScheduledUs(),
            r.firstTokenUs(),
            r.lastTokenUs(),
            r.clientFirstTokenUs(),
            r.clientEndUs(),
            r.reportedTtftUs(),
            r.reportedOutputTokens()));
  }

  List<Done> completed() {
    return done.stream().filter(d -> !d.timedOut()).toList();
  }
}
