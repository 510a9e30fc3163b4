package dev.tokentrace.cli;

import dev.tokentrace.correlate.attribution.LatencyComponent;
import dev.tokentrace.report.model.ReportData;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What one sample scenario, run alone through the product's pipeline ({@link ScenarioPipeline}),
 * left in its DuckDB file and report: the attribution rows, the server's per-request records, and
 * the rendered report.
 *
 * @param rejected lines the parsers rejected
 * @param markdown the whole Markdown report
 */
record ScenarioRun(
    SampleScenarios.Scenario scenario,
    long rejected,
    List<Attributed> attributed,
    List<ServerTiming> timings,
    List<Arrival> arrivals,
    List<Clock> clocks,
    ReportData report,
    String markdown) {

  /**
   * One row of {@code request_attribution}; {@code serverRequestId} is the engine's ID of the
   * record attributed, {@code retried} whether the server saw more than one attempt.
   */
  record Attributed(
      String requestKey,
      String joinStatus,
      @Nullable String confidence,
      @Nullable String matchMethod,
      @Nullable String serverRequestId,
      @Nullable Boolean retried,
      boolean included,
      @Nullable String exclusion,
      @Nullable String dominant,
      Map<LatencyComponent, Double> components,
      @Nullable String vantage,
      @Nullable Double clientGatewayMs,
      @Nullable Double gatewayEngineMs) {
    Attributed {
      components = Map.copyOf(components);
    }

    /** The component's ms; null when the attribution computed none. */
    @Nullable Double ms(LatencyComponent component) {
      return components.get(component);
    }

    static Map<LatencyComponent, Double> components(
        @Nullable Double clientQueue,
        @Nullable Double network,
        @Nullable Double queue,
        @Nullable Double prefill,
        @Nullable Double decode) {
      Map<LatencyComponent, Double> components = new EnumMap<>(LatencyComponent.class);
      putIfPresent(components, LatencyComponent.CLIENT_QUEUE, clientQueue);
      putIfPresent(components, LatencyComponent.NETWORK, network);
      putIfPresent(components, LatencyComponent.QUEUE, queue);
      putIfPresent(components, LatencyComponent.PREFILL, prefill);
      putIfPresent(components, LatencyComponent.DECODE, decode);
      return components;
    }

    private static void putIfPresent(
        Map<LatencyComponent, Double> components,
        LatencyComponent component,
        @Nullable Double value) {
      if (value != null) {
        components.put(component, value);
      }
    }
  }

  /** One row of {@code clock_offsets}: how a run's clock was put on an instance's. */
  record Clock(
      String runId,
      String instance,
      @Nullable String method,
      @Nullable String flag,
      int pairs,
      double spreadMs,
      @Nullable Double fitMs,
      @Nullable Double runnerUpFitMs) {}

  /** One row of {@code request_timing}: the engine's per-request record. */
  record ServerTiming(
      String requestId,
      @Nullable Double queueMs,
      @Nullable Double prefillMs,
      @Nullable Double decodeMs,
      @Nullable Double e2eMs) {}

  /** One row of {@code request_arrived}: a text-log arrival, timestamp as logged. */
  record Arrival(String requestKey, @Nullable Instant ts) {}

  Optional<Attributed> attributed(String requestKey) {
    return attributed.stream().filter(row -> row.requestKey().equals(requestKey)).findFirst();
  }

  long includedCount() {
    return attributed.stream().filter(Attributed::included).count();
  }

  /**
   * The report from its latency attribution heading up to its data-quality notes: the attribution
   * tables and the bottleneck conclusion ({@code expected/report-excerpt.md}).
   */
  String excerpt() {
    int start = markdown.indexOf("## Latency attribution\n");
    int end = markdown.indexOf("## Data quality\n");
    if (start < 0 || end < start) {
      throw new IllegalStateException(scenario.id() + ": report sections not found:\n" + markdown);
    }
    return markdown.substring(start, end);
  }

  /** The bottleneck conclusion, on one line. */
  String bottleneck() {
    String excerpt = excerpt();
    return excerpt.substring(excerpt.indexOf("## Bottleneck\n")).replaceAll("\\s+", " ").strip();
  }
}
