package dev.tokentrace.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.simulator.Recorder.Done;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

final class SimulationTest {
  @Test
  void everyRequestCompletesWithItsOutputLengthInTimeOrder() {
    Recorder run = Recorder.run("baseline");

    assertThat(run.done).hasSize(100);
    for (Done done : run.done) {
      assertThat(done.generated()).isEqualTo(done.outputTokens());
      assertThat(done.sentUs()).isGreaterThanOrEqualTo(done.issuedUs());
      assertThat(done.serverArrivalUs()).isGreaterThan(done.sentUs());
      assertThat(done.firstScheduledUs()).isGreaterThanOrEqualTo(done.serverArrivalUs());
      assertThat(done.firstTokenUs()).isGreaterThan(done.firstScheduledUs());
      assertThat(done.lastTokenUs()).isGreaterThanOrEqualTo(done.firstTokenUs());
      assertThat(done.clientFirstTokenUs()).isGreaterThan(done.firstTokenUs());
      assertThat(done.clientEndUs()).isGreaterThan(done.lastTokenUs());
    }
  }

  @Test
  void oneRequestAtATimeNeverQueuesOnTheServer() {
    Recorder run = Recorder.run("baseline");

    assertThat(run.done).allSatisfy(done -> assertThat(done.queueUs()).isZero());
    assertThat(run.maxInFlight).isEqualTo(1);
  }

  @Test
  void serverQueueingGrowsWithConcurrencyBeyondTheBatchSize() {
    Recorder run = Recorder.run("concurrency-sweep");

    Map<Integer, Long> queueByLevel = median(run.completed(), Done::queueUs);
    Map<Integer, Long> ttftByLevel = median(run.completed(), Done::ttftUs);

    assertThat(queueByLevel).containsOnlyKeys(1, 4, 8, 16);
    assertThat(queueByLevel.get(1)).isZero();
    assertThat(queueByLevel.get(8)).isGreaterThan(queueByLevel.get(4));
    assertThat(queueByLevel.get(16)).isGreaterThan(queueByLevel.get(8));
    // the seed's rule: FTL up more than 50% from concurrency 1 to 8 means queueing dominates
    assertThat(ttftByLevel.get(8)).isGreaterThan(ttftByLevel.get(1) * 3 / 2);
  }

  @Test
  void preemptsAndRecomputesUnderKvPressureOnly() {
    Recorder pressure = Recorder.run("preemption");
    Recorder relaxed = Recorder.run("preemption", "--kv-capacity-tokens", "400000");

    assertThat(pressure.preemptions).isPositive();
    assertThat(pressure.done.stream().mapToInt(Done::preemptions).sum())
        .isEqualTo((int) pressure.preemptions);
    assertThat(pressure.completed()).allSatisfy(d -> assertThat(d.generated()).isEqualTo(1024));
    assertThat(relaxed.preemptions).isZero();
  }

  @Test
  void warmupRequestsAreSlower() {
    Recorder run = Recorder.run("warmup");

    List<Done> warm = run.done.stream().filter(Done::warmup).toList();
    List<Done> rest = run.done.stream().filter(d -> !d.warmup()).toList();
    assertThat(warm).hasSize(8);
    assertThat(warm.stream().mapToLong(Done::ttftUs).min().orElseThrow())
        .isGreaterThan(rest.stream().mapToLong(Done::ttftUs).max().orElseThrow());
  }

  @Test
  void timedOutRequestsAreRetriedWithTheSameIdAndReachTheServerTwice() {
    Recorder run = Recorder.run("retries");

    List<Done> retried = run.done.stream().filter(d -> d.attempt() > 1).toList();
    assertThat(retried).isNotEmpty();
    for (Done retry : retried) {
      List<Done> all =
          run.done.stream().filter(d -> d.clientId().equals(retry.clientId())).toList();
      assertThat(all).hasSizeGreaterThanOrEqualTo(2);
      assertThat(all.get(0).timedOut()).isTrue();
      assertThat(all.get(0).finalAttempt()).isFalse();
      assertThat(all.stream().filter(d -> d.serverSeq() >= 0).count()).isGreaterThanOrEqualTo(2);
    }
    assertThat(run.done.stream().filter(Done::finalAttempt).count()).isEqualTo(120);
  }

  @Test
  void aNaiveClientCountsHeartbeatsAsTokens() {
    Recorder run = Recorder.run("heartbeats");

    List<Done> fooled =
        run.done.stream().filter(d -> d.reportedOutputTokens() > d.generated()).toList();
    assertThat(fooled).isNotEmpty();
    assertThat(fooled).allSatisfy(d -> assertThat(d.reportedTtftUs()).isLessThan(d.ttftUs()));
    Recorder honest = Recorder.run("heartbeats", "--client-counts-heartbeats", "false");
    assertThat(honest.done)
        .allSatisfy(d -> assertThat(d.reportedOutputTokens()).isEqualTo(d.generated()));
  }

  @Test
  void poissonArrivalsWaitForTheClientSemaphore() {
    Recorder run = Recorder.run("client-queue-bound");

    long queued = run.done.stream().filter(d -> d.sentUs() > d.issuedUs()).count();
    assertThat(queued).isGreaterThan(run.done.size() / 2);
    assertThat(run.maxInFlight).isLessThanOrEqualTo(4);
  }

  @Test
  void sameSeedSameEventsOtherSeedOthers() {
    assertThat(Recorder.run("concurrency-sweep").done)
        .isEqualTo(Recorder.run("concurrency-sweep").done);
    assertThat(Recorder.run("concurrency-sweep", "--seed", "7").done)
        .isNotEqualTo(Recorder.run("concurrency-sweep").done);
  }

  @Test
  void runsOnlyOnce() {
    WorkloadSettings workload =
        new WorkloadSettings(
            1,
            List.of(1),
            ArrivalMode.CLOSED,
            1,
            0,
            0,
            new Distribution.Fixed(8),
            new Distribution.Fixed(2),
            64,
            0);
    ServerSettings server =
        new ServerSettings(4, 64, true, true, 1, 0, 0, 0, 0, 1024, 16, false, 0);
    NetworkSettings network =
        new NetworkSettings(new Distribution.Fixed(1), new Distribution.Fixed(1), -1, 0, 0);
    ClientSettings client = new ClientSettings(0, 0, 0, 0, false, IdScheme.PREFIX_INDEX, "", false);
    Simulation simulation =
        new Simulation(
            new SimulationSettings(1, workload, server, network, client), new SimObserver() {});
    simulation.run();

    assertThatThrownBy(simulation::run).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void rejectsAKvCacheSmallerThanOneRequest() {
    assertThatThrownBy(() -> Recorder.run("baseline", "--kv-capacity-tokens", "1000"))
        .hasMessageContaining("kvCapacityTokens (1000) must hold one request");
  }

  private static Map<Integer, Long> median(List<Done> done, ToLongFunction<Done> value) {
    return done.stream()
        .collect(
            Collectors.groupingBy(
                Done::concurrency,
                Collectors.collectingAndThen(
                    Collectors.toList(),
                    list -> list.stream().mapToLong(value).sorted().toArray()[list.size() / 2])));
  }
}
