package dev.tokentrace.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.simulator.scenario.ScenarioSettings;
import dev.tokentrace.simulator.scenario.Scenarios;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** 200k requests through the model: per-request state exists only while a request is in flight. */
final class BoundedMemoryTest {
  private static final int REQUESTS = 200_000;
  private static final int WATCHED = 50_000;

  @Test
  void forgetsRequestsOnceTheClientIsDoneWithThem() {
    ScenarioSettings settings =
        ScenarioSettings.from(
            Scenarios.effective(
                null,
                Map.of(
                    "--requests", Integer.toString(REQUESTS),
                    "--concurrency", "64",
                    "--prompt-tokens", "fixed:32",
                    "--output-tokens", "fixed:4")));
    Watcher watcher = new Watcher();

    new Simulation(settings.simulation(), watcher).run();

    assertThat(watcher.done).isEqualTo(REQUESTS);
    assertThat(watcher.maxInFlight).isLessThanOrEqualTo(64);
    // at the check, 100k requests later, the first 50k must be unreachable
    assertThat(watcher.stillReachable).isLessThanOrEqualTo(64);
  }

  private static final class Watcher extends Recorder {
    private final List<WeakReference<RequestView>> watched = new ArrayList<>();
    private int done;
    private int stillReachable = -1;

    @Override
    public void clientDone(RequestView request) {
      done++;
      if (watched.size() < WATCHED) {
        watched.add(new WeakReference<>(request));
      }
      if (done == 3 * WATCHED) {
        System.gc(); // serial GC (surefire argLine): a full collection clears weak references
        stillReachable = (int) watched.stream().filter(ref -> ref.get() != null).count();
      }
    }
  }
}
