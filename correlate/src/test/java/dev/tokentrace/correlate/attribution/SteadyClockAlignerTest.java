package dev.tokentrace.correlate.attribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The time-series clock offset without ID pairs ({@link SteadyClockAligner}) on synthetic runs: a
 * client on the wall clock (epoch ms), a server on a steady clock (ms since boot), 1-3 ms of
 * uplink.
 */
final class SteadyClockAlignerTest {
  /** Steady minus wall: the server booted 8 h before the run's start at 2026-03-01 12:00 UTC. */
  static final double OFFSET_MS = 8 * 3_600_000.0 - 1_772_366_400_000.0;

  private final SteadyClockAligner aligner = new SteadyClockAligner(5.0);

  /** A closed-loop-looking run: irregular gaps, durations that vary request to request. */
  static List<Request> run(long seed, int count) {
    Random random = new Random(seed);
    List<Request> requests = new ArrayList<>();
    double send = 1_772_366_400_000.0;
    for (int i = 0; i < count; i++) {
      send += 20 + random.nextDouble() * 400;
      double ttft = 15 + random.nextDouble() * 80;
      double e2e = ttft + 100 + random.nextDouble() * 900;
      requests.add(new Request(send, 1 + 2 * random.nextDouble(), ttft, e2e));
    }
    return requests;
  }

  /** One request: sent at {@code sendMs} (wall), arriving {@code uplinkMs} later; server times. */
  record Request(double sendMs, double uplinkMs, double ttftMs, double e2eMs) {
    TimeSeries.Point client() {
      // the client sees the server's times plus the round trip (uplink + as much downlink)
      return new TimeSeries.Point(sendMs, ttftMs + 2 * uplinkMs, e2eMs + 2 * uplinkMs);
    }

    TimeSeries.Point server(double offsetMs) {
      return new TimeSeries.Point(sendMs + offsetMs + uplinkMs, ttftMs, e2eMs);
    }

    Request delayed(double extraUplinkMs) {
      return new Request(sendMs, uplinkMs + extraUplinkMs, ttftMs, e2eMs);
    }
  }

  static TimeSeries clientSeries(List<Request> requests) {
    return TimeSeries.of(requests.stream().map(Request::client).toList());
  }

  static TimeSeries serverSeries(List<Request> requests, double offsetMs) {
    return TimeSeries.of(requests.stream().map(request -> request.server(offsetMs)).toList());
  }

  private SteadyClockAligner.Alignment align(TimeSeries client, TimeSeries server) {
    return aligner.align(client, server).orElseThrow();
  }

  @Test
  void recoversTheOffsetFromTheSendAndArrivalTimesAlone() {
    List<Request> requests = run(1, 80);
    SteadyClockAligner.Alignment alignment =
        align(clientSeries(requests), serverSeries(requests, OFFSET_MS));

    assertThat(alignment.offsetMs())
        .as("offset + median uplink")
        .isCloseTo(OFFSET_MS + 2, within(1.0));
    assertThat(alignment.pairs()).isEqualTo(80);
    assertThat(alignment.usedPairs()).isEqualTo(80);
    assertThat(alignment.spreadMs()).isLessThan(2.0);
    assertThat(alignment.fitMs()).isLessThan(1.5);
    assertThat(alignment.runnerUpFitMs()).as("no other offset fits").isGreaterThan(20.0);
    assertThat(alignment.clientRequests()).isEqualTo(80);
    assertThat(alignment.serverRequests()).isEqualTo(80);
  }

  @Test
  void pairsBurstsWhoseArrivalsAreReordered() {
    // bursts of 8 sends at one instant; arrivals in the order of their uplink jitter
    List<Request> requests = new ArrayList<>();
    Random random = new Random(2);
    for (int burst = 0; burst < 10; burst++) {
      double send = 1_772_366_400_000.0 + burst * 1_500.0 + random.nextDouble() * 500;
      for (int i = 0; i < 8; i++) {
        double ttft = 20 + 60 * i + random.nextDouble() * 10;
        requests.add(new Request(send, 1 + 4 * random.nextDouble(), ttft, ttft + 300 + 50 * i));
      }
    }
    SteadyClockAligner.Alignment alignment =
        align(clientSeries(requests), serverSeries(requests, OFFSET_MS));

    assertThat(alignment.offsetMs()).isCloseTo(OFFSET_MS + 3, within(2.0));
    assertThat(alignment.pairs()).isEqualTo(80);
    assertThat(alignment.runnerUpFitMs()).isGreaterThan(10.0);
  }

