package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.attribution.LatencyComponent;
import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Accuracy of the three vantage points (docs/formats/gateways.md#three-vantage-points) on the
 * sample scenarios whose simulated gateway wrote an NGINX access log
 * (docs/formats/gateways.md#simulated-gateway), run through the product's pipeline ({@link
 * ScenarioPipeline}: the gateway log is loaded as a second run beside the client file, or alone in
 * a production scenario) and compared request by request with {@code gateway_truth.csv}:
 *
 * <ul>
 *   <li>with a client file (gateway-bottleneck): every attributed request is split at the gateway
 *       ({@code vantage = client+gateway}), both legs within max(1 ms, 1 %) of the truth and of the
 *       delays the simulator injected on them, and the leg the scenario slows is the larger for
 *       every request;
 *   <li>production (gateway + engine, no client): every request attributed from the gateway's view
 *       ({@code vantage = gateway}), queue, prefill and decode within tolerance of truth.csv,
 *       network within tolerance of the gateway-to-engine leg, the dominant component agreeing for
 *       99 %, and the report saying the attribution is from the gateway's view.
 * </ul>
 *
 * <p>NGINX keeps start and end in whole ms, so a leg can be off by up to 1 ms: within the
 * tolerance. Figures go to {@code cli/target/gateway-accuracy.md}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class GatewayAccuracyIT {
  private final Map<String, SampleScenarios.Scenario> scenarios = new LinkedHashMap<>();
  private final Map<String, ScenarioRun> runs = new TreeMap<>();
  private final Map<String, String> figures = new TreeMap<>();
  private EmbeddedBroker broker;
  private ScenarioPipeline pipeline;

  @BeforeAll
  void startBroker(@TempDir Path work) {
    for (SampleScenarios.Scenario scenario : SampleScenarios.find(GoldenSamplesTest.SAMPLES)) {
      if (scenario.gatewayLog() != null) {
        scenarios.put(scenario.id(), scenario);
      }
    }
    assertThat(scenarios).as("sample scenarios with a gateway").hasSizeGreaterThanOrEqualTo(2);
    broker = EmbeddedBroker.start();
    pipeline = new ScenarioPipeline(broker.bootstrapServers(), work);
  }

  @AfterAll
  void writeFigures() throws IOException {
    if (broker != null) {
      broker.close();
    }
    StringBuilder out =
        new StringBuilder(
            "| scenario | vantage | requests | leg | max abs error vs truth ms | max abs error vs"
                + " injected ms | median ms |\n|---|---|---:|---|---:|---:|---:|\n");
    figures.values().forEach(out::append);
    Path file = Path.of("target", "gateway-accuracy.md");
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, out, UTF_8);
    System.out.println("gateway accuracy (" + file.toAbsolutePath() + "):\n" + out);
  }

  Stream<String> withClient() {
    return scenarios.values().stream()
        .filter(scenario -> !scenario.clientFile().equals(scenario.gatewayLog()))
        .map(SampleScenarios.Scenario::id);
  }

  Stream<String> production() {
    return scenarios.values().stream()
        .filter(scenario -> scenario.clientFile().equals(scenario.gatewayLog()))
        .map(SampleScenarios.Scenario::id);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("withClient")
  void networkSplitsIntoTheTwoLegsTheSimulatorInjected(String id) {
    ScenarioRun run = run(id);
    Map<String, GatewayTruth> truth = gatewayTruth(id);
    List<Double> clientErrors = new ArrayList<>();
    List<Double> gatewayErrors = new ArrayList<>();
    List<Double> clientInjected = new ArrayList<>();
    List<Double> gatewayInjected = new ArrayList<>();
    List<Double> clientLegs = new ArrayList<>();
    List<Double> gatewayLegs = new ArrayList<>();
    int compared = 0;
    for (ScenarioRun.Attributed row : run.attributed()) {
      if (!row.included()) {
        continue;
      }
      GatewayTruth expected = truth.get(row.requestKey());
      assertThat(expected).as("gateway truth of " + row.requestKey()).isNotNull();
      assertThat(row.vantage()).as(row.requestKey()).isEqualTo("client+gateway");
      double clientGateway = row.clientGatewayMs();
      double gatewayEngine = row.gatewayEngineMs();
      assertThat(clientGateway + gatewayEngine)
          .as(row.requestKey() + " legs add up to network")
          .isCloseTo(row.ms(LatencyComponent.NETWORK), org.assertj.core.data.Offset.offset(1e-6));
      within(row.requestKey(), "client-gateway", clientGateway, expected.clientGatewayMs);
      within(row.requestKey(), "gateway-engine", gatewayEngine, expected.gatewayEngineMs);
      within(row.requestKey(), "client-gateway (injected)", clientGateway, expected.injectedClient);
      within(
          row.requestKey(), "gateway-engine (injected)", gatewayEngine, expected.injectedGateway);
      assertThat(gatewayEngine)
          .as(row.requestKey() + ": the slowed leg is the larger")
          .isGreaterThan(clientGateway);
      clientErrors.add(Math.abs(clientGateway - expected.clientGatewayMs));
      gatewayErrors.add(Math.abs(gatewayEngine - expected.gatewayEngineMs));
      clientInjected.add(Math.abs(clientGateway - expected.injectedClient));
      gatewayInjected.add(Math.abs(gatewayEngine - expected.injectedGateway));
      clientLegs.add(clientGateway);
      gatewayLegs.add(gatewayEngine);
      compared++;
    }
    assertThat(compared).as("requests split at the gateway").isPositive();
    figure(
        id, "client+gateway", compared, "client-gateway", clientErrors, clientInjected, clientLegs);
    figure(
        id,
        "client+gateway",
        compared,
        "gateway-engine",
        gatewayErrors,
        gatewayInjected,
        gatewayLegs);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("production")
  void productionIsAttributedFromTheGatewaysView(String id) {
    ScenarioRun run = run(id);
    Map<String, GatewayTruth> gateway = gatewayTruth(id);
    Map<String, TruthRow> truth = new TreeMap<>();
    for (TruthRow row : TruthRow.read(run.scenario().dir().resolve("truth.csv"))) {
      if (row.included()) {
        truth.put(row.requestKey(), row);
      }
    }
    List<Double> errors = new ArrayList<>();
    List<Double> injected = new ArrayList<>();
    List<Double> legs = new ArrayList<>();
    int dominantAgreed = 0;
    for (TruthRow row : truth.values()) {
      ScenarioRun.Attributed attributed = run.attributed(row.requestKey()).orElseThrow();
      GatewayTruth expected = gateway.get(row.requestKey());
      assertThat(attributed.included()).as(row.requestKey() + " included").isTrue();
      assertThat(attributed.vantage()).as(row.requestKey()).isEqualTo("gateway");
      for (LatencyComponent component :
          List.of(LatencyComponent.QUEUE, LatencyComponent.PREFILL, LatencyComponent.DECODE)) {
        within(
            row.requestKey(), component.id(), attributed.ms(component), row.component(component));
      }
      double network = attributed.ms(LatencyComponent.NETWORK);
      within(row.requestKey(), "network (gateway-engine)", network, expected.gatewayEngineMs);
      within(row.requestKey(), "network (injected)", network, expected.injectedGateway);
      assertThat(attributed.gatewayEngineMs()).as(row.requestKey()).isEqualTo(network);
      errors.add(Math.abs(network - expected.gatewayEngineMs));
      injected.add(Math.abs(network - expected.injectedGateway));
      legs.add(network);
      String trueDominant = dominantFromTheGateway(row, expected.gatewayEngineMs);
      if (trueDominant.equals(attributed.dominant())) {
        dominantAgreed++;
      }
    }
    assertThat(truth).isNotEmpty();
    assertThat(dominantAgreed)
        .as("dominant agreement")
        .isGreaterThanOrEqualTo((int) Math.ceil(0.99 * truth.size()));
    assertThat(run.markdown()).as("the report names the vantage").contains("from gateway+engine");
    figure(id, "gateway", truth.size(), "gateway-engine", errors, injected, legs);
  }

  /** The largest of network (the gateway leg), queue, prefill, decode; first on a tie. */
  private static String dominantFromTheGateway(TruthRow row, double gatewayLeg) {
    String name = "network";
    double largest = gatewayLeg;
    for (LatencyComponent component :
        List.of(LatencyComponent.QUEUE, LatencyComponent.PREFILL, LatencyComponent.DECODE)) {
      if (row.component(component) > largest) {
        largest = row.component(component);
        name = component.id();
      }
    }
    return name;
  }

  private static void within(String key, String what, Double actual, double expected) {
    assertThat(actual).as("%s: %s", key, what).isNotNull();
    assertThat(Math.abs(actual - expected))
        .as("%s: %s %.3f ms, truth %.3f ms", key, what, actual, expected)
        .isLessThanOrEqualTo(AccuracyFigures.tolerance(expected));
  }

  private void figure(
      String id,
      String vantage,
      int requests,
      String leg,
      List<Double> errors,
      List<Double> injected,
      List<Double> values) {
    figures.put(
        id + " " + leg,
        String.format(
            Locale.ROOT,
            "| %s | %s | %d | %s | %.3f | %.3f | %.3f |%n",
            id,
            vantage,
            requests,
            leg,
            errors.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
            injected.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
            GatewayLiveIT.median(values)));
  }

  private ScenarioRun run(String id) {
    return runs.computeIfAbsent(id, key -> pipeline.run(scenarios.get(key)));
  }

  /** One final, completed attempt of gateway_truth.csv. */
  private record GatewayTruth(
      double clientGatewayMs,
      double gatewayEngineMs,
      double injectedClient,
      double injectedGateway) {}

  private Map<String, GatewayTruth> gatewayTruth(String id) {
    Path file = scenarios.get(id).dir().resolve(SampleScenarios.GATEWAY_TRUTH);
    Map<String, GatewayTruth> truth = new TreeMap<>();
    try (Reader reader = Files.newBufferedReader(file, UTF_8)) {
      for (CSVRecord record :
          CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build().parse(reader)) {
        if (!Boolean.parseBoolean(record.get("final")) || !record.get("status").equals("ok")) {
          continue;
        }
        truth.put(
            record.get("request_id"),
            new GatewayTruth(
                Double.parseDouble(record.get("network_client_gateway_ms")),
                Double.parseDouble(record.get("network_gateway_engine_ms")),
                Double.parseDouble(record.get("injected_client_gateway_ms")),
                Double.parseDouble(record.get("injected_gateway_engine_ms"))));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return truth;
  }
}
