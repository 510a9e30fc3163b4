package dev.tokentrace.parse.sglang;

import static dev.tokentrace.parse.sglang.SglangLineParserTest.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.ServerConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SGLang's startup configuration lines of every prefix generation
 * (docs/formats/sglang.md#startup-configuration-lines), composed by us, and the secret-marker test
 * for {@code ServerArgs}.
 */
final class SglangStartupConfigTest {
  private static final String MARKER = "TT-SECRET-MARKER-51c2";

  static Stream<Arguments> generations() {
    return Stream.of(
        Arguments.of(
            "v0.1 unprefixed server_args",
            "server_args=ServerArgs(model_path='/m', tp_size=1, mem_fraction_static=0.9,"
                + " schedule_heuristic='lpm', log_requests=True)",
            Map.of(
                "model_path", "/m",
                "tp_size", "1",
                "mem_fraction_static", "0.9",
                "schedule_heuristic", "lpm")),
        Arguments.of(
            "v0.2 legacy gpu tag limits line",
            "[gpu_id=1] max_total_num_tokens=180000, max_prefill_tokens=16384,"
                + " max_running_requests=2047, context_len=4096",
            Map.of("max_total_num_tokens", "180000", "max_running_requests", "2047")),
        Arguments.of(
            "v0.3 time-only server_args with quantization and schedule policy",
            "[09:12:01] server_args=ServerArgs(model_path='/m', dtype='auto',"
                + " quantization='fp8', kv_cache_dtype='fp8_e5m2', tp_size=4, dp_size=1,"
                + " max_running_requests=None, chunked_prefill_size=8192,"
                + " schedule_policy='lpm', enable_mixed_chunk=True)",
            Map.of(
                "quantization", "fp8",
                "kv_cache_dtype", "fp8_e5m2",
                "tp_size", "4",
                "max_running_requests", "None",
                "chunked_prefill_size", "8192",
                "schedule_policy", "lpm")),
        Arguments.of(
            "v0.4 dated limits line with chunked prefill and gpu memory",
            "[2025-03-01 10:00:00 TP0] max_total_num_tokens=400000, chunked_prefill_size=8192,"
                + " max_prefill_tokens=16384, max_running_requests=2048, context_len=8192,"
                + " available_gpu_mem=12.50 GB",
            Map.of(
                "chunked_prefill_size", "8192",
                "context_len", "8192",
                "available_gpu_mem", "12.50 GB")),
        Arguments.of(
            "v0.4 load weight begin per rank",
            "[2024-12-10 08:00:09 DP1 TP1] Load weight begin. avail mem=78.40 GB",
            Map.of("gpu_avail_mem_gb.DP1_TP1", "78.40")),
        Arguments.of(
            "v0.4 load weight end",
            "[2025-03-01 10:00:00 TP0] Load weight end. type=LlamaForCausalLM,"
                + " dtype=torch.bfloat16, avail mem=60.00 GB, mem usage=18.00 GB.",
            Map.of("model_class", "LlamaForCausalLM", "weight_dtype", "torch.bfloat16")),
        Arguments.of(
            "v0.4.3 KV cache sizes",
            "[2025-02-24 09:00:13 TP0] KV Cache is allocated. K size: 17.75 GB, V size: 17.75 GB.",
            Map.of("kv_cache_k_size_gb", "17.75", "kv_cache_v_size_gb", "17.75")),
        Arguments.of(
            "v0.5 KV cache with dtype and tokens",
            "[2025-10-01 10:00:00 TP0] KV Cache is allocated. dtype: torch.float8_e4m3fn, #tokens:"
                + " 400000, K size: 20.00 GB, V size: 20.00 GB",
            Map.of("kv_cache_dtype_allocated", "torch.float8_e4m3fn", "kv_cache_tokens", "400000")),
        Arguments.of(
            "2026 ms prefix, ep and pp sizes",
            "[2026-05-01 10:00:00.123] server_args=ServerArgs(model_path='/m', tp_size=8,"
                + " dp_size=2, ep_size=8, pp_size=1, speculative_algorithm='EAGLE3',"
                + " speculative_num_steps=3)",
            Map.of("ep_size", "8", "pp_size", "1", "speculative_algorithm", "EAGLE3")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("generations")
  void readsTheConfigurationOfEveryGeneration(
      String name, String line, Map<String, String> expected) {
    RecordingSink sink = parse(line);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.ignored).isEmpty();
    assertThat(facts(sink)).containsAllEntriesOf(expected);
  }

  @Test
  void serverArgsSecretsNeverReachAnEvent() {
    RecordingSink sink =
        parse(
            "[2025-03-01 10:00:00] server_args=ServerArgs(model_path='/m', api_key='"
                + MARKER
                + "', admin_api_key='"
                + MARKER
                + "', hf_token='"
                + MARKER
                + "', tp_size=2, kv_transfer_url='redis://sglang:"
                + MARKER
                + "@kv:6379/0')");

    assertThat(sink.all).noneMatch(json -> json.contains(MARKER));
    assertThat(facts(sink))
        .containsEntry("api_key", "[redacted]")
        .containsEntry("admin_api_key", "[redacted]")
        .containsEntry("hf_token", "[redacted]")
        .containsEntry("kv_transfer_url", "redis://[redacted]@kv:6379/0")
        .containsEntry("tp_size", "2");
  }

  @Test
  void aRestartWithOtherFlagsGivesTheNewFactsAtTheirOwnLine() {
    RecordingSink sink =
        parse(
            "[2025-03-01 10:00:00] server_args=ServerArgs(model_path='/m', max_running_requests=256)",
            "[2025-03-01 11:00:00] server_args=ServerArgs(model_path='/m', max_running_requests=128)");

    assertThat(sink.events)
        .map(
            e ->
                ((ServerConfig) e).key()
                    + "="
                    + ((ServerConfig) e).value()
                    + "@"
                    + e.source().line())
        .containsExactly(
            "model_path=/m@1",
            "max_running_requests=256@1",
            "model_path=/m@2",
            "max_running_requests=128@2");
  }

  private static Map<String, String> facts(RecordingSink sink) {
    Map<String, String> facts = new LinkedHashMap<>();
    sink.events.forEach(
        e -> {
          assertThat(e).isInstanceOf(ServerConfig.class);
          facts.put(((ServerConfig) e).key(), ((ServerConfig) e).value());
        });
    return facts;
  }
}
