package dev.tokentrace.correlate.attribution;

import static dev.tokentrace.correlate.attribution.SteadyClockAlignerTest.OFFSET_MS;
import static dev.tokentrace.correlate.attribution.SteadyClockAlignerTest.clientSeries;
import static dev.tokentrace.correlate.attribution.SteadyClockAlignerTest.run;
import static dev.tokentrace.correlate.attribution.SteadyClockAlignerTest.serverSeries;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which client run goes with which steady-clock instance ({@link SteadyClockLinks}). */
final class SteadyClockLinksTest {
  private static final SteadyClockLinks.Run RUN_A = new SteadyClockLinks.Run("run-a", "wall");
  private static final SteadyClockLinks.Run RUN_B = new SteadyClockLinks.Run("run-b", "wall");

  private final SteadyClockAligner aligner = new SteadyClockAligner(5.0);

  private static SteadyClockLinks.Instance instance(String name, TimeSeries series) {
    return new SteadyClockLinks.Instance(name, "trtllm", series);
  }

  @Test
  void linksTwoRunsToTheTwoInstancesTheyWereSentTo() {
    // two benchmark runs at the same time against two servers booted at different times
    List<SteadyClockAlignerTest.Request> a = run(11, 60);
    List<SteadyClockAlignerTest.Request> b = run(12, 60);
    Map<SteadyClockLinks.Run, TimeSeries> runs = new LinkedHashMap<>();
    runs.put(RUN_A, clientSeries(a));
    runs.put(RUN_B, clientSeries(b));
    List<SteadyClockLinks.Instance> instances =
        List.of(
            instance("trt-1", serverSeries(b, OFFSET_MS + 3_600_000)),
            instance("trt-0", serverSeries(a, OFFSET_MS)));

    List<SteadyClockLinks.Link> links = SteadyClockLinks.link(runs, instances, aligner);

    assertThat(links)
        .extracting(link -> link.run().runId(), link -> link.instance().name(), link -> link.flag())
        .containsExactly(tuple("run-a", "trt-0", null), tuple("run-b", "trt-1", null));
    assertThat(links.get(1).alignment().offsetMs()).isCloseTo(OFFSET_MS + 3_600_002, within(1.0));
    assertThat(links.get(0).runnerUpFitMs())
        .as("the other instance, or another offset, fits far worse")
        .isGreaterThan(20 * links.get(0).alignment().fitMs());
  }

  @Test
  void letsRunsOneAfterAnotherShareAnInstance() {
    List<SteadyClockAlignerTest.Request> first = run(13, 40);
    List<SteadyClockAlignerTest.Request> second =
        run(14, 40).stream()
            .map(
                r ->
                    new SteadyClockAlignerTest.Request(
                        r.sendMs() + 600_000, r.uplinkMs(), r.ttftMs(), r.e2eMs()))
            .toList();
    List<SteadyClockAlignerTest.Request> both = new ArrayList<>(first);
    both.addAll(second);
    Map<SteadyClockLinks.Run, TimeSeries> runs = new LinkedHashMap<>();
    runs.put(RUN_A, clientSeries(first));
    runs.put(RUN_B, clientSeries(second));

    List<SteadyClockLinks.Link> links =
        SteadyClockLinks.link(
            runs, List.of(instance("trt-0", serverSeries(both, OFFSET_MS))), aligner);

    assertThat(links)
        .extracting(link -> link.instance().name(), link -> link.flag())
        .containsExactly(tuple("trt-0", null), tuple("trt-0", null));
    assertThat(links)
        .allSatisfy(
            link -> assertThat(link.alignment().offsetMs()).isCloseTo(OFFSET_MS + 2, within(1.0)));
  }

  @Test
  void flagsARunThatFitsTwoInstancesAlike() {
    // the same load replayed against two servers: nothing tells them apart
    List<SteadyClockAlignerTest.Request> a = run(15, 50);
    Map<SteadyClockLinks.Run, TimeSeries> runs = Map.of(RUN_A, clientSeries(a));
    List<SteadyClockLinks.Instance> instances =
        List.of(
            instance("trt-0", serverSeries(a, OFFSET_MS)),
            instance("trt-1", serverSeries(a, OFFSET_MS + 1_000_000)));

    List<SteadyClockLinks.Link> links = SteadyClockLinks.link(runs, instances, aligner);

    assertThat(links).hasSize(1);
    assertThat(links.get(0).ambiguous()).isTrue();
    assertThat(links.get(0).flag()).isEqualTo("ambiguous");
  }

  @Test
  void flagsAFixedRateRunAsAmbiguous() {
    List<SteadyClockAlignerTest.Request> periodic = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      periodic.add(
          new SteadyClockAlignerTest.Request(1_772_366_400_000.0 + 250.0 * i, 2.0, 30, 200));
    }
    List<SteadyClockLinks.Link> links =
        SteadyClockLinks.link(
            Map.of(RUN_A, clientSeries(periodic)),
            List.of(instance("trt-0", serverSeries(periodic, OFFSET_MS))),
            aligner);

    assertThat(links)
        .singleElement()
        .extracting(SteadyClockLinks.Link::flag)
        .isEqualTo("ambiguous");
  }

  @Test
  void linksNothingToAnUnrelatedServer() {
    Map<SteadyClockLinks.Run, TimeSeries> runs = Map.of(RUN_A, clientSeries(run(16, 40)));
    List<SteadyClockLinks.Instance> instances =
        List.of(instance("trt-0", serverSeries(run(17, 40), OFFSET_MS)));

    assertThat(SteadyClockLinks.link(runs, instances, aligner)).isEmpty();
  }

  @Test
  void flagsFewPairs() {
    List<SteadyClockAlignerTest.Request> few = run(18, 4);
    List<SteadyClockLinks.Link> links =
        SteadyClockLinks.link(
            Map.of(RUN_A, clientSeries(few)),
            List.of(instance("trt-0", serverSeries(few, OFFSET_MS))),
            aligner);

    assertThat(links)
        .singleElement()
        .extracting(SteadyClockLinks.Link::flag)
        .isEqualTo("few_pairs");
  }
}
