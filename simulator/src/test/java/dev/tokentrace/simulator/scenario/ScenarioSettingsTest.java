package dev.tokentrace.simulator.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.simulator.ArrivalMode;
import dev.tokentrace.simulator.IdScheme;
import dev.tokentrace.simulator.SimulationSettings;
import dev.tokentrace.simulator.output.Api;
import dev.tokentrace.simulator.output.ClientFormat;
import dev.tokentrace.simulator.output.EngineFormat;
import dev.tokentrace.simulator.output.OutputSettings;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ScenarioSettingsTest {
  @Test
  void defaults() {
    ScenarioSettings settings = ScenarioSettings.from(Parameters.defaults());
    SimulationSettings sim = settings.simulation();
    OutputSettings out = settings.output();

    assertThat(sim.seed()).isEqualTo(42);
    assertThat(sim.workload().requests()).isEqualTo(200);
    assertThat(sim.workload().concurrency()).containsExactly(1);
    assertThat(sim.workload().arrival()).isEqualTo(ArrivalMode.CLOSED);
    assertThat(sim.workload().ratePerSecond()).isEqualTo(4.0);
    assertThat(sim.workload().warmupRequests()).isZero();
    assertThat(sim.workload().warmupExtraMs()).isEqualTo(800);
    assertThat(sim.workload().promptTokens().spec()).isEqualTo("lognormal:512,0.5");
    assertThat(sim.workload().outputTokens().spec()).isEqualTo("lognormal:256,0.6");
    assertThat(sim.workload().maxModelLen()).isEqualTo(32768);
    assertThat(sim.workload().phaseGapS()).isEqualTo(5);
    assertThat(sim.server().maxBatch()).isEqualTo(256);
    assertThat(sim.server().maxBatchedTokens()).isEqualTo(8192);
    assertThat(sim.server().chunkedPrefill()).isTrue();
    assertThat(sim.server().mixedBatches()).isTrue();
    assertThat(sim.server().stepBaseMs()).isEqualTo(8.0);
    assertThat(sim.server().stepPerSeqMs()).isEqualTo(0.06);
    assertThat(sim.server().stepPerKvKtokenMs()).isEqualTo(0.06);
    assertThat(sim.server().prefillPerTokenMs()).isEqualTo(0.05);
    assertThat(sim.server().stepJitter()).isEqualTo(0.02);
    assertThat(sim.server().kvCapacityTokens()).isEqualTo(400_000);
    assertThat(sim.server().blockSize()).isEqualTo(16);
    assertThat(sim.server().prefixCaching()).isFalse();
    assertThat(sim.server().sharedPrefixTokens()).isZero();
    assertThat(sim.network().uplinkMs().spec()).isEqualTo("lognormal:1.5,0.3");
    assertThat(sim.network().downlinkMs().spec()).isEqualTo("lognormal:1.5,0.3");
    assertThat(sim.network().slowAtS()).isEqualTo(-1);
    assertThat(sim.network().slowDurationS()).isEqualTo(60);
    assertThat(sim.network().slowExtraMs()).isZero();
    assertThat(sim.client().timeoutS()).isZero();
    assertThat(sim.client().retries()).isZero();
    assertThat(sim.client().retryBackoffMs()).isEqualTo(100);
    assertThat(sim.client().heartbeatS()).isZero();
    assertThat(sim.client().countsHeartbeats()).isFalse();
    assertThat(sim.client().ids()).isEqualTo(IdScheme.PREFIX_INDEX);
    assertThat(sim.client().idPrefix()).isEmpty();
    assertThat(out.format()).isEqualTo(EngineFormat.VLLM_0_16);
    assertThat(out.start()).isEqualTo(EngineFormat.VLLM_0_16.era());
    assertThat(out.zone()).isEqualTo(ZoneId.of("UTC"));
    assertThat(out.requestLogging()).isTrue();
    assertThat(out.iterationLog()).isFalse();
    assertThat(out.accessLog()).isTrue();
    assertThat(out.otlp()).isTrue();
    assertThat(out.clientFormat()).isEqualTo(ClientFormat.CSV);
    assertThat(out.api()).isEqualTo(Api.CHAT);
    assertThat(out.maxLogLen()).isEqualTo(16);
    assertThat(out.tpSize()).isEqualTo(1);
    assertThat(out.logMillis()).isFalse();
  }

  @Test
  void explicitMapping() {
    Map<String, String> values = Parameters.defaults();
    values.putAll(
        Map.ofEntries(
            Map.entry("--engine", "sglang"),
            Map.entry("--format-version", "0.4"),
            Map.entry("--seed", "7"),
            Map.entry("--start", "2026-01-02T03:04:05Z"),
            Map.entry("--zone", "Europe/Berlin"),
            Map.entry("--requests", "9"),
            Map.entry("--concurrency", "0,2"),
            Map.entry("--arrival", "poisson"),
            Map.entry("--rate", "2.5"),
            Map.entry("--warmup-requests", "3"),
            Map.entry("--warmup-extra-ms", "10"),
            Map.entry("--prompt-tokens", "fixed:100"),
            Map.entry("--output-tokens", "choice:1,2"),
            Map.entry("--max-model-len", "4096"),
            Map.entry("--phase-gap-s", "1.5"),
            Map.entry("--max-batch", "3"),
            Map.entry("--max-batched-tokens", "512"),
            Map.entry("--chunked-prefill", "false"),
            Map.entry("--mixed-batches", "true"),
            Map.entry("--step-base-ms", "1.5"),
            Map.entry("--step-per-seq-ms", "0.5"),
            Map.entry("--step-per-kv-ktoken-ms", "0.25"),
            Map.entry("--prefill-per-token-ms", "0.125"),
            Map.entry("--step-jitter", "0"),
            Map.entry("--kv-capacity-tokens", "8192"),
            Map.entry("--block-size", "64"),
            Map.entry("--prefix-caching", "true"),
            Map.entry("--shared-prefix-tokens", "50"),
            Map.entry("--uplink-ms", "fixed:3"),
            Map.entry("--downlink-ms", "uniform:1,2"),
            Map.entry("--slow-network-at-s", "5"),
            Map.entry("--slow-network-duration-s", "6"),
            Map.entry("--slow-network-extra-ms", "7"),
            Map.entry("--timeout-s", "8"),
            Map.entry("--retries", "2"),
            Map.entry("--retry-backoff-ms", "9"),
            Map.entry("--heartbeat-s", "0.5"),
            Map.entry("--client-counts-heartbeats", "true"),
            Map.entry("--client-format", "aiperf"),
            Map.entry("--id-prefix", "run7-"),
            Map.entry("--api", "completions"),
            Map.entry("--request-logging", "false"),
            Map.entry("--iteration-log", "true"),
            Map.entry("--access-log", "false"),
            Map.entry("--otlp", "false"),
            Map.entry("--max-log-len", "0"),
            Map.entry("--tp-size", "2"),
            Map.entry("--log-millis", "true")));

    ScenarioSettings settings = ScenarioSettings.from(values);
    SimulationSettings sim = settings.simulation();
    OutputSettings out = settings.output();

    assertThat(sim.seed()).isEqualTo(7);
    assertThat(sim.workload().requests()).isEqualTo(9);
    assertThat(sim.workload().concurrency()).containsExactly(0, 2);
    assertThat(sim.workload().arrival()).isEqualTo(ArrivalMode.POISSON);
    assertThat(sim.workload().ratePerSecond()).isEqualTo(2.5);
    assertThat(sim.workload().warmupRequests()).isEqualTo(3);
    assertThat(sim.workload().warmupExtraMs()).isEqualTo(10);
    assertThat(sim.workload().promptTokens().spec()).isEqualTo("fixed:100");
    assertThat(sim.workload().outputTokens().spec()).isEqualTo("choice:1,2");
    assertThat(sim.workload().maxModelLen()).isEqualTo(4096);
    assertThat(sim.workload().phaseGapS()).isEqualTo(1.5);
    assertThat(sim.server().maxBatch()).isEqualTo(3);
    assertThat(sim.server().maxBatchedTokens()).isEqualTo(512);
    assertThat(sim.server().chunkedPrefill()).isFalse();
    assertThat(sim.server().mixedBatches()).isTrue();
    assertThat(sim.server().stepBaseMs()).isEqualTo(1.5);
    assertThat(sim.server().stepPerSeqMs()).isEqualTo(0.5);
    assertThat(sim.server().stepPerKvKtokenMs()).isEqualTo(0.25);
    assertThat(sim.server().prefillPerTokenMs()).isEqualTo(0.125);
    assertThat(sim.server().stepJitter()).isZero();
    assertThat(sim.server().kvCapacityTokens()).isEqualTo(8192);
    assertThat(sim.server().blockSize()).isEqualTo(64);
    assertThat(sim.server().prefixCaching()).isTrue();
    assertThat(sim.server().sharedPrefixTokens()).isEqualTo(50);
    assertThat(sim.network().uplinkMs().spec()).isEqualTo("fixed:3");
    assertThat(sim.network().downlinkMs().spec()).isEqualTo("uniform:1,2");
    assertThat(sim.network().slowAtS()).isEqualTo(5);
    assertThat(sim.network().slowDurationS()).isEqualTo(6);
    assertThat(sim.network().slowExtraMs()).isEqualTo(7);
    assertThat(sim.client().timeoutS()).isEqualTo(8);
    assertThat(sim.client().retries()).isEqualTo(2);
    assertThat(sim.client().retryBackoffMs()).isEqualTo(9);
    assertThat(sim.client().heartbeatS()).isEqualTo(0.5);
    assertThat(sim.client().countsHeartbeats()).isTrue();
    assertThat(sim.client().ids()).isEqualTo(IdScheme.UUID);
    assertThat(sim.client().idPrefix()).isEqualTo("run7-");
    assertThat(out.format()).isEqualTo(EngineFormat.SGLANG_0_4);
    assertThat(out.start()).isEqualTo(Instant.parse("2026-01-02T03:04:05Z"));
    assertThat(out.zone()).isEqualTo(ZoneId.of("Europe/Berlin"));
    assertThat(out.requestLogging()).isFalse();
    assertThat(out.iterationLog()).isTrue();
    assertThat(out.accessLog()).isFalse();
    assertThat(out.otlp()).isFalse();
    assertThat(out.clientFormat()).isEqualTo(ClientFormat.AIPERF);
    assertThat(out.api()).isEqualTo(Api.COMPLETIONS);
    assertThat(out.maxLogLen()).isZero();
    assertThat(out.tpSize()).isEqualTo(2);
    assertThat(out.logMillis()).isTrue();
    assertThat(settings.parameters()).containsEntry("--format-version", "0.4.5");
  }

  @Test
  void autoValuesFollowTheEngineAndAreRecorded() {
    Map<String, String> values = Parameters.defaults();
    values.put("--engine", "trtllm");

    ScenarioSettings settings = ScenarioSettings.from(values);

    assertThat(settings.simulation().server().chunkedPrefill()).isFalse();
    assertThat(settings.simulation().server().blockSize()).isEqualTo(32);
    assertThat(settings.output().iterationLog()).isTrue();
    assertThat(settings.parameters())
        .containsEntry("--format-version", "1.1")
        .containsEntry("--chunked-prefill", "false")
        .containsEntry("--block-size", "32")
        .containsEntry("--start", EngineFormat.TRTLLM_1_1.era().toString());
  }

  @Test
  void reportsEveryBadValueAtOnceNamingTheOption() {
    Map<String, String> values = Parameters.defaults();
    values.put("--rate", "fast");
    values.put("--prompt-tokens", "normal:5");
    values.put("--zone", "Mars/Base");
    values.put("--otlp", "yes");
    values.put("--id-prefix", "a b");

    assertThatThrownBy(() -> ScenarioSettings.from(values))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--rate: not a number: 'fast'")
        .hasMessageContaining("--prompt-tokens: bad distribution 'normal:5'")
        .hasMessageContaining("--zone: ")
        .hasMessageContaining("--otlp: not true, false or auto: 'yes'")
        .hasMessageContaining("--id-prefix: only letters");
  }

  @Test
  void rangeProblemsNameTheOptionToo() {
    Map<String, String> values = Parameters.defaults();
    values.put("--max-batch", "-1");
    values.put("--rate", "0");
    values.put("--arrival", "poisson");
    values.put("--slow-network-extra-ms", "-5");
    values.put("--retries", "2");

    assertThatThrownBy(() -> ScenarioSettings.from(values))
        .hasMessageContaining("--max-batch: maxBatch must be > 0: -1")
        .hasMessageContaining("--rate: ratePerSecond must be > 0")
        .hasMessageContaining("--slow-network-extra-ms: slowExtraMs must be >= 0")
        .hasMessageContaining("--retries: retries need a timeout");
  }

  @Test
  void unknownFormatVersionListsTheKnownOnes() {
    Map<String, String> values = Parameters.defaults();
    values.put("--format-version", "0.9");

    assertThatThrownBy(() -> ScenarioSettings.from(values))
        .hasMessageContaining(
            "--format-version: unknown vllm format version '0.9' (known: 0.7, 0.11, 0.16)");
  }

  @Test
  void everyScenarioResolvesAndExplicitValuesWin() {
    for (Scenario scenario : Scenarios.all()) {
      assertThat(ScenarioSettings.from(Scenarios.effective(scenario.name(), Map.of()))).isNotNull();
    }
    Map<String, String> explicit = new LinkedHashMap<>();
    explicit.put("--concurrency", "2");

    Map<String, String> values = Scenarios.effective("concurrency-sweep", explicit);

    assertThat(values).containsEntry("--concurrency", "2").containsEntry("--max-batch", "2");
    assertThatThrownBy(() -> Scenarios.named("nope"))
        .hasMessageContaining("unknown scenario 'nope' (known: baseline, concurrency-sweep");
    assertThatThrownBy(() -> Scenarios.effective(null, Map.of("--nope", "1")))
        .hasMessageContaining("unknown parameter --nope");
  }

  @Test
  void everyParameterIsDocumentedOnce() {
    List<Parameter> all = Parameters.all();

    assertThat(all).extracting(Parameter::name).doesNotHaveDuplicates();
    assertThat(all).allSatisfy(p -> assertThat(p.description()).endsWith("."));
    for (Scenario scenario : Scenarios.all()) {
      assertThat(Parameters.defaults())
          .containsKeys(scenario.values().keySet().toArray(new String[0]));
    }
  }
}
