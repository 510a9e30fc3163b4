package dev.tokentrace.report.analysis;

import dev.tokentrace.report.model.ComponentKind;
import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.Text;
import dev.tokentrace.store.rows.DataQuality;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The report's 3-5 sentence bottleneck conclusion (the seed's "瓶颈结论"), chosen from the numbers of
 * {@link ReportData}: which component takes the largest share, the next one, the seed's FTL growth
 * rule across the concurrency levels of each run (never across runs), what lies outside the engine,
 * and how much data it rests on. Every number is one SQL computed; this class only picks and
 * phrases. With several runs the shares are pooled ("Over all N runs") and each run has its own
 * conclusion ({@link RunSentences}).
 *
 * <p>(Slightly over the house's 200 lines: every no-attribution case has its own sentence.)
 */
final class BottleneckConclusion {
  /** Client queueing at or above this share of the time gets its own sentence. */
  static final double CLIENT_QUEUE_NOTABLE = 0.05;

  /** A join rate below this, or fewer than half the requests attributed, gets a caveat. */
  static final double JOIN_RATE_CAVEAT = 0.9;

  private BottleneckConclusion() {}

  static List<Text> sentences(ReportData data) {
    List<Text> sentences = new ArrayList<>();
    List<ReportData.Component> ranked = ranked(data);
    if (ranked.size() < 2) {
      sentences.add(noAttribution(data.quality()));
      ftl(data).map(Text::of).ifPresent(sentences::add);
      sentences.add(Text.of(concurrency(data, null)));
      baselineConfiguration(data).ifPresent(sentences::add);
      return sentences;
    }
    ReportData.Component top = ranked.get(0);
    ReportData.Component second = ranked.get(1);
    int runs = RunFindings.runIds(data).size();
    sentences.add(
        Text.format(
            "%s takes the largest share, %s of the end-to-end time of %d attributed requests"
                + " (P50 %s ms, P95 %s ms), and is the largest component in %d of them.",
            runs > 1 ? "Over all " + runs + " runs, " + label(top) : capitalized(label(top)),
            Numbers.share(top.share()),
            top.requests(),
            Numbers.ms(top.p50Ms()),
            Numbers.ms(top.p95Ms()),
            top.dominantRequests()));
    sentences.add(
        Text.format(
            "Next is %s with %s (P95 %s ms).",
            label(second), Numbers.share(second.share()), Numbers.ms(second.p95Ms())));
    sentences.add(Text.of(concurrency(data, top)));
    outsideTheEngine(data, top).map(Text::of).ifPresent(sentences::add);
    caveat(data.quality()).map(Text::of).ifPresent(sentences::add);
    baselineConfiguration(data).ifPresent(sentences::add);
    return sentences;
  }

  /**
   * With a baseline, whether it ran under the same server configuration: the differences are named,
   * because a latency change between runs of different settings is not a like-for-like comparison.
   */
  private static Optional<Text> baselineConfiguration(ReportData data) {
    ConfigDiff.Result result = ConfigDiff.of(data);
    return result == null ? Optional.empty() : Optional.of(ConfigDiff.sentence(result));
  }

  /** The five components of the overall grouping, largest share first. */
  private static List<ReportData.Component> ranked(ReportData data) {
    return data.components("all").stream()
        .filter(row -> !row.component().equals("total") && row.share() != null)
        .sorted(Comparator.comparing(ReportData.Component::share).reversed())
        .toList();
  }

  /**
   * The seed's FTL rule, applied within each run only (a run is one workload; levels of different
   * runs are not comparable); {@code top} is the component with the largest share, if any. The rule
   * looks at first-token latency only, so when another component takes the largest share of the
   * end-to-end time the sentence must not call queueing "the main problem" as well.
   */
  private static String concurrency(ReportData data, ReportData.@Nullable Component top) {
    Map<String, List<ReportData.ConcurrencyLevel>> series =
        ConcurrencySeries.of(data.concurrency());
    if (series.size() <= 1) {
      List<ReportData.ConcurrencyLevel> levels =
          series.isEmpty() ? List.of() : series.values().iterator().next();
      return ConcurrencySeries.oneSeries(levels, top);
    }
    Map<String, List<ReportData.ConcurrencyLevel>> sweeps = ConcurrencySeries.sweeps(series);
    if (sweeps.isEmpty()) {
      return ConcurrencySeries.noSweep(data, series);
    }
    if (sweeps.size() == 1) {
      Map.Entry<String, List<ReportData.ConcurrencyLevel>> sweep =
          sweeps.entrySet().iterator().next();
      return "In run "
          + sweep.getKey()
          + ", "
          + ConcurrencySeries.uncapitalized(
              ConcurrencySeries.oneSeries(
                  sweep.getValue(), ConcurrencySeries.runTop(data, sweep.getKey())));
    }
    return ConcurrencySeries.manySweeps(sweeps);
  }

  private static Optional<String> outsideTheEngine(ReportData data, ReportData.Component top) {
    Optional<ReportData.Component> clientQueue = data.overall(ComponentKind.CLIENT_QUEUE.id());
    if (clientQueue.isPresent()
        && clientQueue.get().share() != null
        && clientQueue.get().share() >= CLIENT_QUEUE_NOTABLE
        && !top.component().equals(ComponentKind.CLIENT_QUEUE.id())) {
      return Optional.of(
          String.format(
              Locale.ROOT,
              "The client itself held requests for %s of their time: the load generator's"
                  + " concurrency limit, not the server, delays them.",
              Numbers.share(clientQueue.get().share())));
    }
    return data.overall(ComponentKind.NETWORK.id())
        .filter(network -> !network.component().equals(top.component()))
        .map(
            network ->
                String.format(
                    Locale.ROOT,
                    "Network and serving outside the engine add %s (P50 %s ms).",
                    Numbers.share(network.share()),
                    Numbers.ms(network.p50Ms())));
  }

  private static Optional<String> caveat(DataQuality quality) {
    boolean lowJoin = quality.joinRate() != null && quality.joinRate() < JOIN_RATE_CAVEAT;
    boolean fewAttributed = 2 * quality.includedRows() < quality.clientOkRows();
    if (!lowJoin && !fewAttributed) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            Locale.ROOT,
            "These figures rest on %d of %d client requests (join rate %s); see the data-quality"
                + " notes.",
            quality.includedRows(),
            quality.clientRows(),
            Numbers.share(quality.joinRate())));
  }

  private static Optional<String> ftl(ReportData data) {
    return data.metrics("all").stream()
        .filter(metric -> metric.metric().equals("ftl") && metric.requests() > 0)
        .findFirst()
        .map(
            ftl ->
                String.format(
                    Locale.ROOT,
                    "Seen from the client, TTFT is P50 %s ms and P95 %s ms over %d requests.",
                    Numbers.ms(ftl.p50Ms()),
                    Numbers.ms(ftl.p95Ms()),
                    ftl.requests()));
  }

  private static Text noAttribution(DataQuality quality) {
    if (quality.clientRows() == 0) {
      return Text.of(
          "No client timings are loaded, so no request can be attributed; load them with ",
          Inline.whole("tokentrace clients FILE"),
          ".");
    }
    return Text.of(noAttributionReason(quality));
  }

  private static String noAttributionReason(DataQuality quality) {
    if (quality.matchedRows() == 0 && quality.arrivalOnlyRows() > 0) {
      return String.format(
          Locale.ROOT,
          "No request can be split into components: the server data for %d of %d client requests"
              + " is text-log arrivals only, which carry no queue, prefill or decode times; export"
              + " per-request traces (vLLM --otlp-traces-endpoint) to attribute latency.",
          quality.arrivalOnlyRows(),
          quality.clientRows());
    }
    if (quality.incompleteRows() > 0
        && quality.suspectRows() == 0
        && quality.duplicateRows() == 0) {
      return String.format(
          Locale.ROOT,
          "Low confidence: no request can be split into components: the server records of %d of %d"
              + " client requests lack queue, prefill or decode times (e.g. SGLang before v0.5.5"
              + " logs only e2e_latency), and none is invented; enable per-phase timings (SGLang"
              + " --enable-metrics with --log-requests, or --export-metrics-to-file) to attribute"
              + " latency.",
          quality.incompleteRows(),
          quality.clientRows());
    }
    if (quality.serverTimingKeys() == 0 && quality.serverArrivalKeys() == 0) {
      return "No server records are loaded, so latency cannot be split into network, queueing,"
          + " prefill and decode; ingest the server logs or traces first.";
    }
    return String.format(
        Locale.ROOT,
        "No request could be attributed (%d matched, %d suspect, %d with duplicate keys, %d warm-up);"
            + " see the data-quality notes.",
        quality.matchedRows(),
        quality.suspectRows(),
        quality.duplicateRows(),
        quality.warmupRows());
  }

  static String label(ReportData.Component row) {
    return row.label();
  }

  private static String capitalized(String text) {
    return Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }
}
