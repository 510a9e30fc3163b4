package dev.tokentrace.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import dev.tokentrace.event.json.EventJson;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class EngineEventTest {
  private static final SourcePosition SOURCE = new SourcePosition("samples/x/server.log", 42, 4096);
  private static final Instant TS = Instant.parse("2026-02-13T11:33:33Z");

  static Stream<Arguments> goldens() {
    return Stream.of(
        Arguments.of(
            new RequestArrived(Engine.VLLM, "vllm-0", TS, SOURCE, "chatcmpl-abc", "abc", 38, 100),
            "{\"type\":\"request_arrived\",\"engine\":\"vllm\",\"instance\":\"vllm-0\","
                + "\"ts\":\"2026-02-13T11:33:33.000Z\",\"source\":{\"path\":\"samples/x/server.log\","
                + "\"line\":42,\"offset\":4096},\"request_id\":\"chatcmpl-abc\",\"request_key\":\"abc\","
                + "\"prompt_tokens\":38,\"max_tokens\":100}"),
        Arguments.of(
            new RequestTiming(
                Engine.VLLM,
                "vllm-0",
                TS,
                SOURCE,
                "chatcmpl-abc",
                "abc",
                Instant.parse("2026-02-13T11:33:31.123456Z"),
                1.2,
                70.3,
                2239.1,
                84.1,
                2333.2,
                38,
                23,
                null,
                "stop",
                "otlp"),
            "{\"type\":\"request_timing\",\"engine\":\"vllm\",\"instance\":\"vllm-0\","
                + "\"ts\":\"2026-02-13T11:33:33.000Z\",\"source\":{\"path\":\"samples/x/server.log\","
                + "\"line\":42,\"offset\":4096},\"request_id\":\"chatcmpl-abc\",\"request_key\":\"abc\","
                + "\"arrival_ts\":\"2026-02-13T11:33:31.123Z\",\"queue_ms\":1.2,\"prefill_ms\":70.3,"
                + "\"decode_ms\":2239.1,\"server_ttft_ms\":84.1,\"e2e_ms\":2333.2,\"prompt_tokens\":38,"
                + "\"output_tokens\":23,\"finish_reason\":\"stop\",\"source_kind\":\"otlp\"}"),
        Arguments.of(
            new RequestFinished(Engine.SGLANG, "sg-1", TS, SOURCE, "r1", "r1", 64, "length"),
            "{\"type\":\"request_finished\",\"engine\":\"sglang\",\"instance\":\"sg-1\","
                + "\"ts\":\"2026-02-13T11:33:33.000Z\",\"source\":{\"path\":\"samples/x/server.log\","
                + "\"line\":42,\"offset\":4096},\"request_id\":\"r1\",\"request_key\":\"r1\","
                + "\"output_tokens\":64,\"finish_reason\":\"length\"}"),
        Arguments.of(
            new RequestAborted(
                Engine.VLLM, "vllm-0", TS, SOURCE, "chatcmpl-abc", "abc", "engine dead"),
            "{\"type\":\"request_aborted\",\"engine\":\"vllm\",\"instance\":\"vllm-0\","
                + "\"ts\":\"2026-02-13T11:33:33.000Z\",\"source\":{\"path\":\"samples/x/server.log\","
                + "\"line\":42,\"offset\":4096},\"request_id\":\"chatcmpl-abc\",\"request_key\":\"abc\","
                + "\"reason\":\"engine dead\"}"),
        Arguments.of(
            new EngineStats(
                Engine.VLLM,
                "vllm-0",
                TS,
                SOURCE,
                "Engine 000",
                null,
                612.4,
                95.0,
                8,
                3,
                null,
                41.5,
                12.0,
                2),
            "{\"type\":\"engine_stats\",\"engine\":\"vllm\",\"instance\":\"vllm-0\","
                + "\"ts\":\"2026-02-13T11:33:33.000Z\",\"source\":{\"path\":\"samples/x/server.log\","
                + "\"line\":42,\"offset\":4096},\"rank\":\"Engine 000\",\"prompt_tps\":612.4,"
                + "\"gen_tps\":95.0,\"running\":8,\"waiting\":3,\"kv_usage_pct\":41.5,"
                + "\"prefix_hit_pct\":12.0,\"preemptions\":2}"),
        Arguments.of(
            new BatchStep(
                Engine.SGLANG,
                "sg-1",
                null,
                SOURCE,
                "TP0",
                null,
                Phase.DECODE,
                16,
                null,
                null,
                null,
                2,
                0.41,
                812.5,
                19.5,
                true,
                null,
                null),
            "{\"type\":\"batch_step\",\"engine\":\"sglang\",\"instance\":\"sg-1\","
                + "\"source\":{\"path\":\"samples/x/server.log\",\"line\":42,\"offset\":4096},"
                + "\"rank\":\"TP0\",\"phase\":\"decode\",\"batch_size\":16,\"queued\":2,"
                + "\"token_usage\":0.41,\"throughput_tps\":812.5,\"step_ms\":19.5,"
                + "\"step_ms_derived\":true}"),
        Arguments.of(
            new ServerNotice(
                Engine.TRTLLM,
                "trt-0",
                TS,
                SOURCE,
                "ERROR",
                ServerNotice.Kind.OOM,
                "CUDA out of memory"),
            "{\"type\":\"server_notice\",\"engine\":\"trtllm\",\"instance\":\"trt-0\","
                + "\"ts\":\"2026-02-13T11:33:33.000Z\",\"source\":{\"path\":\"samples/x/server.log\","
                + "\"line\":42,\"offset\":4096},\"level\":\"ERROR\",\"kind\":\"oom\","
                + "\"message\":\"CUDA out of memory\"}"),
        Arguments.of(
            new ServerConfig(Engine.VLLM, "vllm-0", TS, SOURCE, "args", "max_num_seqs", "256"),
            "{\"type\":\"server_config\",\"engine\":\"vllm\",\"instance\":\"vllm-0\","
                + "\"ts\":\"2026-02-13T11:33:33.000Z\",\"source\":{\"path\":\"samples/x/server.log\","
                + "\"line\":42,\"offset\":4096},\"section\":\"args\",\"key\":\"max_num_seqs\",\"value\":\"256\"}"),
        Arguments.of(
            new GpuSample(
                Engine.GPU,
                "vllm-0",
                TS,
                SOURCE,
                "query-gpu",
                null,
                0,
                "GPU-abc",
                87.0,
                40.0,
                70000.0,
                81920.0,
                305.5,
                1410.0,
                61.0,
                null,
                "power.draw.average=[N/A]"),
            "{\"type\":\"gpu_sample\",\"engine\":\"gpu\",\"instance\":\"vllm-0\","
                + "\"ts\":\"2026-02-13T11:33:33.000Z\",\"source\":{\"path\":\"samples/x/server.log\","
                + "\"line\":42,\"offset\":4096},\"tool\":\"query-gpu\",\"gpu_index\":0,"
                + "\"gpu_uuid\":\"GPU-abc\",\"util_gpu_pct\":87.0,\"util_mem_pct\":40.0,"
                + "\"mem_used_mib\":70000.0,\"mem_total_mib\":81920.0,\"power_w\":305.5,"
                + "\"sm_clock_mhz\":1410.0,\"temp_c\":61.0,"
                + "\"unavailable\":\"power.draw.average=[N/A]\"}"),
        Arguments.of(
            new GpuProcess(
                Engine.GPU,
                "vllm-0",
                TS,
                SOURCE,
                "compute-apps",
                null,
                "GPU-abc",
                4242L,
                "python3",
                null,
                20480.0,
                null,
                null),
            "{\"type\":\"gpu_process\",\"engine\":\"gpu\",\"instance\":\"vllm-0\","
                + "\"ts\":\"2026-02-13T11:33:33.000Z\",\"source\":{\"path\":\"samples/x/server.log\","
                + "\"line\":42,\"offset\":4096},\"tool\":\"compute-apps\","
                + "\"gpu_uuid\":\"GPU-abc\",\"pid\":4242,\"process_name\":\"python3\","
                + "\"used_mem_mib\":20480.0}"),
        Arguments.of(
            new ServerHistogram(
                Engine.VLLM,
                "vllm-0",
                TS,
                SOURCE,
                "ttft",
                "vllm:time_to_first_token_seconds",
                1.0,
                10L,
                3000.0,
                300.0,
                480.0,
                500.0,
                "0.1:2,0.5:8,+Inf:10"),
            "{\"type\":\"server_histogram\",\"engine\":\"vllm\",\"instance\":\"vllm-0\","
                + "\"ts\":\"2026-02-13T11:33:33.000Z\",\"source\":{\"path\":\"samples/x/server.log\","
                + "\"line\":42,\"offset\":4096},\"component\":\"ttft\","
                + "\"metric\":\"vllm:time_to_first_token_seconds\",\"interval_s\":1.0,\"count\":10,"
                + "\"sum_ms\":3000.0,\"p50_ms\":300.0,\"p90_ms\":480.0,\"p99_ms\":500.0,"
                + "\"buckets\":\"0.1:2,0.5:8,+Inf:10\"}"),
        Arguments.of(
            new KvTransfer(
                Engine.VLLM,
                "vllm-decode-0",
                TS,
                SOURCE,
                null,
                null,
                "decode",
                null,
                10.0,
                4L,
                12.25,
                15.5,
                32.0,
                2612.2,
                0L,
                0L,
                KvTransfer.NIXL_INTERVAL),
            "{\"type\":\"kv_transfer\",\"engine\":\"vllm\",\"instance\":\"vllm-decode-0\","
                + "\"ts\":\"2026-02-13T11:33:33.000Z\",\"source\":{\"path\":\"samples/x/server.log\","
                + "\"line\":42,\"offset\":4096},\"side\":\"decode\",\"interval_s\":10.0,"
                + "\"transfers\":4,\"duration_ms\":12.25,\"p90_ms\":15.5,\"mb_per_transfer\":32.0,"
                + "\"throughput_mb_s\":2612.2,\"failed\":0,\"expired\":0,"
                + "\"source_kind\":\"nixl_interval\"}"),
        Arguments.of(
            new ProxyRequest(
                Engine.VLLM,
                "proxy",
                TS,
                SOURCE,
                "c-1",
                "c-1",
                "9f1c",
                "9f1c",
                "prefill-0",
                "decode-0",
                200),
            "{\"type\":\"proxy_request\",\"engine\":\"vllm\",\"instance\":\"proxy\","
                + "\"ts\":\"2026-02-13T11:33:33.000Z\",\"source\":{\"path\":\"samples/x/server.log\","
                + "\"line\":42,\"offset\":4096},\"client_request_id\":\"c-1\","
                + "\"client_key\":\"c-1\",\"upstream_request_id\":\"9f1c\","
                + "\"upstream_key\":\"9f1c\",\"prefill\":\"prefill-0\",\"decode\":\"decode-0\","
                + "\"status\":200}"));
  }

  @ParameterizedTest
  @MethodSource("goldens")
  void writesTheGoldenJson(EngineEvent event, String golden) {
    assertThat(EventJson.write(event)).isEqualTo(golden);
  }

  @ParameterizedTest
  @MethodSource("goldens")
  void readsTheGoldenJsonBack(EngineEvent event, String golden) {
    EngineEvent read = EventJson.read(golden);
    // arrival_ts is written with milliseconds, so compare through the JSON form
    assertThat(EventJson.write(read)).isEqualTo(golden);
    assertThat(read.getClass()).isEqualTo(event.getClass());
    assertThat(read.type()).isEqualTo(event.type());
  }

  @Test
  void everyPermittedSubtypeIsRegisteredAndHasAGolden() {
    Set<Class<?>> permitted = Set.of(EngineEvent.class.getPermittedSubclasses());
    Set<Class<?>> registered =
        Arrays.stream(EngineEvent.class.getAnnotation(JsonSubTypes.class).value())
            .map(JsonSubTypes.Type::value)
            .collect(Collectors.toSet());
    Set<Class<?>> golden =
        goldens().map(arguments -> arguments.get()[0].getClass()).collect(Collectors.toSet());
    assertThat(registered).isEqualTo(permitted);
    assertThat(golden).isEqualTo(permitted);
  }

  @Test
  void typeNamesAreTheThirteenOfTheDesign() {
    List<String> names =
        Arrays.stream(EngineEvent.class.getAnnotation(JsonSubTypes.class).value())
            .map(JsonSubTypes.Type::name)
            .collect(Collectors.toList());
    assertThat(names)
        .containsExactly(
            "request_arrived",
            "request_timing",
            "request_finished",
            "request_aborted",
            "engine_stats",
            "batch_step",
            "server_notice",
            "server_config",
            "gpu_sample",
            "gpu_process",
            "server_histogram",
            "kv_transfer",
            "proxy_request");
  }

  @Test
  void validationNamesTheField() {
    assertThatThrownBy(() -> new RequestFinished(Engine.VLLM, "i", TS, SOURCE, "r", "r", -1, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("outputTokens must be >= 0: -1");
    assertThatThrownBy(
            () ->
                new RequestTiming(
                    Engine.VLLM,
                    "i",
                    TS,
                    SOURCE,
                    "r",
                    "r",
                    null,
                    Double.NaN,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    "otlp"))
        .hasMessage("queueMs must be finite: NaN");
    assertThatThrownBy(() -> new RequestArrived(Engine.VLLM, "i", TS, SOURCE, " ", "r", null, null))
        .hasMessage("requestId is blank");
    assertThatThrownBy(() -> new SourcePosition("f", 0, 0)).hasMessage("line must be >= 1: 0");
  }

  @Test
  void configValuesAreCappedAndSecretsRedactedWhoeverBuildsThem() {
    ServerConfig long_ =
        new ServerConfig(Engine.VLLM, "i", TS, SOURCE, "args", "chat_template", "x".repeat(999));
    ServerConfig secret =
        new ServerConfig(Engine.SGLANG, "i", TS, SOURCE, "args", "api_key", "sk-abcdefgh");
    ServerConfig url =
        new ServerConfig(Engine.SGLANG, "i", TS, SOURCE, "args", "kv_url", "redis://u:pw@h:1/0");
    ServerConfig limit =
        new ServerConfig(Engine.VLLM, "i", TS, SOURCE, "args", "max_num_batched_tokens", "8192");

    assertThat(long_.value()).hasSize(ServerConfig.MAX_VALUE);
    assertThat(secret.value()).isEqualTo(Redaction.REDACTED);
    assertThat(url.value()).isEqualTo("redis://[redacted]@h:1/0");
    assertThat(limit.value()).isEqualTo("8192");
  }

  @Test
  void noticeMessagesAreCapped() {
    ServerNotice notice =
        new ServerNotice(
            Engine.VLLM, "i", TS, SOURCE, "ERROR", ServerNotice.Kind.ERROR, "x".repeat(10_000));
    assertThat(notice.message()).hasSize(ServerNotice.MAX_MESSAGE);
  }

  @Test
  void rejectsJsonThatIsNotAnEvent() {
    assertThatThrownBy(() -> EventJson.read("{\"type\":\"nope\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a tokentrace event");
    assertThatThrownBy(() -> EventJson.read("{\"type\":\"request_arrived\",\"engine\":\"vl"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
