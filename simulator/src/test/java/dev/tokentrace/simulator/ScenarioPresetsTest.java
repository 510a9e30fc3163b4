package dev.tokentrace.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every scenario preset makes the cause it is named for the unambiguous bottleneck: the component
 * with the largest share of the summed end-to-end time over completed, non-warm-up requests (how
 * the accuracy tests derive a scenario's true bottleneck from truth.csv), ahead of the next one by
 * at least {@value #MARGIN}. Also with the shortened outputs the checked-in samples use
 * (regenerate.sh), so a sample can never silently name another cause than its directory does.
 */
final class ScenarioPresetsTest {
  /** Lead of the top share over the second, as a fraction of the summed end-to-end time. */
  private static final double MARGIN = 0.10;

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource({
    "baseline, '', decode",
    "concurrency-sweep, '', queue",
    "concurrency-sweep, '--requests 12 --output-tokens lognormal:24,0.3', queue",
    "prefill-bound, '', prefill",
    "decode-bound, '', decode",
    "network-bound, '', network",
    "client-queue-bound, '', client_queue",
    "client-queue-bound, '--requests 40 --output-tokens lognormal:48,0.3', client_queue",
    "preemption, '', decode",
    "warmup, '', decode",
    "retries, '', queue",
    "heartbeats, '', queue"
  })
  void presetMakesItsCauseTheUnambiguousBottleneck(
      String scenario, String overrides, String cause) {
    Recorder run =
        Recorder.run(scenario, overrides.isBlank() ? new String[0] : overrides.split(" "));

    List<Map.Entry<String, Double>> ranked =
        shares(run).entrySet().stream()
            .sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()))
            .toList();
    assertThat(ranked.get(0).getKey()).as("largest share, of %s", ranked).isEqualTo(cause);
    assertThat(ranked.get(0).getValue() - ranked.get(1).getValue())
        .as("lead over %s", ranked.get(1))
        .isGreaterThanOrEqualTo(MARGIN);
  }

  /** Each component's share of the summed client e2e, as truth.csv defines the components. */
  private static Map<String, Double> shares(Recorder run) {
    long[] sums = new long[5];
    long e2e = 0;
    for (Recorder.Done done : run.completed()) {
      if (done.warmup() || !done.finalAttempt()) {
        continue;
      }
      long total = done.clientEndUs() - done.issuedUs();
      long clientQueue = done.sentUs() - done.issuedUs();
      long queue = done.queueUs();
      long prefill = done.firstTokenUs() - done.firstScheduledUs();
      long decode = done.lastTokenUs() - done.firstTokenUs();
      long[] parts = {
        clientQueue, total - clientQueue - queue - prefill - decode, queue, prefill, decode
      };
      for (int i = 0; i < parts.length; i++) {
        sums[i] += parts[i];
      }
      e2e += total;
    }
    String[] names = {"client_queue", "network", "queue", "prefill", "decode"};
    Map<String, Double> shares = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) {
      shares.put(names[i], (double) sums[i] / e2e);
    }
    return shares;
  }
}