  @Test
  void toleratesRequestsMissingOnEitherSide() {
    List<Request> requests = run(3, 100);
    List<Request> sent = new ArrayList<>();
    List<Request> served = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      if (i % 5 != 1) {
        served.add(requests.get(i)); // every fifth send never reached the server
      }
      if (i % 7 != 3) {
        sent.add(requests.get(i)); // every seventh request came from another client
      }
    }
    // and the first ten server requests predate the client's run
    served.addAll(
        0, run(4, 10).stream().map(r -> new Request(r.sendMs() - 60_000, 1, 20, 300)).toList());
    SteadyClockAligner.Alignment alignment =
        align(clientSeries(sent), serverSeries(served, OFFSET_MS));

    long both =
        java.util.stream.IntStream.range(0, 100).filter(i -> i % 5 != 1 && i % 7 != 3).count();
    assertThat(alignment.offsetMs()).isCloseTo(OFFSET_MS + 2, within(1.0));
    assertThat(alignment.pairs()).isEqualTo((int) both);
    assertThat(alignment.clientRequests()).isEqualTo(sent.size());
    assertThat(alignment.serverRequests()).as("the server's requests within the run").isEqualTo(80);
  }

  @Test
  void leavesStalledRequestsUnpairedAndKeepsTheOffset() {
    // five requests stalled 30-60 ms on the way in (a proxy, a busy event loop)
    List<Request> requests = new ArrayList<>(run(5, 60));
    for (int i = 10; i < 60; i += 10) {
      requests.set(i, requests.get(i).delayed(30 + i / 2.0));
    }
    SteadyClockAligner.Alignment alignment =
        align(clientSeries(requests), serverSeries(requests, OFFSET_MS));

    assertThat(alignment.offsetMs()).isCloseTo(OFFSET_MS + 2, within(1.0));
    assertThat(alignment.pairs())
        .as("a stalled arrival is beyond max(10 ms, 5 fits) of its send")
        .isEqualTo(55);
    assertThat(alignment.usedPairs()).isEqualTo(55);
    assertThat(alignment.maxMs() - OFFSET_MS).isLessThan(4.0);
  }

  @Test
  void keepsTheOffsetUnderWideJitterWithLateOutliers() {
    // 0-20 ms of uplink jitter, and four arrivals 40 ms late: paired, but beyond 3 robust
    // deviations
    Random random = new Random(7);
    List<Request> requests = new ArrayList<>();
    for (Request request : run(8, 80)) {
      requests.add(
          new Request(
              request.sendMs(), 20 * random.nextDouble(), request.ttftMs(), request.e2eMs()));
    }
    for (int i = 5; i < 80; i += 20) {
      requests.set(i, requests.get(i).delayed(40));
    }
    SteadyClockAligner.Alignment alignment =
        align(clientSeries(requests), serverSeries(requests, OFFSET_MS));

    assertThat(alignment.offsetMs()).isCloseTo(OFFSET_MS + 10, within(3.0));
    assertThat(alignment.spreadMs()).as("1.4826 MAD of uniform 0-20 ms").isBetween(4.0, 9.0);
    assertThat(alignment.pairs())
        .as("late arrivals are beyond max(10 ms, 5 fits) of their send: never paired")
        .isEqualTo(76);
    assertThat(alignment.maxMs() - OFFSET_MS).isLessThan(21.0);
  }

  @Test
  void findsNothingWhenNoServerRequestFitsInsideAClientOne() {
    List<Request> requests = run(6, 20);
    List<TimeSeries.Point> longer =
        requests.stream()
            .map(r -> new TimeSeries.Point(r.sendMs() + OFFSET_MS, r.ttftMs(), r.e2eMs() + 5_000))
            .toList();

    assertThat(aligner.align(clientSeries(requests), TimeSeries.of(longer))).isEmpty();
  }

  @Test
  void reportsAFixedRateAsFittingSeveralOffsets() {
    // one request every 250 ms, all alike: every shift by the period fits as well
    List<Request> requests = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      requests.add(new Request(1_772_366_400_000.0 + 250.0 * i, 2.0, 30, 200));
    }
    SteadyClockAligner.Alignment alignment =
        align(clientSeries(requests), serverSeries(requests, OFFSET_MS));

    assertThat(alignment.fitMs()).isLessThan(1.0);
    assertThat(alignment.runnerUpFitMs()).isNotNull().isLessThan(1.0);
  }

  @Test
  void medianIsTheMiddleOrTheMeanOfTheMiddleTwo() {
    assertThat(SteadyClockAligner.median(new double[] {3, 1, 2})).isEqualTo(2.0);
    assertThat(SteadyClockAligner.median(new double[] {4, 1, 2, 3})).isEqualTo(2.5);
    assertThat(SteadyClockAligner.median(new double[] {1, Double.POSITIVE_INFINITY, 2}))
        .isEqualTo(2.0);
  }
}
