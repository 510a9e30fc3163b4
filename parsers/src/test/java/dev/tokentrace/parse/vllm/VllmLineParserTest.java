package dev.tokentrace.parse.vllm;

import static dev.tokentrace.parse.vllm.VllmLines.API;
import static dev.tokentrace.parse.vllm.VllmLines.API_WARNING;
import static dev.tokentrace.parse.vllm.VllmLines.ENGINE_CORE;
import static dev.tokentrace.parse.vllm.VllmLines.V0;
import static dev.tokentrace.parse.vllm.VllmLines.V0_OLD;
import static dev.tokentrace.parse.vllm.VllmLines.V0_PREFIXED;
import static dev.tokentrace.parse.vllm.VllmLines.V1;
import static dev.tokentrace.parse.vllm.VllmLines.V1_STATS;
import static dev.tokentrace.parse.vllm.VllmLines.V1_STATS_BODY;
import static dev.tokentrace.parse.vllm.VllmLines.V1_STATS_FULL;
import static dev.tokentrace.parse.vllm.VllmLines.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.Engine;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Line tables: one row per format string and variant of docs/formats/vllm.md, composed with our own
 * values, and one row per rejection reason the parser can give.
 */
final class VllmLineParserTest {

  // ---------------------------------------------------------------- header generations
  // (docs/formats/vllm.md#record-header)

