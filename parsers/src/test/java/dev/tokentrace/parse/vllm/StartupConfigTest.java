package dev.tokentrace.parse.vllm;

import static dev.tokentrace.parse.vllm.VllmLines.API;
import static dev.tokentrace.parse.vllm.VllmLines.ENGINE_CORE;
import static dev.tokentrace.parse.vllm.VllmLines.V0_OLD;
import static dev.tokentrace.parse.vllm.VllmLines.V1;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.ServerConfig;
import dev.tokentrace.event.json.EventJson;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The startup configuration lines of every vLLM generation
 * (docs/formats/vllm.md#startup-configuration-lines), composed by us from the format strings, and
 * the secret-marker test: no launch argument that names a secret reaches an event.
 */
final class StartupConfigTest {
  private static final String MARKER = "TT-SECRET-MARKER-7f3a";

  static Stream<Arguments> generations() {
    return Stream.of(
        Arguments.of(
            "2023 V0 args Namespace",
            V0_OLD.replace("llm_engine.py:706", "api_server.py:593")
                + "args: Namespace(host=None, port=8000, model='/models/m-7b', tensor_parallel_size=1,"
                + " max_num_seqs=256, max_model_len=None)",
            Map.of(
                "model", "/models/m-7b",
                "tensor_parallel_size", "1",
                "max_num_seqs", "256",
                "max_model_len", "None",
                "host", "None")),
        Arguments.of(
            "2023 V0 engine config without version",
            V0_OLD
                + "Initializing an LLM engine with config: model='/models/m-7b',"
                + " tokenizer='/models/m-7b', dtype=torch.float16, max_seq_len=4096,"
                + " tensor_parallel_size=1, quantization=None, seed=0)",
            Map.of(
                "engine_core", "V0",
                "model", "/models/m-7b",
                "dtype", "torch.float16",
                "max_seq_len", "4096",
                "quantization", "None",
                "seed", "0")),
        Arguments.of(
            "2024 V0 engine config with version",
            "INFO 05-19 10:13:11 llm_engine.py:98] Initializing an LLM engine (v0.4.1) with"
                + " config: model='/m', speculative_config=None, dtype=torch.float16,"
                + " max_seq_len=4096, tensor_parallel_size=2, quantization=awq,"
                + " enforce_eager=False, kv_cache_dtype=fp8_e5m2, device_config=cuda,"
                + " decoding_config=DecodingConfig(guided_decoding_backend='outlines'), seed=0)",
            Map.of(
                "version", "0.4.1",
                "tensor_parallel_size", "2",
                "quantization", "awq",
                "kv_cache_dtype", "fp8_e5m2",
                "decoding_config", "DecodingConfig(guided_decoding_backend='outlines')",
                "speculative_config", "None")),
        Arguments.of(
            "2025 V1 engine config, nested speculative config",
            ENGINE_CORE
                + "Initializing a V1 LLM engine (v0.9.1) with config: model='/m',"
                + " speculative_config=SpeculativeConfig(method='eagle3', model='/d',"
                + " num_spec_tokens=3), dtype=torch.bfloat16, max_seq_len=131072,"
                + " tensor_parallel_size=2, pipeline_parallel_size=1, data_parallel_size=1,"
                + " enable_prefix_caching=True, chunked_prefill_enabled=True,"
                + " compilation_config={\"level\":3,\"cudagraph_capture_sizes\":[8,4,2,1]}",
            Map.of(
                "version", "0.9.1",
                "engine_core", "V1",
                "speculative_config",
                    "SpeculativeConfig(method='eagle3', model='/d', num_spec_tokens=3)",
                "data_parallel_size", "1",
                "enable_prefix_caching", "True",
                "compilation_config", "{\"level\":3,\"cudagraph_capture_sizes\":[8,4,2,1]}")),
        Arguments.of(
            "2025 V1 non-default args",
            API.replace("loggers.py:271", "cli_args.py:309")
                + "non-default args: {'model': '/m', 'max_num_seqs': 128, 'dtype': 'float16',"
                + " 'speculative_config': {'method': 'ngram', 'num_speculative_tokens': 3}}",
            Map.of(
                "model", "/m",
                "max_num_seqs", "128",
                "dtype", "float16",
                "speculative_config", "{'method': 'ngram', 'num_speculative_tokens': 3}")),
        Arguments.of(
            "2025 chunked prefill",
            V1 + "Chunked prefill is enabled with max_num_batched_tokens=8192.",
            Map.of("chunked_prefill_enabled", "True", "max_num_batched_tokens", "8192")),
        Arguments.of(
            "2025-01 usage-context default (warning)",
            "WARNING 05-19 10:13:11 arg_utils.py:1296] Setting max_num_seqs to 256 for"
                + " OPENAI_API_SERVER usage context.",
            Map.of("max_num_seqs", "256")),
        Arguments.of(
            "2025 platform",
            V1 + "Automatically detected platform cuda.",
            Map.of("platform", "cuda")),
        Arguments.of(
            "2025 V1 KV cache size with Engine prefix",
            API + "Engine 000: GPU KV cache size: 1,121,856 tokens",
            Map.of("gpu_kv_cache_tokens", "1121856")),
        Arguments.of(
            "engine config cut short by a collector",
            ENGINE_CORE
                + "Initializing a V1 LLM engine (v0.10.1) with config: model='/m',"
                + " dtype=torch.bfloat16, decoding_config=DecodingConfig(backend='au",
            Map.of("version", "0.10.1", "model", "/m", "dtype", "torch.bfloat16")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("generations")
  void readsTheConfigurationOfEveryGeneration(
      String name, String line, Map<String, String> expected) {
    RecordingSink sink = RecordingSink.parse(line);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.ignored).isEmpty();
    Map<String, String> facts = facts(sink);
    assertThat(facts).containsAllEntriesOf(expected);
    if (name.contains("cut short")) {
      assertThat(facts).doesNotContainKey("decoding_config");
    }
    assertThat(sink.events).allSatisfy(e -> assertThat(e.source().line()).isEqualTo(1));
  }

  @Test
  void launchArgumentSecretsNeverReachAnEvent() {
    RecordingSink sink =
        RecordingSink.parse(
            API.replace("loggers.py:271", "cli_args.py:309")
                + "non-default args: {'model': '/m', 'api_key': '"
                + MARKER
                + "', 'hf_token': '"
                + MARKER
                + "', 'kv_transfer_config': {'kv_connector': 'x', 'password': '"
                + MARKER
                + "'}, 'otlp_traces_endpoint': 'http://user:"
                + MARKER
                + "@collector:4318', 'served_model_name': ['sk-"
                + MARKER
                + "']}",
            V0_OLD.replace("llm_engine.py:706", "api_server.py:593")
                + "args: Namespace(host=None, api_key='"
                + MARKER
                + "', ssl_keyfile_password='"
                + MARKER
                + "', model='/m')");

    assertThat(sink.events).isNotEmpty();
    assertThat(sink.events).allSatisfy(e -> assertThat(EventJson.write(e)).doesNotContain(MARKER));
    Map<String, String> facts = facts(sink);
    assertThat(facts)
        .containsEntry("api_key", "[redacted]")
        .containsEntry("hf_token", "[redacted]")
        .containsEntry("ssl_keyfile_password", "[redacted]")
        .containsEntry("otlp_traces_endpoint", "http://[redacted]@collector:4318")
        .containsEntry("model", "/m");
    assertThat(facts.get("kv_transfer_config")).contains("'kv_connector': 'x'");
  }

  @Test
  void anUnsetSecretStaysVisibleAsUnset() {
    RecordingSink sink =
        RecordingSink.parse(
            V0_OLD.replace("llm_engine.py:706", "api_server.py:593")
                + "args: Namespace(api_key=None, model='/m')");

    assertThat(facts(sink)).containsEntry("api_key", "None");
  }

  private static Map<String, String> facts(RecordingSink sink) {
    Map<String, String> facts = new LinkedHashMap<>();
    sink.events.forEach(
        e -> {
          assertThat(e).isInstanceOf(ServerConfig.class);
          ServerConfig c = (ServerConfig) e;
          facts.put(c.key(), c.value());
        });
    return facts;
  }
}