  static Stream<Arguments> headers() {
    return Stream.of(
        Arguments.of("2023 no bracket", "INFO 05-19 10:13:11 metrics.py:341] "),
        Arguments.of("2024-10 logging prefix", "vllm-a: INFO 05-19 10:13:11 metrics.py:341] "),
        Arguments.of("2025-02 bracket", "INFO 05-19 10:13:11 [loggers.py:116] "),
        Arguments.of("debug relative path", "DEBUG 05-19 10:13:11 [v1/metrics/loggers.py:271] "),
        Arguments.of("api server", "(APIServer pid=3646) INFO 05-19 10:13:11 [loggers.py:271] "),
        Arguments.of(
            "api server n", "(ApiServer_1 pid=3650) INFO 05-19 10:13:11 [loggers.py:271] "),
        Arguments.of("engine core dp", "(EngineCore_DP0 pid=3812) INFO 05-19 10:13:11 [a.py:1] "),
        Arguments.of("engine core", "(EngineCore pid=3812) INFO 05-19 10:13:11 [loggers.py:271] "),
        Arguments.of("worker rank", "(VllmWorker rank=0 pid=77) INFO 05-19 10:13:11 [w.py:9] "),
        Arguments.of("v0 worker", "(VllmWorkerProcess pid=12) INFO 05-19 10:13:11 metrics.py:3] "),
        Arguments.of("worker tp", "(Worker_TP1 pid=9) INFO 05-19 10:13:11 [loggers.py:271] "),
        Arguments.of("worker pp tp", "(Worker_PP0_TP1 pid=9) INFO 05-19 10:13:11 [x.py:271] "),
        Arguments.of(
            "ray", "(RayWorkerWrapper pid=812, ip=10.1.2.3) INFO 05-19 10:13:11 [l.py:2] "),
        Arguments.of(
            "prefix and logging prefix",
            "(APIServer pid=3646) node-7 | INFO 05-19 10:13:11 [loggers.py:271] "),
        Arguments.of(
            "ansi until 2025-11",
            "\u001B[1;36m(APIServer pid=3646)\u001B[0;0m INFO 05-19 10:13:11 [loggers.py:271] "),
        Arguments.of(
            "ansi and coloured formatter",
            "\u001B[0;36m(APIServer pid=3646)\u001B[0;0m \u001B[32mINFO\u001B[0m"
                + " \u001B[90m05-19 10:13:11\u001B[0m \u001B[90m[loggers.py:271]\u001B[0m "),
        Arguments.of(
            "journald",
            "May 19 10:13:11 gpu-3 vllm[812]: (APIServer pid=3646) INFO 05-19 10:13:11 [l.py:2] "),
        Arguments.of(
            "container runtime",
            "2026-05-19T10:13:11.123456789Z stdout F INFO 05-19 10:13:11 [loggers.py:271] "));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("headers")
  void readsEveryHeaderGeneration(String name, String header) {
    RecordingSink sink = RecordingSink.parse(header + V1_STATS);

    assertThat(sink.eventBodies()).containsExactly(RecordingSink.json(V1_STATS_BODY));
    assertThat(sink.rejections).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("headers")
  void stripsATrailingCarriageReturn(String name, String header) {
    RecordingSink sink = RecordingSink.parse(header + V1_STATS + "\r");

    assertThat(sink.eventBodies()).containsExactly(RecordingSink.json(V1_STATS_BODY));
  }

  // ---------------------------------------------------------------- lines that become events

  static Stream<Arguments> events() {
    return Stream.of(
        // docs/formats/vllm.md#v0-stats-line V0 stats: f-string ≤ 2024-01 (llm_engine.py),
        // metrics.py, trailing period ≥ 05-13
        row(
            V0_OLD
                + "Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 31.6 tokens/s,"
                + " Running: 2 reqs, Swapped: 0 reqs, Pending: 1 reqs, GPU KV cache usage: 3.2%,"
                + " CPU KV cache usage: 0.0%",
            body(
                "engine_stats",
                "'prompt_tps':0.0,'gen_tps':31.6,'running':2,'waiting':1,'swapped':0,"
                    + "'kv_usage_pct':3.2")),
        row(
            V0
                + "Avg prompt throughput: 1024.7 tokens/s, Avg generation throughput: 12.0"
                + " tokens/s, Running: 5 reqs, Swapped: 1 reqs, Pending: 9 reqs, GPU KV cache"
                + " usage: 99.1%, CPU KV cache usage: 4.0%",
            body(
                "engine_stats",
                "'prompt_tps':1024.7,'gen_tps':12.0,'running':5,'waiting':9,'swapped':1,"
                    + "'kv_usage_pct':99.1")),
        row(
            V0_PREFIXED
                + "Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s,"
                + " Running: 0 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.0%,"
                + " CPU KV cache usage: 0.0%.",
            body(
                "engine_stats",
                "'prompt_tps':0.0,'gen_tps':0.0,'running':0,'waiting':0,'swapped':0,"
                    + "'kv_usage_pct':0.0")),
        // docs/formats/vllm.md#v0-stats-line V0 prefix cache line: an event of its own with only
        // the GPU hit rate
        row(
            V0 + "Prefix cache hit rate: GPU: 87.25%, CPU: 0.00%",
            body("engine_stats", "'prefix_hit_pct':87.25")),
        row(V0 + "Prefix cache hit rate: GPU: nan%, CPU: nan%", body("engine_stats", "")),
        // docs/formats/vllm.md#v1-stats-line V1 stats, every period
        row(
            "INFO 05-19 10:13:11 loggers.py:72] Running: 4 reqs, Waiting: 0 reqs ",
            body("engine_stats", "'running':4,'waiting':0")),
        row(
            "INFO 05-19 10:13:11 loggers.py:78] Avg prompt throughput: 120.5 tokens/s, Avg"
                + " generation throughput: 40.2 tokens/s, Running: 4 reqs, Waiting: 0 reqs GPU KV"
                + " cache usage: 2.7%.",
            body(
                "engine_stats",
                "'prompt_tps':120.5,'gen_tps':40.2,'running':4,'waiting':0,'kv_usage_pct':2.7")),
        row(
            "INFO 05-19 10:13:11 loggers.py:80] Avg prompt throughput: 120.5 tokens/s, Avg"
                + " generation throughput: 40.2 tokens/s, Running: 4 reqs, Waiting: 1 reqs, GPU KV"
                + " cache usage: 2.7%, Prefix cache hit rate: 50.0%",
            body(
                "engine_stats",
                "'prompt_tps':120.5,'gen_tps':40.2,'running':4,'waiting':1,'kv_usage_pct':2.7,"
                    + "'prefix_hit_pct':50.0")),
        row(V1 + V1_STATS, V1_STATS_BODY),
        row(
            API + V1_STATS_FULL,
            body(
                "engine_stats",
                "'rank':'Engine 001','prompt_tps':0.0,'gen_tps':256.3,'running':32,'waiting':17,"
                    + "'kv_usage_pct':97.8,'prefix_hit_pct':0.0,'preemptions':5")),
        row(
            API
                + "2 Engines Aggregated: Avg prompt throughput: 10.0 tokens/s, Avg generation"
                + " throughput: 20.0 tokens/s, Running: 6 reqs, Waiting: 0 reqs, GPU KV cache usage:"
                + " 12.5%, Prefix cache hit rate: 7.5%",
            body(
                "engine_stats",
                "'rank':'2 Engines Aggregated','prompt_tps':10.0,'gen_tps':20.0,'running':6,"
                    + "'waiting':0,'kv_usage_pct':12.5,'prefix_hit_pct':7.5")),
        row(
            "(APIServer pid=3646) DEBUG 05-19 10:13:11 [v1/metrics/loggers.py:271] Engine 000: Avg"
                + " prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s,"
                + " Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%, Prefix cache hit"
                + " rate: nan%",
            body(
                "engine_stats",
                "'rank':'Engine 000','prompt_tps':0.0,'gen_tps':0.0,'running':0,'waiting':0,"
                    + "'kv_usage_pct':0.0")),
        row(API + V1_STATS + ", Spilled: 3 reqs", V1_STATS_BODY),
        // docs/formats/vllm.md#request-lines Received request, every layout; prompt text is
        // skipped, never kept
        row(
            "INFO 05-19 10:13:11 async_llm_engine.py:379] Received request"
                + " cmpl-5f0c0a6e3a1b4a7c9d2e8f1a2b3c4d5e: prompt: 'Tell me, max_tokens=5, ok?',"
                + " sampling params: SamplingParams(n=1, best_of=1, temperature=0.7, top_p=1.0,"
                + " stop=['\\n', \", max_tokens=7\"], ignore_eos=False, max_tokens=64,"
                + " logprobs=None), prompt token ids: [1, 7251, 592, 29892, 825].",
            arrived(
                "cmpl-5f0c0a6e3a1b4a7c9d2e8f1a2b3c4d5e",
                "5f0c0a6e3a1b4a7c9d2e8f1a2b3c4d5e",
                5,
                64)),
        row(
            "INFO 05-19 10:13:11 async_llm_engine.py:436] Received request"
                + " cmpl-7b3e0a6e3a1b4a7c9d2e8f1a2b3c4d5f: prompt: \"It's a 'quoted' test\","
                + " prefix_pos: None,sampling_params: SamplingParams(n=1, max_tokens=16),"
                + " prompt_token_ids: [1, 739, 29915], lora_request: None.",
            arrived(
                "cmpl-7b3e0a6e3a1b4a7c9d2e8f1a2b3c4d5f",
                "7b3e0a6e3a1b4a7c9d2e8f1a2b3c4d5f",
                3,
                16)),
        row(
            "INFO 05-19 10:13:11 async_llm_engine.py:524] Received request cmpl-abc-0: prompt:"
                + " 'Say hi', sampling_params: SamplingParams(n=1, max_tokens=8),"
                + " prompt_token_ids: [1, 2], lora_request: None.",
            arrived("cmpl-abc-0", "abc", 2, 8)),
        row(
            "INFO 05-19 10:13:11 async_llm_engine.py:529] Received request"
                + " chat-00112233445566778899aabbccddeeff: prompt: '<s>[INST] hi [/INST]',"
                + " params: SamplingParams(n=1, max_tokens=100), prompt_token_ids: [1, 733, 16289,"
                + " 28793, 12014, 733, 28748, 16289, 28793], lora_request: None.",
            arrived(
                "chat-00112233445566778899aabbccddeeff",
                "00112233445566778899aabbccddeeff",
                9,
                100)),
        row(
            "INFO 05-19 10:13:11 logger.py:36] Received request chatcmpl-client-42: prompt:"
                + " 'line one\\nline two', params: SamplingParams(n=1, max_tokens=None),"
                + " prompt_token_ids: [], lora_request: None, prompt_adapter_request: None.",
            arrived("chatcmpl-client-42", "client-42", 0, null)),
        row(
            "INFO 05-19 10:13:11 [logger.py:39] Received request chatcmpl-client-43: prompt:"
                + " 'x', params: SamplingParams(n=2, max_tokens=32), prompt_token_ids: [55],"
                + " prompt_embeds shape: None, lora_request: None, prompt_adapter_request: None.",
            arrived("chatcmpl-client-43", "client-43", 1, 32)),
        row(
            API.replace("loggers.py:271", "logger.py:43")
                + "Received request chatcmpl-client-44: prompt: None, params:"
                + " SamplingParams(n=1, max_tokens=512), prompt_token_ids: [101, 102],"
                + " prompt_embeds shape: None, lora_request: None.",
            arrived("chatcmpl-client-44", "client-44", 2, 512)),
        row(
            API.replace("loggers.py:271", "logger.py:51")
                + "Received request chatcmpl-a1b2c3d4e5f60718: params: SamplingParams(n=1,"
                + " presence_penalty=0.0, temperature=1.0, stop=[], max_tokens=256, min_tokens=0,"
                + " structured_outputs=None, extra_args=None), lora_request: None.",
            arrived("chatcmpl-a1b2c3d4e5f60718", "a1b2c3d4e5f60718", null, 256)),
        // docs/formats/vllm.md#request-lines outcome lines
        row(
            "INFO 05-19 10:13:11 async_llm_engine.py:137] Finished request cmpl-abc-0.",
            body("request_finished", "'request_id':'cmpl-abc-0','request_key':'abc'")),
        row(
            V0 + "Aborted request chat-00112233445566778899aabbccddeeff.",
            aborted(
                "chat-00112233445566778899aabbccddeeff",
                "00112233445566778899aabbccddeeff",
                "aborted")),
        row(
            API + "Aborted request(s) chatcmpl-r1,chatcmpl-r2.",
            aborted("chatcmpl-r1", "r1", "aborted"),
            aborted("chatcmpl-r2", "r2", "aborted")),
        row(API + "Request chatcmpl-r3 aborted.", aborted("chatcmpl-r3", "r3", "aborted")),
        row(
            API + "Request chatcmpl-r4 failed (engine dead).",
            aborted("chatcmpl-r4", "r4", "failed (engine dead)")),
        row(
            API + "Request chatcmpl-r5 failed (bad request).",
            aborted("chatcmpl-r5", "r5", "failed (bad request)")),
        row(
            API + "Request chatcmpl-r6 failed (bad request): max_tokens must be at least 1.",
            aborted("chatcmpl-r6", "r6", "failed (bad request)")),
        row(
            API + "Request chatcmpl-r7 failed (input error): stream closed.",
            aborted("chatcmpl-r7", "r7", "failed (input error)")),
        row(API + "Request chatcmpl-r8 failed.", aborted("chatcmpl-r8", "r8", "failed")),
        row(
            API + "Request chatcmpl-r9 failed due to ValueError: bad shape.",
            aborted("chatcmpl-r9", "r9", "failed due to ValueError")),
        row(
            ENGINE_CORE + "Rejecting request chatcmpl-r10 (server shutting down)",
            aborted("chatcmpl-r10", "r10", "server shutting down")),
        row(
            API
                + "Generated response chatcmpl-client-42: output: 'Hello, world! finish_reason:"
                + " x', output_token_ids: [9906, 11, 1917, 0], finish_reason: stop",
            body(
                "request_finished",
                "'request_id':'chatcmpl-client-42','request_key':'client-42','output_tokens':4,"
                    + "'finish_reason':'stop'")),
        row(
            API
                + "Generated response chatcmpl-client-45 (streaming complete): output:"
                + " '<streaming_complete: 17 tokens>', output_token_ids: None, finish_reason:"
                + " streaming_complete",
            body(
                "request_finished",
                "'request_id':'chatcmpl-client-45','request_key':'client-45','output_tokens':17")),
        // docs/formats/vllm.md#scheduler-lines notices
        row(
            "WARNING 05-19 10:13:11 scheduler.py:1560] Sequence group chat-0011 is preempted by"
                + " PreemptionMode.RECOMPUTE mode because there is not enough KV cache space. This"
                + " can affect the end-to-end performance. Increase gpu_memory_utilization or"
                + " tensor_parallel_size to provide more KV cache memory."
                + " total_num_cumulative_preemption=51",
            notice(
                "WARNING",
                "preemption",
                "Sequence group chat-0011 is preempted by PreemptionMode.RECOMPUTE mode because"
                    + " there is not enough KV cache space. This can affect the end-to-end"
                    + " performance. Increase gpu_memory_utilization or tensor_parallel_size to"
                    + " provide more KV cache memory. total_num_cumulative_preemption=51")),
        row(
            "WARNING 05-19 10:13:11 scheduler.py:1089] Sequence group 165 is preempted by"
                + " PreemptionMode.SWAP mode because there is not enough KV cache space."
                + " total_num_cumulative_preemption=1",
            notice(
                "WARNING",
                "preemption",
                "Sequence group 165 is preempted by PreemptionMode.SWAP mode because there is not"
                    + " enough KV cache space. total_num_cumulative_preemption=1")),
        row(
            "(EngineCore_DP0 pid=3812) INFO 05-19 10:13:11 [kv_cache_utils.py:1087] GPU KV cache"
                + " size: 176,240 tokens",
            config("kv_cache", "gpu_kv_cache_tokens", "176240")),
        row(
            "(EngineCore_DP0 pid=3812) INFO 05-19 10:13:11 [kv_cache_utils.py:1091] Maximum"
                + " concurrency for 8,192 tokens per request: 21.51x",
            config("kv_cache", "max_concurrency", "21.51"),
            config("kv_cache", "max_concurrency_tokens_per_request", "8192")),
        row(
            "INFO 05-19 10:13:11 gpu_executor.py:122] # GPU blocks: 2048, # CPU blocks: 512",
            config("kv_cache", "num_gpu_blocks", "2048"),
            config("kv_cache", "num_cpu_blocks", "512")),
        row(
            "INFO 05-19 10:13:11 executor_base.py:110] # cuda blocks: 4096, # CPU blocks: 0",
            config("kv_cache", "num_gpu_blocks", "4096"),
            config("kv_cache", "num_cpu_blocks", "0")),
        row(
            "INFO 05-19 10:13:11 [scheduler.py:222] Chunked prefill is enabled with"
                + " max_num_batched_tokens=2048.",
            config("scheduler", "chunked_prefill_enabled", "True"),
            config("scheduler", "max_num_batched_tokens", "2048")),
        row(
            API.replace("loggers.py:271", "api_server.py:1885") + "vLLM API server version 0.9.1",
            config("version", "version", "0.9.1")),
        row(
            ENGINE_CORE + "Initializing a V1 LLM engine (v0.9.1) with config: model='m', seed=0",
            config("engine_config", "version", "0.9.1"),
            config("engine_config", "engine_core", "V1"),
            config("engine_config", "model", "m"),
            config("engine_config", "seed", "0")),
        row(
            API
                + "Engine 000: vllm cache_config_info with initialization after num_gpu_blocks is:"
                + " 11015",
            notice(
                "INFO",
                "startup",
                "Engine 000: vllm cache_config_info with initialization after num_gpu_blocks is:"
                    + " 11015")),
        row(
            API_WARNING + "Default sampling parameters have been overridden.",
            notice("WARNING", "warning", "Default sampling parameters have been overridden.")),
        row(
            "(APIServer pid=3646) ERROR 05-19 10:13:11 [core_client.py:564] Engine core proc"
                + " EngineCore_DP0 died unexpectedly, shutting down client.",
            notice(
                "ERROR",
                "error",
                "Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.")),
        row(
            "CRITICAL 05-19 10:13:11 [launcher.py:99] Engine failed: CUDA out of memory.",
            notice("CRITICAL", "oom", "Engine failed: CUDA out of memory.")),
        // docs/formats/vllm.md#scheduler-lines iteration details, V1 opt-in
        row(
            ENGINE_CORE
                + "Iteration(812): 2 context requests, 1536 context tokens, 0 generation"
                + " requests, 0 generation tokens, iteration elapsed time: 41.25 ms",
            step("prefill", 812, 2, 1536, 2, 0, 41.25)),
        row(
            ENGINE_CORE
                + "Iteration(813): 0 context requests, 0 context tokens, 30 generation"
                + " requests, 30 generation tokens, iteration elapsed time: 9.80 ms",
            step("decode", 813, 30, 0, 0, 30, 9.8)),
        row(
            ENGINE_CORE
                + "Iteration(814): 1 context requests, 512 context tokens, 30 generation"
                + " requests, 30 generation tokens, iteration elapsed time: 27.03 ms",
            step("mixed", 814, 31, 512, 1, 30, 27.03)),
        // docs/formats/vllm.md#otlp-json-export OTLP export lines
        row(OtlpLines.V1_LINE, OtlpLines.V1_BODY),
        row(OtlpLines.V0_LINE, OtlpLines.V0_BODY));
  }

  @ParameterizedTest
  @MethodSource("events")
  void turnsEachFormatIntoItsEvents(String line, List<String> expected) {
    RecordingSink sink = RecordingSink.parse(line);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.eventBodies())
        .containsExactlyElementsOf(expected.stream().map(RecordingSink::json).toList());
    assertThat(sink.events).allSatisfy(event -> assertThat(event.engine()).isEqualTo(Engine.VLLM));
  }

  // ---------------------------------------------------------------- lines ignored by a rule

  static Stream<Arguments> ignoredLines() {
    return Stream.of(
        Arguments.of(API + "Started engine process with PID 3812.", "vllm: other record"),
        Arguments.of(
            "DEBUG 05-19 10:13:11 [utils/gc_utils.py:40] GC took 3.1ms", "vllm: other record"),
        Arguments.of(
            "(APIServer pid=3646) DEBUG 05-19 10:13:11 [logger.py:49] Request chatcmpl-client-42"
                + " details: prompt: 'secret text', prompt_token_ids: [1, 2, 3], prompt_embeds"
                + " shape: None.",
            "vllm: request details"),
        Arguments.of(
            API
                + "Generated response chatcmpl-client-42 (streaming delta): output: 'Hel',"
                + " output_token_ids: [9906], finish_reason: None",
            "vllm: generated response delta"),
        Arguments.of(
            V0
                + "Speculative metrics: Draft acceptance rate: 0.651, System efficiency: 0.570,"
                + " Number of speculative tokens: 3, Number of accepted tokens: 1302, Number of"
                + " draft tokens tokens: 2000, Number of emitted tokens tokens: 1710.",
            "vllm: spec decode metrics"),
        Arguments.of(
            API
                + "SpecDecoding metrics: Mean acceptance length: 2.31, Accepted throughput: 40.10"
                + " tokens/s, Drafted throughput: 90.00 tokens/s, Accepted: 401 tokens, Drafted: 900"
                + " tokens, Per-position acceptance rate: 0.712, 0.455, 0.143, Avg Draft acceptance"
                + " rate: nan%",
            "vllm: spec decode metrics"),
        Arguments.of(
            API + "KV Transfer metrics: num_successful_transfers=4, avg_xfer_time_ms=1.2",
            "vllm: kv transfer metrics"),
        Arguments.of(API + "Engine 000: MFU: 312.5 TF/s/GPU 1450.2 GB/s/GPU", "vllm: mfu metrics"),
        Arguments.of(
            "(EngineCore_DP0 pid=3812) INFO 05-19 10:13:11 [cuda_graph.py:120] **CUDAGraph Config"
                + " Settings:**",
            "vllm: cudagraph metrics"),
        Arguments.of(
            "(Worker_TP0 pid=90) INFO 05-19 10:13:11 [forward_context.py:160] Batchsize forward"
                + " time stats (batchsize, count, median_time(ms)): [(256, 40, 12.51), (8, 3, 2.2)]",
            "vllm: batchsize forward stats"),
        Arguments.of(
            ENGINE_CORE
                + "Iteration(815): 0 context requests, 0 context tokens, 0 generation requests, 0"
                + " generation tokens, iteration elapsed time: 0.05 ms",
            "vllm: empty iteration"),
        Arguments.of(
            "INFO:     10.80.23.18:51408 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK",
            "uvicorn: access"),
        Arguments.of(
            "(APIServer pid=3646) INFO:     127.0.0.1:40110 - \"GET /metrics HTTP/1.1\" 200 OK",
            "uvicorn: access"),
        Arguments.of(
            "\u001B[0;36m(APIServer pid=3646)\u001B[0;0m \u001B[32mINFO\u001B[0m:     10.0.0.5:1 -"
                + " \"GET /health HTTP/1.1\" 200 OK",
            "uvicorn: access"),
        Arguments.of(
            "ERROR:    10.0.0.9:5521 - \"POST /v1/completions HTTP/1.1\" 500 Internal Server Error",
            "uvicorn: access"),
        Arguments.of("INFO:     Started server process [3646]", "uvicorn: lifecycle"),
        Arguments.of("INFO:     Waiting for application startup.", "uvicorn: lifecycle"),
        Arguments.of(
            "(APIServer pid=3646) INFO:     Application startup complete.", "uvicorn: lifecycle"),
        Arguments.of(
            "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)",
            "uvicorn: lifecycle"),
        Arguments.of("INFO:     Shutting down", "uvicorn: lifecycle"),
        Arguments.of("INFO:     Finished server process [3646]", "uvicorn: lifecycle"),
        Arguments.of("WARNING:  Invalid HTTP request received.", "uvicorn: lifecycle"),
        Arguments.of(
            "Loading safetensors checkpoint shards:  50% Completed | 1/2 [00:01<00:01,  1.62s/it]",
            "tqdm: progress bar"),
        Arguments.of(
            "(EngineCore_DP0 pid=3812) Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):"
                + " 100%|##########| 67/67 [00:04<00:00, 15.20it/s]",
            "tqdm: progress bar"),
        Arguments.of("", "vllm: blank line"),
        Arguments.of("   ", "vllm: blank line"),
        Arguments.of("(APIServer pid=3646) ", "vllm: blank line"),
        Arguments.of(
            "/usr/lib/python3/dist-packages/torch/cuda/__init__.py:61: FutureWarning: The pynvml"
                + " package is deprecated.",
            "python: warning"),
        Arguments.of(
            "[W519 10:13:11.123456 ProcessGroupNCCL.cpp:4561] Warning: destroy_process_group()"
                + " was not called",
            "torch: c10 log"),
        Arguments.of(
            "(Worker_TP1 pid=9) [rank1]:[W519 10:13:11.123456 ProcessGroupNCCL.cpp:4561] Warning",
            "torch: c10 log"),
        Arguments.of(
            "gpu-node-3:812:812 [0] NCCL INFO Bootstrap : Using eth0:10.1.2.3<0>", "nccl: log"),
        Arguments.of(
            "[Gloo] Rank 0 is connected to 1 peer ranks. Expected number of connected peer ranks"
                + " is : 1",
            "gloo: log"),
        Arguments.of(
            "  File \"/opt/vllm/vllm/v1/engine/core.py\", line 612, in run_engine_core",
            "vllm: traceback"),
        Arguments.of("--- Logging error ---", "python: logging error"),
        Arguments.of(
            "   \u2584\u2588\u2580 \u2588\u2588   \u2580\u2580  tokentrace test", "vllm: banner"),
        Arguments.of(OtlpLines.STARTUP_SPANS_ONLY, "otlp: no llm_request span"));
  }

  @ParameterizedTest
  @MethodSource("ignoredLines")
  void ignoresKnownNoiseByANamedRule(String line, String rule) {
    RecordingSink sink = RecordingSink.parse(line);

    assertThat(sink.rules()).containsExactly(rule);
    assertThat(sink.events).isEmpty();
    assertThat(sink.rejections).isEmpty();
  }

  // ---------------------------------------------------------------- rejected lines

  static Stream<Arguments> badLines() {
    return Stream.of(
        Arguments.of("hello world", "unrecognized line"),
        Arguments.of("{'model': 'm'}", "unrecognized line"),
        Arguments.of("\uFFFD\uFFFD garbage", "invalid utf-8"),
        Arguments.of("\uFFFDINFO 05-19 10:13:11 [loggers.py:271] " + V1_STATS, "invalid utf-8"),
        Arguments.of(
            "INFO 13-19 10:13:11 [loggers.py:271] " + V1_STATS, "record header: bad timestamp"),
        Arguments.of(
            "INFO 02-30 10:13:11 [loggers.py:271] " + V1_STATS, "record header: bad timestamp"),
        Arguments.of("INFO 05-19 24:13:11 [loggers.py:271] x", "record header: bad timestamp"),
        Arguments.of("INFO 05-19 10:13:11 no source here", "record header: bad source location"),
        Arguments.of(
            "INFO 05-19 10:13:11 [loggers.py:27x] y", "record header: bad source location"),
        Arguments.of(API + "Engine 000: Avg prompt throughput", "stats line: bad item"),
        Arguments.of(
            API + V1_STATS.replace("Running: 8", "Running: eight"),
            "stats line: bad 'Running' value"),
        Arguments.of(
            API + V1_STATS.replace("Running: 8", "Running: 99999999999"),
            "stats line: bad 'Running' value"),
        Arguments.of(
            API + V1_STATS.replace("612.4", "-612.4"),
            "stats line: bad 'Avg prompt throughput' value"),
        Arguments.of(
            API + V1_STATS.replace("612.4", "6\uFFFD2.4"),
            "stats line: bad 'Avg prompt throughput' value"),
        Arguments.of(
            API + V1_STATS.replace("41.5%", "41.5"), "stats line: bad 'GPU KV cache usage' value"),
        Arguments.of(
            API + V1_STATS.replace("41.5%", "Infinity%"),
            "stats line: bad 'GPU KV cache usage' value"),
        Arguments.of(
            API + V1_STATS.replace(", Prefix cache hit rate: 12.0%", ""),
            "stats line: missing 'Prefix cache hit rate'"),
        Arguments.of(
            API + V1_STATS.substring(0, V1_STATS.indexOf(", GPU")),
            "stats line: missing 'GPU KV cache usage'"),
        Arguments.of(
            "INFO 05-19 10:13:11 loggers.py:78] Avg prompt throughput: 1.0 tokens/s, Avg"
                + " generation throughput: 4.0 tokens/s, Running: 4 reqs, Waiting: 0 reqs GPU KV"
                + " cache usage: 2.7%",
            "stats line: missing final '.'"),
        Arguments.of(
            V0
                + "Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 31.6 tokens/s,"
                + " Running: 2 reqs, Swapped: 0 reqs, Pending: 1 reqs, GPU KV cache usage: 3.2%",
            "stats line: missing 'CPU KV cache usage'"),
        Arguments.of(
            V0 + "Prefix cache hit rate: GPU: 9x%, CPU: 0.00%",
            "prefix cache line: bad 'GPU' value"),
        Arguments.of(
            V0 + "Prefix cache hit rate: GPU: 9.00%, CPU: 0.0",
            "prefix cache line: bad 'CPU' value"),
        Arguments.of(API + "Received request chatcmpl-x with no layout", "request line: malformed"),
        Arguments.of(API + "Added request chatcmpl-client-4", "request line: truncated"),
        Arguments.of(API + "Finished request  .", "request line: empty id"),
        Arguments.of(API + "Aborted request(s) a,,b.", "request line: empty id"),
        Arguments.of(
            API + "Aborted request " + "x".repeat(2000) + ".", "request line: id too long"),
        Arguments.of(
            API
                + "Received request chatcmpl-\uFFFD: params: SamplingParams(n=1), lora_request: None.",
            "request line: invalid utf-8 in id"),
        Arguments.of(
            ENGINE_CORE + "Iteration(x): 1 context requests",
            "iteration line: bad 'Iteration' value"),
        Arguments.of(ENGINE_CORE + "Iteration(5) 1 context requests", "iteration line: malformed"),
        Arguments.of(
            ENGINE_CORE
                + "Iteration(5): 1 context requests, many context tokens, 0 generation requests, 0"
                + " generation tokens, iteration elapsed time: 1.00 ms",
            "iteration line: bad 'context tokens' value"),
        Arguments.of(
            ENGINE_CORE
                + "Iteration(5): 1 context requests, 8 context tokens, 0 generation requests, 0"
                + " generation tokens, iteration elapsed time: fast ms",
            "iteration line: bad 'iteration elapsed time' value"),
        Arguments.of(
            ENGINE_CORE
                + "Iteration(5): 1 context requests, 8 context tokens, 0 generation requests, 0"
                + " generation tokens, iteration elapsed time: 1.00",
            "iteration line: malformed"),
        Arguments.of("{\"resourceSpans\":[{\"x\" 1}]}", "otlp: invalid json: "),
        Arguments.of("{\"resourceSpans\":[{\"scopeSpans\":[", "otlp: truncated json"),
        Arguments.of("{\"resourceSpans\":[]} trailing", "otlp: invalid json: "),
        Arguments.of(
            "{\"asctime\":\"05-19\",\"message\":\"hi\"}", "json line: not an otlp trace export"),
        Arguments.of(OtlpLines.WITHOUT_ID, "otlp: llm_request span without gen_ai.request.id"),
        Arguments.of(OtlpLines.BAD_START, "otlp: bad 'startTimeUnixNano' value"),
        Arguments.of(OtlpLines.BAD_E2E, "otlp: bad 'gen_ai.latency.e2e' value"),
        Arguments.of(OtlpLines.BAD_TOKENS, "otlp: bad 'gen_ai.usage.prompt_tokens' value"),
        Arguments.of(OtlpLines.BAD_ID, "otlp: bad 'gen_ai.request.id' value"));
  }

  @ParameterizedTest
  @MethodSource("badLines")
  void rejectsBadLinesWithAStableReason(String line, String reason) {
    RecordingSink sink = RecordingSink.parse(line);

    assertThat(sink.events).isEmpty();
    assertThat(sink.ignored).isEmpty();
    assertThat(sink.rejections).hasSize(1);
    if (reason.endsWith(": ")) {
      assertThat(sink.reasons().get(0)).startsWith(reason);
    } else {
      assertThat(sink.reasons()).containsExactly(reason);
    }
    assertThat(sink.rejections.get(0).engine()).isEqualTo(Engine.VLLM);
  }

  // ---------------------------------------------------------------- row builders

  private static String config(String section, String key, String value) {
    return body(
        "server_config", "'section':'" + section + "','key':'" + key + "','value':'" + value + "'");
  }

  private static Arguments row(String line, String... expectedBodies) {
    return Arguments.of(line, Arrays.asList(expectedBodies));
  }

  private static String arrived(String id, String key, Integer promptTokens, Integer maxTokens) {
    return body(
        "request_arrived",
        "'request_id':'"
            + id
            + "','request_key':'"
            + key
            + "'"
            + (promptTokens == null ? "" : ",'prompt_tokens':" + promptTokens)
            + (maxTokens == null ? "" : ",'max_tokens':" + maxTokens));
  }

  private static String aborted(String id, String key, String reason) {
    return body(
        "request_aborted",
        "'request_id':'" + id + "','request_key':'" + key + "','reason':'" + reason + "'");
  }

  private static String notice(String level, String kind, String message) {
    return body(
        "server_notice",
        "'level':'"
            + level
            + "','kind':'"
            + kind
            + "','message':'"
            + message.replace("'", "\\u0027")
            + "'");
  }

  private static String step(
      String phase, long iteration, int batch, int newTokens, int ctx, int gen, double ms) {
    return body(
        "batch_step",
        "'rank':'Engine 000','iteration':"
            + iteration
            + ",'phase':'"
            + phase
            + "','batch_size':"
            + batch
            + ",'new_tokens':"
            + newTokens
            + ",'step_ms':"
            + ms
            + ",'step_ms_derived':false,'ctx_requests':"
            + ctx
            + ",'gen_requests':"
            + gen);
  }

  static JsonNode parsedBody(String line) {
    return RecordingSink.parse(line).eventBodies().get(0);
  }
}
