package dev.tokentrace.parse.trtllm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Line tables for {@link TrtLlmLineParser}: one row per format-string variant and JSON key set in
 * docs/formats/trtllm.md, composed with our own values, and one row per reject reason. Each row
 * lists what the parser reports, in order: the event as its JSON, {@code ignored <line>: <rule>} or
 * {@code rejected <line>: <reason>}.
 */
final class TrtLlmLineParserTest {
  static final ParseSettings SETTINGS = ParseSettings.of("trt-0", 2025);

  static Stream<Arguments> formats() {
    return Stream.of(
        row(
            "python 2025 executor limits line",
            """
            [04/24/2025-16:00:41] [TRT-LLM] [I] max_seq_len=131072, max_num_requests=64, max_num_tokens=8192, max_batch_size=64
            """,
            """
            {"type":"server_config","engine":"trtllm","instance":"trt-0","ts":"2025-04-24T16:00:41.000Z","source":{"path":"t.log","line":1,"offset":0},"section":"limits","key":"max_seq_len","value":"131072"}
            {"type":"server_config","engine":"trtllm","instance":"trt-0","ts":"2025-04-24T16:00:41.000Z","source":{"path":"t.log","line":1,"offset":0},"section":"limits","key":"max_num_requests","value":"64"}
            {"type":"server_config","engine":"trtllm","instance":"trt-0","ts":"2025-04-24T16:00:41.000Z","source":{"path":"t.log","line":1,"offset":0},"section":"limits","key":"max_num_tokens","value":"8192"}
            {"type":"server_config","engine":"trtllm","instance":"trt-0","ts":"2025-04-24T16:00:41.000Z","source":{"path":"t.log","line":1,"offset":0},"section":"limits","key":"max_batch_size","value":"64"}
            """),
        row(
            "cpp classic rank to gpu",
            """
            [TensorRT-LLM][INFO][1] Rank 1 is using GPU 1
            """,
            """
            {"type":"server_config","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"section":"gpu","key":"gpu_device.rank1","value":"1"}
            """),
        row(
            "cpp classic engine build version",
            """
            [TensorRT-LLM][INFO] Engine version 0.12.0 found in the config file, assuming engine(s) built by new builder API.
            """,
            """
            {"type":"server_config","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"section":"engine_build","key":"engine_build_version","value":"0.12.0"}
            """),
        row(
            "2026 module tags, a secret-named key among the limits",
            """
            [05/20/2026-07:06:31] [TRT-LLM] [I] [llmapi] max_seq_len=8192, hf_token=TT-SECRET-MARKER-9d1e
            """,
            """
            {"type":"server_config","engine":"trtllm","instance":"trt-0","ts":"2026-05-20T07:06:31.000Z","source":{"path":"t.log","line":1,"offset":0},"section":"limits","key":"max_seq_len","value":"8192"}
            {"type":"server_config","engine":"trtllm","instance":"trt-0","ts":"2026-05-20T07:06:31.000Z","source":{"path":"t.log","line":1,"offset":0},"section":"limits","key":"hf_token","value":"[redacted]"}
            """),
        row(
            "cpp classic warning",
            """
            [TensorRT-LLM][WARNING] gpu_device_ids is not specified, will be automatically set
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":"gpu_device_ids is not specified, will be automatically set"}
            """),
        row(
            "cpp classic error waits for traceback then finish",
            """
            [TensorRT-LLM][ERROR] Assertion failed: slot >= 0 (batchSlots.cpp:41)
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"ERROR","kind":"error","message":"Assertion failed: slot >= 0 (batchSlots.cpp:41)"}
            """),
        row(
            "cpp classic rank form config",
            """
            [TensorRT-LLM][INFO][3] [MemUsageChange] Allocated 12.50 GiB for max tokens in paged KV cache (81920).
            """,
            """
            {"type":"server_config","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"section":"kv_cache","key":"kv_cache_gib","value":"12.50"}
            {"type":"server_config","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"section":"kv_cache","key":"kv_cache_tokens","value":"81920"}
            """),
        row(
            "cpp classic mpi size config",
            """
            [TensorRT-LLM][INFO] MPI size: 2, rank: 0
            """,
            """
            {"type":"server_config","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"section":"gpu","key":"mpi_size","value":"2"}
            """),
        row(
            "cpp classic other info ignored",
            """
            [TensorRT-LLM][INFO] Loaded engine size: 4096 MiB
            """,
            """
            ignored 1: trtllm: other message
            """),
        row(
            "cpp classic debug ignored",
            """
            [TensorRT-LLM][DEBUG] Set logger level to DEBUG
            """,
            """
            ignored 1: trtllm: debug message
            """),
        row(
            "cpp classic empty message",
            """
            [TensorRT-LLM][WARNING]
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":""}
            """),
        row(
            "version banner",
            """
            [TensorRT-LLM] TensorRT-LLM version: 0.16.0
            """,
            """
            {"type":"server_config","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"section":"version","key":"version","value":"0.16.0"}
            """),
        row(
            "cpp preemption warning",
            """
            [TensorRT-LLM][WARNING] Pausing request 17 because the KV cache has no free blocks
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"preemption","message":"Pausing request 17 because the KV cache has no free blocks"}
            """),
        row(
            "cpp oom error",
            """
            [TensorRT-LLM][ERROR] CUDA runtime error in cudaMalloc: out of memory (allocator.cpp:99)
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"ERROR","kind":"oom","message":"CUDA runtime error in cudaMalloc: out of memory (allocator.cpp:99)"}
            """),
        row(
            "cpp 2026 config",
            """
            [TRT-LLM] [I] [batchmgr][RANK 0] Number of tokens per block: 64.
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"INFO","kind":"config","message":"Number of tokens per block: 64."}
            """),
        row(
            "cpp 2026 warning rank 1",
            """
            [TRT-LLM] [W] [runtime][RANK 1] Cache transceiver is not configured
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":"Cache transceiver is not configured"}
            """),
        row(
            "cpp 2026 intermediate padded module",
            """
            [TRT-LLM] [W] [kernels ] [RANK 2] Falling back to a slower kernel
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":"Falling back to a slower kernel"}
            """),
        row(
            "cpp 2026 no rank",
            """
            [TRT-LLM] [E] [  others] Unexpected state in scheduler
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"ERROR","kind":"error","message":"Unexpected state in scheduler"}
            """),
        row(
            "python 2023 mpi rank",
            """
            [03/14/2024-09:26:53] [TRT-LLM] [MPI_Rank 3] [W] Engine built without paged context FMHA
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2024-03-14T09:26:53.000Z","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":"Engine built without paged context FMHA"}
            """),
        row(
            "python 2024 plain",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [W] Overriding max_num_tokens to 8192
            """,
            """
            {"type":"server_config","engine":"trtllm","instance":"trt-0","ts":"2025-08-07T02:28:51.000Z","source":{"path":"t.log","line":1,"offset":0},"section":"override","key":"max_num_tokens","value":"8192"}
            """),
        row(
            "python 2025 rank before level",
            """
            [12/04/2025-18:38:28] [TRT-LLM] [RANK 0] [E] Executor worker returned an error
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2025-12-04T18:38:28.000Z","source":{"path":"t.log","line":1,"offset":0},"level":"ERROR","kind":"error","message":"Executor worker returned an error"}
            """),
        row(
            "python 2026 module",
            """
            [06/05/2026-22:17:33] [TRT-LLM] [W] [llmapi] Using default gpus_per_node: 8
            """,
            """
            {"type":"server_config","engine":"trtllm","instance":"trt-0","ts":"2026-06-05T22:17:33.000Z","source":{"path":"t.log","line":1,"offset":0},"section":"default","key":"gpus_per_node","value":"8"}
            """),
        row(
            "python 2026 module and rank",
            """
            [06/05/2026-22:17:34] [TRT-LLM] [W] [_torch][RANK 7] Slow all-reduce detected
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2026-06-05T22:17:34.000Z","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":"Slow all-reduce detected"}
            """),
        row(
            "python 2026 without timestamp",
            """
            [TRT-LLM] [E] [_torch][RANK 7] Executor loop crashed on this rank
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"ERROR","kind":"error","message":"Executor loop crashed on this rank"}
            """),
        row(
            "python old message with camel tag stays in message",
            """
            [08/07/2025-02:28:52] [TRT-LLM] [I] [MemUsageChange] Allocated 3.20 GiB for KV cache
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2025-08-07T02:28:52.000Z","source":{"path":"t.log","line":1,"offset":0},"level":"INFO","kind":"config","message":"[MemUsageChange] Allocated 3.20 GiB for KV cache"}
            """),
        row(
            "tensorrt builder logger",
            """
            [08/07/2025-02:28:53] [TRT] [W] Detected layernorm in FP16
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2025-08-07T02:28:53.000Z","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":"Detected layernorm in FP16"}
            """),
        row(
            "python info ignored",
            """
            [08/07/2025-02:28:54] [TRT-LLM] [I] Loading model weights
            """,
            """
            ignored 1: trtllm: other message
            """),
        row(
            "python verbose ignored",
            """
            [08/07/2025-02:28:54] [TRT-LLM] [V] has 2 active_request, scheduled 1 context requests and 1 generation requests
            """,
            """
            ignored 1: trtllm: debug message
            """),
        row(
            "client disconnect abort",
            """
            [08/07/2025-02:28:55] [TRT-LLM] [I] Address(host='10.0.0.5', port=51234) is disconnected, abort 42
            """,
            """
            {"type":"request_aborted","engine":"trtllm","instance":"trt-0","ts":"2025-08-07T02:28:55.000Z","source":{"path":"t.log","line":1,"offset":0},"request_id":"42","request_key":"42","reason":"client disconnected"}
            """),
        row(
            "request cancelled info",
            """
            [08/07/2025-02:28:56] [TRT-LLM] [I] Request 9 cancelled by the client
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2025-08-07T02:28:56.000Z","source":{"path":"t.log","line":1,"offset":0},"level":"INFO","kind":"warning","message":"Request 9 cancelled by the client"}
            """),
        row(
            "iter A elapsed_time",
            """
            [05/02/2025-10:11:12] [TRT-LLM] [I] iter = 311, global_rank = 0, rank = 0, currank_total_requests = 40/40, elapsed_time = 0.0215s, timestamp = 2025-05-02 10:11:12, states = {'num_ctx_requests': 1, 'num_ctx_tokens': 512, 'num_generation_tokens': 7}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2025-05-02T10:11:12.000Z","source":{"path":"t.log","line":1,"offset":0},"rank":"RANK 0","iteration":311,"phase":"mixed","new_tokens":512,"step_ms":21.5,"step_ms_derived":false,"ctx_requests":1}
            """),
        row(
            "iter B num_scheduled colon",
            """
            [06/02/2025-11:00:05] [TRT-LLM] [I] iter = 1200, global_rank = 0, rank = 0, currank_total_requests = 64/64, elapsed_time = 0.0182s, timestamp = 2025-06-02 11:00:05, num_scheduled_requests: 8, states = {'num_ctx_requests': 0, 'num_ctx_tokens': 0, 'num_generation_tokens': 8}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2025-06-02T11:00:05.000Z","source":{"path":"t.log","line":1,"offset":0},"rank":"RANK 0","iteration":1200,"phase":"decode","batch_size":8,"new_tokens":0,"step_ms":18.2,"step_ms_derived":false,"ctx_requests":0,"gen_requests":8}
            """),
        row(
            "iter C host_step_time",
            """
            [09/10/2025-08:30:00] [TRT-LLM] [RANK 0] [I] iter = 7, global_rank = 0, rank = 0, currank_total_requests = 3/3, host_step_time = 14.73ms, prev_device_step_time = N/A, timestamp = 2025-09-10 08:30:00, num_scheduled_requests: 3, states = {'num_ctx_requests': 3, 'num_ctx_tokens': 6144, 'num_generation_tokens': 0}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2025-09-10T08:30:00.000Z","source":{"path":"t.log","line":1,"offset":0},"rank":"RANK 0","iteration":7,"phase":"prefill","batch_size":3,"new_tokens":6144,"step_ms":14.73,"step_ms_derived":false,"ctx_requests":3,"gen_requests":0}
            """),
        row(
            "iter D 2026",
            """
            [08/19/2026-14:11:49] [TRT-LLM] [I] [_torch][RANK 0] iter = 5, global_rank = 0, rank = 0, num_scheduled_requests = 4, kv_cache_util = 0.250, currank_total_requests = 9/9, host_step_time = 9.5ms, prev_device_step_time = 8.25ms, timestamp = 2026-08-19 14:11:49, states = {'num_ctx_requests': 1, 'num_ctx_tokens': 128, 'num_generation_tokens': 3}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2026-08-19T14:11:49.000Z","source":{"path":"t.log","line":1,"offset":0},"rank":"RANK 0","iteration":5,"phase":"mixed","batch_size":4,"new_tokens":128,"token_usage":0.25,"step_ms":9.5,"step_ms_derived":false,"ctx_requests":1,"gen_requests":3}
            """),
        row(
            "iter D kv N/A and rank 2",
            """
            [08/19/2026-14:11:50] [TRT-LLM] [I] [_torch][RANK 2] iter = 6, global_rank = 2, rank = 0, num_scheduled_requests = 2, kv_cache_util = N/A, currank_total_requests = 2/9, host_step_time = 7.125ms, prev_device_step_time = N/A, timestamp = 2026-08-19 14:11:50, states = {'num_ctx_requests': 0, 'num_ctx_tokens': 0, 'num_generation_tokens': 2}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2026-08-19T14:11:50.000Z","source":{"path":"t.log","line":1,"offset":0},"rank":"RANK 2","iteration":6,"phase":"decode","batch_size":2,"new_tokens":0,"step_ms":7.125,"step_ms_derived":false,"ctx_requests":0,"gen_requests":2}
            """),
        row(
            "iter D optional fields",
            """
            [08/19/2026-14:11:51] [TRT-LLM] [I] [_torch][RANK 0] iter = 8, global_rank = 0, rank = 0, num_scheduled_requests = 6, kv_cache_util = 0.500, cached_kv_len = 2048, currank_total_requests = 9/9, host_step_time = 11.0ms, prev_device_step_time = 10.5ms, timestamp = 2026-08-19 14:11:51, states = {'num_ctx_requests': 2, 'num_ctx_tokens': 1024, 'num_generation_tokens': 4, 'cached_kv_tokens': 4096}, num_active = 6, num_fetched = 0, num_dummy = 0, num_unscheduled = 1
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2026-08-19T14:11:51.000Z","source":{"path":"t.log","line":1,"offset":0},"rank":"RANK 0","iteration":8,"phase":"mixed","batch_size":6,"new_tokens":1024,"cached_tokens":2048,"token_usage":0.5,"step_ms":11.0,"step_ms_derived":false,"ctx_requests":2,"gen_requests":4}
            """),
        row(
            "iter without logger timestamp uses its own",
            """
            [TRT-LLM] [I] [_torch][RANK 0] iter = 9, global_rank = 0, rank = 0, num_scheduled_requests = 1, kv_cache_util = 0.010, currank_total_requests = 9/9, host_step_time = 5.0ms, prev_device_step_time = 4.5ms, timestamp = 2026-08-19 14:11:52, states = {'num_ctx_requests': 0, 'num_ctx_tokens': 0, 'num_generation_tokens': 1}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2026-08-19T14:11:52.000Z","source":{"path":"t.log","line":1,"offset":0},"rank":"RANK 0","iteration":9,"phase":"decode","batch_size":1,"new_tokens":0,"token_usage":0.01,"step_ms":5.0,"step_ms_derived":false,"ctx_requests":0,"gen_requests":1}
            """),
        row(
            "iter idle",
            """
            [08/19/2026-14:11:53] [TRT-LLM] [I] [_torch][RANK 0] iter = 10, global_rank = 0, rank = 0, num_scheduled_requests = 0, kv_cache_util = 0.000, currank_total_requests = 9/9, host_step_time = 0.2ms, prev_device_step_time = N/A, timestamp = 2026-08-19 14:11:53, states = {'num_ctx_requests': 0, 'num_ctx_tokens': 0, 'num_generation_tokens': 0}
            """,
            """
            ignored 1: trtllm: idle iteration
            """),
        row(
            "iter states empty idle",
            """
            [08/19/2026-14:11:53] [TRT-LLM] [I] iter = 11, global_rank = 0, rank = 0, num_scheduled_requests = 0, host_step_time = 0.2ms, timestamp = 2026-08-19 14:11:53, states = {}
            """,
            """
            ignored 1: trtllm: idle iteration
            """),
        row(
            "stats json cpp backend",
            """
            {"cpuMemUsage":51200,"gpuMemUsage":30000000000,"inflightBatchingStats":{"avgNumDecodedTokensPerIter":1.0,"microBatchId":0,"numContextRequests":1,"numCtxTokens":900,"numGenRequests":3,"numPausedRequests":0,"numScheduledRequests":4},"iter":88,"iterLatencyMS":17.25,"kvCacheStats":{"allocNewBlocks":10,"allocTotalBlocks":12,"cacheHitRate":0.25,"freeNumBlocks":900,"maxNumBlocks":1000,"missedBlocks":6,"reusedBlocks":2,"tokensPerBlock":32,"usedNumBlocks":100},"maxBatchSizeRuntime":128,"maxBatchSizeStatic":256,"maxBatchSizeTunerRecommended":128,"maxNumActiveRequests":256,"maxNumTokensRuntime":8192,"maxNumTokensStatic":8192,"maxNumTokensTunerRecommended":0,"newActiveRequestsQueueLatencyMS":3.5,"numActiveRequests":4,"numCompletedRequests":0,"numNewActiveRequests":1,"numQueuedRequests":2,"pinnedMemUsage":1048576,"specDecodingStats":null,"staticBatchingStats":null,"timestamp":"09-01-2025 12:00:01.250000"}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2025-09-01T12:00:01.250Z","source":{"path":"t.log","line":1,"offset":0},"iteration":88,"phase":"mixed","batch_size":4,"new_seqs":1,"new_tokens":900,"queued":2,"token_usage":0.1,"step_ms":17.25,"step_ms_derived":false,"ctx_requests":1,"gen_requests":3}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","ts":"2025-09-01T12:00:01.250Z","source":{"path":"t.log","line":1,"offset":0},"running":4,"waiting":2,"kv_usage_pct":10.0,"prefix_hit_pct":25.0,"preemptions":0}
            """),
        row(
            "stats json pytorch overlap no step time",
            """
            {"cpuMemUsage":0,"gpuMemUsage":40000000000,"inflightBatchingStats":{"avgNumDecodedTokensPerIter":0,"microBatchId":0,"numContextRequests":0,"numCtxTokens":0,"numGenRequests":16,"numPausedRequests":0,"numScheduledRequests":16},"iter":500,"iterLatencyMS":41.0,"kvCacheStats":{"allocNewBlocks":0,"allocTotalBlocks":0,"cacheHitRate":0.0,"freeNumBlocks":4000,"maxNumBlocks":5000,"missedBlocks":0,"reusedBlocks":0,"tokensPerBlock":32,"usedNumBlocks":1000},"maxBatchSizeRuntime":0,"maxBatchSizeStatic":0,"maxBatchSizeTunerRecommended":0,"maxNumActiveRequests":64,"newActiveRequestsQueueLatencyMS":0.75,"numActiveRequests":16,"numCompletedRequests":1,"numNewActiveRequests":0,"numQueuedRequests":0,"pinnedMemUsage":0,"specDecodingStats":null,"staticBatchingStats":null,"timestamp":"09-01-2025 12:00:02.500000","requestStats":[]}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2025-09-01T12:00:02.500Z","source":{"path":"t.log","line":1,"offset":0},"iteration":500,"phase":"decode","batch_size":16,"new_seqs":0,"new_tokens":0,"queued":0,"token_usage":0.2,"step_ms_derived":false,"ctx_requests":0,"gen_requests":16}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","ts":"2025-09-01T12:00:02.500Z","source":{"path":"t.log","line":1,"offset":0},"running":16,"waiting":0,"kv_usage_pct":20.0,"prefix_hit_pct":0.0,"preemptions":0}
            """),
        row(
            "stats json 2026 host step time and new counters",
            """
            {"attentionDpRank":0,"cpuMemUsage":0,"gpuForwardTimeMS":6.5,"gpuMemUsage":1,"hostStepTimeMS":7.75,"inflightBatchingStats":{"avgNumDecodedTokensPerIter":0,"microBatchId":0,"numContextRequests":2,"numCtxKvTokens":256,"numCtxTokens":300,"numGenKvTokens":4000,"numGenRequests":5,"numPausedKvTokens":0,"numPausedRequests":1,"numQueuedContextRequests":3,"numQueuedCtxTokens":900,"numQueuedGenKvTokens":0,"numQueuedGenRequests":0,"numScheduledRequests":7},"iter":12,"iterLatencyMS":15.0,"kvCacheStats":{"cacheHitRate":0.5,"maxNumBlocks":200,"usedNumBlocks":50},"numActiveRequests":8,"numNewActiveRequests":2,"numQueuedRequests":3,"pinnedMemUsage":0,"prevDeviceStepTimeMS":7.0,"schedulerMode":"overlap","timestamp":"05-20-2026 08:00:00.000125"}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2026-05-20T08:00:00.000Z","source":{"path":"t.log","line":1,"offset":0},"iteration":12,"phase":"mixed","batch_size":7,"new_seqs":2,"new_tokens":300,"cached_tokens":256,"queued":3,"token_usage":0.25,"step_ms":7.75,"step_ms_derived":false,"ctx_requests":2,"gen_requests":5}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","ts":"2026-05-20T08:00:00.000Z","source":{"path":"t.log","line":1,"offset":0},"running":8,"waiting":3,"kv_usage_pct":25.0,"prefix_hit_pct":50.0,"preemptions":1}
            """),
        row(
            "stats json 2026 non overlap uses iterLatency",
            """
            {"attentionDpRank":0,"inflightBatchingStats":{"numContextRequests":0,"numGenRequests":2,"numScheduledRequests":2,"numCtxTokens":0},"iter":13,"iterLatencyMS":6.0,"numActiveRequests":2,"numQueuedRequests":0,"schedulerMode":"non_overlap","timestamp":"05-20-2026 08:00:01.000000"}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2026-05-20T08:00:01.000Z","source":{"path":"t.log","line":1,"offset":0},"iteration":13,"phase":"decode","batch_size":2,"new_tokens":0,"queued":0,"step_ms":6.0,"step_ms_derived":false,"ctx_requests":0,"gen_requests":2}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","ts":"2026-05-20T08:00:01.000Z","source":{"path":"t.log","line":1,"offset":0},"running":2,"waiting":0}
            """),
        row(
            "stats json old static batching no fraction",
            """
            {"cpuMemUsage":1,"gpuMemUsage":1,"iter":3,"iterLatencyMS":30.5,"kvCacheStats":null,"maxBatchSizeStatic":8,"maxNumActiveRequests":8,"newActiveRequestsQueueLatencyMS":0.0,"numActiveRequests":2,"numNewActiveRequests":2,"numQueuedRequests":0,"pinnedMemUsage":1,"staticBatchingStats":{"emptyGenSlots":6,"numContextRequests":2,"numCtxTokens":64,"numGenTokens":0,"numScheduledRequests":2},"inflightBatchingStats":null,"timestamp":"12-18-2023 03:35:37"}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2023-12-18T03:35:37.000Z","source":{"path":"t.log","line":1,"offset":0},"iteration":3,"phase":"prefill","batch_size":2,"new_seqs":2,"new_tokens":64,"queued":0,"step_ms":30.5,"step_ms_derived":false,"ctx_requests":2}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","ts":"2023-12-18T03:35:37.000Z","source":{"path":"t.log","line":1,"offset":0},"running":2,"waiting":0}
            """),
        row(
            "stats json idle iteration only engine stats",
            """
            {"cpuMemUsage":1,"inflightBatchingStats":{"numContextRequests":0,"numGenRequests":0,"numScheduledRequests":0,"numCtxTokens":0,"numPausedRequests":0},"iter":0,"iterLatencyMS":0.0,"maxBatchSizeStatic":8,"numActiveRequests":0,"numQueuedRequests":5,"pinnedMemUsage":1,"timestamp":"04-07-2025 20:33:17.747028"}
            """,
            """
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","ts":"2025-04-07T20:33:17.747Z","source":{"path":"t.log","line":1,"offset":0},"running":0,"waiting":5,"preemptions":0}
            """),
        row(
            "stats json without scheduled count sums ctx and gen",
            """
            {"iter":14,"iterLatencyMS":6.5,"maxBatchSizeStatic":8,"cpuMemUsage":1,"numActiveRequests":3,"numQueuedRequests":1,"inflightBatchingStats":{"numContextRequests":1,"numGenRequests":2,"numCtxTokens":64}}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"iteration":14,"phase":"mixed","batch_size":3,"new_tokens":64,"queued":1,"step_ms":6.5,"step_ms_derived":false,"ctx_requests":1,"gen_requests":2}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"running":3,"waiting":1}
            """),
        row(
            "stats json counts whose sum overflows an int cap the batch size",
            """
            {"iter":15,"iterLatencyMS":6.5,"maxBatchSizeStatic":8,"cpuMemUsage":1,"inflightBatchingStats":{"numContextRequests":2147483647,"numGenRequests":2}}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"iteration":15,"phase":"mixed","batch_size":2147483647,"step_ms":6.5,"step_ms_derived":false,"ctx_requests":2147483647,"gen_requests":2}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0}}
            """),
        row(
            "metrics array compact one line",
            """
            [{"iter":1,"iterLatencyMS":9.0,"maxBatchSizeStatic":8,"cpuMemUsage":1,"numActiveRequests":1,"numQueuedRequests":0,"inflightBatchingStats":{"numContextRequests":1,"numGenRequests":0,"numScheduledRequests":1,"numCtxTokens":40}},{"iter":2,"iterLatencyMS":8.0,"maxBatchSizeStatic":8,"cpuMemUsage":1,"numActiveRequests":1,"numQueuedRequests":0,"inflightBatchingStats":{"numContextRequests":0,"numGenRequests":1,"numScheduledRequests":1,"numCtxTokens":0}}]
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"iteration":1,"phase":"prefill","batch_size":1,"new_tokens":40,"queued":0,"step_ms":9.0,"step_ms_derived":false,"ctx_requests":1,"gen_requests":0}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"running":1,"waiting":0}
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"iteration":2,"phase":"decode","batch_size":1,"new_tokens":0,"queued":0,"step_ms":8.0,"step_ms_derived":false,"ctx_requests":0,"gen_requests":1}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"running":1,"waiting":0}
            """),
        row(
            "metrics array pretty printed",
            """
            [
              {
                "iter": 21,
                "iterLatencyMS": 12.5,
                "maxBatchSizeStatic": 8,
                "cpuMemUsage": 1,
                "numActiveRequests": 2,
                "numQueuedRequests": 1,
                "inflightBatchingStats": {
                  "numContextRequests": 1,
                  "numGenRequests": 1,
                  "numScheduledRequests": 2,
                  "numCtxTokens": 77
                },
                "timestamp": "09-01-2025 12:00:05.000000"
              },
              {
                "iter": 22,
                "iterLatencyMS": 10.0,
                "maxBatchSizeStatic": 8,
                "cpuMemUsage": 1,
                "numActiveRequests": 2,
                "numQueuedRequests": 0,
                "inflightBatchingStats": {"numContextRequests": 0, "numGenRequests": 2, "numScheduledRequests": 2, "numCtxTokens": 0}
              }
            ]
            """,
            """
            ignored 1: trtllm: json continuation
            ignored 3: trtllm: json continuation
            ignored 4: trtllm: json continuation
            ignored 5: trtllm: json continuation
            ignored 6: trtllm: json continuation
            ignored 7: trtllm: json continuation
            ignored 8: trtllm: json continuation
            ignored 9: trtllm: json continuation
            ignored 10: trtllm: json continuation
            ignored 11: trtllm: json continuation
            ignored 12: trtllm: json continuation
            ignored 13: trtllm: json continuation
            ignored 14: trtllm: json continuation
            ignored 15: trtllm: json continuation
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2025-09-01T12:00:05.000Z","source":{"path":"t.log","line":2,"offset":2},"iteration":21,"phase":"mixed","batch_size":2,"new_tokens":77,"queued":1,"step_ms":12.5,"step_ms_derived":false,"ctx_requests":1,"gen_requests":1}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","ts":"2025-09-01T12:00:05.000Z","source":{"path":"t.log","line":2,"offset":2},"running":2,"waiting":1}
            ignored 16: trtllm: json continuation
            ignored 18: trtllm: json continuation
            ignored 19: trtllm: json continuation
            ignored 20: trtllm: json continuation
            ignored 21: trtllm: json continuation
            ignored 22: trtllm: json continuation
            ignored 23: trtllm: json continuation
            ignored 24: trtllm: json continuation
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":17,"offset":361},"iteration":22,"phase":"decode","batch_size":2,"new_tokens":0,"queued":0,"step_ms":10.0,"step_ms_derived":false,"ctx_requests":0,"gen_requests":2}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":17,"offset":361},"running":2,"waiting":0}
            ignored 25: trtllm: json continuation
            ignored 26: trtllm: json continuation
            """),
        row(
            "empty metrics array",
            """
            []
            """,
            """
            ignored 1: trtllm: empty json array
            """),
        row(
            "triton raw stats line old triton",
            """
            I1105 10:20:30.123456 77 model_instance_state.cc:969] {"Active Request Count":3,"Iteration Counter":410,"Max Request Count":64,"Runtime CPU Memory Usage":1024,"Runtime GPU Memory Usage":2048,"Runtime Pinned Memory Usage":4096,"Timestamp":"11-05-2024 10:20:30.120000","Context Requests":1,"Generation Requests":2,"MicroBatch ID":0,"Paused Requests":0,"Scheduled Requests":3,"Total Context Tokens":256,"Free KV cache blocks":750,"Max KV cache blocks":1000,"Tokens per KV cache block":64,"Used KV cache blocks":250}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2024-11-05T10:20:30.120Z","source":{"path":"t.log","line":1,"offset":0},"iteration":410,"phase":"mixed","batch_size":3,"new_tokens":256,"token_usage":0.25,"step_ms_derived":false,"ctx_requests":1,"gen_requests":2}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","ts":"2024-11-05T10:20:30.120Z","source":{"path":"t.log","line":1,"offset":0},"running":3,"kv_usage_pct":25.0,"preemptions":0}
            """),
        row(
            "triton quoted stats line new triton",
            """
            I0917 14:37:10.066353 72 model_instance_state.cc:1239] "{\\"Active Request Count\\":1,\\"Iteration Counter\\":9,\\"Max Request Count\\":64,\\"Timestamp\\":\\"09-17-2025 14:37:10.060000\\",\\"Context Requests\\":0,\\"Generation Requests\\":1,\\"MicroBatch ID\\":0,\\"Paused Requests\\":0,\\"Scheduled Requests\\":1,\\"Total Context Tokens\\":0,\\"Waiting Requests\\":0,\\"Free KV cache blocks\\":90,\\"Max KV cache blocks\\":100,\\"Tokens per KV cache block\\":32,\\"Used KV cache blocks\\":10,\\"Reused KV cache blocks\\":0,\\"Fraction used KV cache blocks\\":0.1,\\"KV cache transfer time\\":0.0,\\"Request count\\":0}"
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2025-09-17T14:37:10.060Z","source":{"path":"t.log","line":1,"offset":0},"iteration":9,"phase":"decode","batch_size":1,"new_tokens":0,"token_usage":0.1,"step_ms_derived":false,"ctx_requests":0,"gen_requests":1}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","ts":"2025-09-17T14:37:10.060Z","source":{"path":"t.log","line":1,"offset":0},"running":1,"kv_usage_pct":10.0,"preemptions":0}
            """),
        row(
            "triton v1 stats alphabetical 2023",
            """
            I1218 03:35:37.500000 12 libtensorrtllm.cc:1205] {"Active Request Count":2,"Context Requests":2,"Empty Generation Slots":6,"Iteration Counter":3,"Max KV cache blocks":500,"Max Request Count":8,"Runtime CPU Memory Usage":1,"Runtime GPU Memory Usage":1,"Runtime Pinned Memory Usage":1,"Scheduled Requests":2,"Timestamp":"12-18-2023 03:35:37","Total Context Tokens":64,"Total Generation Tokens":0,"Used KV cache blocks":20}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2023-12-18T03:35:37.000Z","source":{"path":"t.log","line":1,"offset":0},"iteration":3,"phase":"prefill","batch_size":2,"new_tokens":64,"token_usage":0.04,"step_ms_derived":false,"ctx_requests":2}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","ts":"2023-12-18T03:35:37.000Z","source":{"path":"t.log","line":1,"offset":0},"running":2,"kv_usage_pct":4.0}
            """),
        row(
            "gptmanager stats through cpp logger",
            """
            [TensorRT-LLM][INFO] {"Active Request Count":1,"Context Requests":0,"Generation Requests":1,"Iteration Counter":77,"Scheduled Requests":1,"Total Context Tokens":0,"Timestamp":"03-01-2024 09:00:00"}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","ts":"2024-03-01T09:00:00.000Z","source":{"path":"t.log","line":1,"offset":0},"iteration":77,"phase":"decode","batch_size":1,"new_tokens":0,"step_ms_derived":false,"ctx_requests":0,"gen_requests":1}
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","ts":"2024-03-01T09:00:00.000Z","source":{"path":"t.log","line":1,"offset":0},"running":1}
            """),
        row(
            "triton info ignored and error after trt line",
            """
            I0917 14:37:10.066353 72 model_lifecycle.cc:472] "loading: tensorrt_llm:1"
            [TensorRT-LLM][WARNING] max_tokens_in_paged_kv_cache is not specified, will use default value
            E0917 14:37:11.000001 72 model_instance_state.cc:99] "Executor failed process requestId 5 due to the following error: bad input"
            """,
            """
            ignored 1: trtllm: triton message
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":2,"offset":75},"level":"WARNING","kind":"warning","message":"max_tokens_in_paged_kv_cache is not specified, will use default value"}
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2025-09-17T14:37:11.000Z","source":{"path":"t.log","line":3,"offset":169},"level":"ERROR","kind":"error","message":"Executor failed process requestId 5 due to the following error: bad input"}
            """),
        row(
            "triton year rollover",
            """
            [TensorRT-LLM][WARNING] first
            W1231 23:59:59.999999 1 server.cc:10] "year end warning"
            W0101 00:00:01.000000 1 server.cc:10] "new year warning"
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":"first"}
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2025-12-31T23:59:59.999Z","source":{"path":"t.log","line":2,"offset":30},"level":"WARNING","kind":"warning","message":"year end warning"}
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2026-01-01T00:00:01.000Z","source":{"path":"t.log","line":3,"offset":87},"level":"WARNING","kind":"warning","message":"new year warning"}
            """),
        row(
            "triton table ignored",
            """
            I0410 16:58:08.485783 1 server.cc:620]\s
            +---------+------+
            | Model   | Path |
            +---------+------+
            """,
            """
            ignored 1: trtllm: triton message
            ignored 2: trtllm: triton table
            ignored 3: trtllm: triton table
            ignored 4: trtllm: triton table
            """),
        row(
            "perf metrics item",
            """
            {"request_id": 17, "perf_metrics": {"first_iter": 3, "last_iter": 40, "timing_metrics": {"server_arrival_time": 812.001, "arrival_time": 812.003, "first_scheduled_time": 812.006, "first_token_time": 812.03, "server_first_token_time": 812.031, "last_token_time": 812.9}, "kv_cache_metrics": {"num_total_allocated_blocks": 4, "num_new_allocated_blocks": 4, "num_reused_blocks": 0, "num_missed_blocks": 4}}}
            """,
            """
            {"type":"request_timing","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"request_id":"17","request_key":"17","queue_ms":3.0,"prefill_ms":24.0,"decode_ms":870.0,"server_ttft_ms":27.0,"e2e_ms":897.0,"source_kind":"perf_metrics","arrival_mono_s":812.001}
            """),
        row(
            "perf metrics pretty array two items string id",
            """
            [
              {
                "request_id": "chatcmpl-5f2c",
                "perf_metrics": {
                  "timing_metrics": {"arrival_time": 100.5, "first_scheduled_time": 100.75, "first_token_time": 101.0, "last_token_time": 103.0}
                }
              },
              {
                "request_id": 18,
                "perf_metrics": {"timing_metrics": {"arrival_time": 101.0, "first_scheduled_time": 101.0, "first_token_time": 0, "last_token_time": 0}}
              }
            ]
            """,
            """
            ignored 1: trtllm: json continuation
            ignored 3: trtllm: json continuation
            ignored 4: trtllm: json continuation
            ignored 5: trtllm: json continuation
            ignored 6: trtllm: json continuation
            {"type":"request_timing","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":2,"offset":2},"request_id":"chatcmpl-5f2c","request_key":"5f2c","queue_ms":250.0,"prefill_ms":250.0,"decode_ms":2000.0,"server_ttft_ms":500.0,"e2e_ms":2500.0,"source_kind":"perf_metrics","arrival_mono_s":100.5}
            ignored 7: trtllm: json continuation
            ignored 9: trtllm: json continuation
            ignored 10: trtllm: json continuation
            {"type":"request_timing","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":8,"offset":207},"request_id":"18","request_key":"18","queue_ms":0.0,"source_kind":"perf_metrics","arrival_mono_s":101.0}
            ignored 11: trtllm: json continuation
            ignored 12: trtllm: json continuation
            """),
        row(
            "perf metrics cancelled while queued",
            """
            {"request_id": 19, "perf_metrics": {"timing_metrics": {"arrival_time": 50.0, "first_scheduled_time": 0, "first_token_time": 0, "last_token_time": 0}}}
            """,
            """
            ignored 1: trtllm: perf metrics without durations
            """),
        row(
            "perf metrics disaggregated",
            """
            {"ctx_server": "ctx0:8001", "gen_server": "gen0:8002", "disagg_server_arrival_time": 2.0, "disagg_server_first_token_time": 2.09, "ctx_perf_metrics": {"request_id": 3, "ctx_request_id": 1003, "perf_metrics": {"timing_metrics": {"server_arrival_time": 2.001, "arrival_time": 2.003, "first_scheduled_time": 2.008, "first_token_time": 2.035, "server_first_token_time": 2.038}}}, "gen_perf_metrics": {"request_id": 4, "ctx_request_id": 1003, "perf_metrics": {"timing_metrics": {"arrival_time": 2.052, "first_scheduled_time": 2.055, "first_token_time": 2.08, "last_token_time": 2.5, "kv_cache_size": 1048576, "kv_cache_transfer_start": 2.06, "kv_cache_transfer_end": 2.07}}}}
            """,
            """
            {"type":"request_timing","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"request_id":"1003","request_key":"1003","queue_ms":5.0,"prefill_ms":27.0,"decode_ms":420.0,"server_ttft_ms":90.0,"source_kind":"perf_metrics"}
            """),
        row(
            "perf metrics 2026 with time breakdown",
            """
            {"request_id": 30, "perf_metrics": {"timing_metrics": {"arrival_time": 10.0, "first_scheduled_time": 10.25, "first_token_time": 10.5, "last_token_time": 11.0}}, "time_breakdown_metrics": {"ctx_chunk_metrics": [{"forward_start_time": 1.0, "forward_end_time": 1.1, "gpu_forward_time": 20.0, "gpu_sample_time": 1.5, "iter_counter": 100, "iter_batch_size": 3, "num_ctx_requests": 1, "num_gen_requests": 2, "context_token_number": 500, "generation_token_number": 2, "num_capacity_fitting": 3, "num_scheduled": 3}], "step_metrics": [{"iter": 1, "gpu_forward_time": 0, "gpu_sample_time": 0, "iter_counter": 101, "iter_batch_size": 3, "num_ctx_requests": 0, "num_gen_requests": 3, "context_token_number": 0}]}}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"iteration":100,"phase":"mixed","batch_size":3,"new_tokens":500,"step_ms":21.5,"step_ms_derived":false,"ctx_requests":1,"gen_requests":2}
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"iteration":101,"phase":"decode","batch_size":3,"new_tokens":0,"step_ms_derived":false,"ctx_requests":0,"gen_requests":3}
            {"type":"request_timing","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"request_id":"30","request_key":"30","queue_ms":250.0,"prefill_ms":250.0,"decode_ms":500.0,"server_ttft_ms":500.0,"e2e_ms":1000.0,"source_kind":"perf_metrics","arrival_mono_s":10.0}
            """),
        row(
            "time events record with extended steps and dedupe",
            """
            {"request_id": 5, "rank": 1, "ctx_request_id": null, "time_breakdown_metrics": {"ctx_chunk_metrics": [{"gpu_forward_time": 12.0, "gpu_sample_time": 0.5, "iter_counter": 40, "iter_batch_size": 2, "num_ctx_requests": 1, "num_gen_requests": 1, "context_token_number": 256}], "step_metrics": [{"iter": 1, "gpu_forward_time": 4.0, "gpu_sample_time": 0.25, "iter_counter": 41, "iter_batch_size": 2, "num_ctx_requests": 0, "num_gen_requests": 2, "context_token_number": 0}]}, "request_timing_metrics": {"arrival_time": 70.0, "first_scheduled_time": 70.002, "first_token_time": 70.015, "last_token_time": 70.5, "kv_cache_size": 0}}
            {"request_id": 6, "rank": 1, "ctx_request_id": null, "time_breakdown_metrics": {"step_metrics": [{"iter": 1, "gpu_forward_time": 4.0, "gpu_sample_time": 0.25, "iter_counter": 41, "iter_batch_size": 2, "num_ctx_requests": 0, "num_gen_requests": 2, "context_token_number": 0}, {"iter": 2, "gpu_forward_time": 3.5, "gpu_sample_time": 0.25, "iter_counter": 42, "iter_batch_size": 1, "num_ctx_requests": 0, "num_gen_requests": 1, "context_token_number": 0}]}, "request_timing_metrics": {"arrival_time": 70.001, "first_scheduled_time": 70.002, "first_token_time": 70.016, "last_token_time": 70.6}}
            """,
            """
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"rank":"RANK 1","iteration":40,"phase":"mixed","batch_size":2,"new_tokens":256,"step_ms":12.5,"step_ms_derived":false,"ctx_requests":1,"gen_requests":1}
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"rank":"RANK 1","iteration":41,"phase":"decode","batch_size":2,"new_tokens":0,"step_ms":4.25,"step_ms_derived":false,"ctx_requests":0,"gen_requests":2}
            {"type":"request_timing","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"request_id":"5","request_key":"5","queue_ms":2.0,"prefill_ms":13.0,"decode_ms":485.0,"server_ttft_ms":15.0,"e2e_ms":500.0,"source_kind":"perf_time_events","arrival_mono_s":70.0}
            {"type":"batch_step","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":2,"offset":624},"rank":"RANK 1","iteration":42,"phase":"decode","batch_size":1,"new_tokens":0,"step_ms":3.75,"step_ms_derived":false,"ctx_requests":0,"gen_requests":1}
            {"type":"request_timing","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":2,"offset":624},"request_id":"6","request_key":"6","queue_ms":1.0,"prefill_ms":14.0,"decode_ms":584.0,"server_ttft_ms":15.0,"e2e_ms":599.0,"source_kind":"perf_time_events","arrival_mono_s":70.001}
            """),
        row(
            "time events record with NaN and no lifecycle times",
            """
            {"request_id": 7, "rank": 0, "ctx_request_id": null, "time_breakdown_metrics": {"step_metrics": [{"iter": 1, "forward_start_time": NaN, "token_time": 3.0}]}}
            """,
            """
            ignored 1: trtllm: time events record without timing
            """),
        row(
            "request stats per iteration ignored",
            """
            {"iter": 5, "requestStats": [{"id": 2049, "stage": "GENERATION_IN_PROGRESS", "numGeneratedTokens": 3}]}
            """,
            """
            ignored 1: trtllm: request stats
            """),
        row(
            "prometheus block",
            """
            # HELP nv_trt_llm_request_metrics TRT LLM request metrics
            # TYPE nv_trt_llm_request_metrics gauge
            nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="active",version="1"} 5
            nv_trt_llm_request_metrics{model="tensorrt_llm",request_type="scheduled",version="1"} 4
            nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="used",model="tensorrt_llm",version="1"} 30
            nv_trt_llm_kv_cache_block_metrics{kv_cache_block_type="max",model="tensorrt_llm",version="1"} 120
            nv_trt_llm_general_metrics{general_type="timestamp",model="tensorrt_llm",version="1"} 1726584000250000
            nv_inference_request_success{model="tensorrt_llm",version="1"} 12
            [TensorRT-LLM][INFO] after the scrape
            """,
            """
            ignored 1: trtllm: prometheus text
            ignored 2: trtllm: prometheus text
            ignored 3: trtllm: prometheus text
            ignored 4: trtllm: prometheus text
            ignored 5: trtllm: prometheus text
            ignored 6: trtllm: prometheus text
            ignored 7: trtllm: prometheus text
            ignored 8: trtllm: prometheus text
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","ts":"2024-09-17T14:40:00.250Z","source":{"path":"t.log","line":3,"offset":98},"running":5,"kv_usage_pct":25.0}
            ignored 9: trtllm: other message
            """),
        row(
            "prometheus trtllm serve histograms: the metrics parser's, one scrape is a baseline",
            """
            trtllm_time_to_first_token_seconds_bucket{le="0.1",model_name="undefined",engine_type="undefined"} 3.0
            # HELP request_queue_time_seconds Histogram of time spent in WAITING phase for request.
            """,
            """
            ignored 2: metrics: exposition metadata
            ignored 1: metrics: first scrape (baseline of the histograms)
            """),
        row(
            "uvicorn access and startup",
            """
            INFO:     127.0.0.1:41166 - "POST /v1/chat/completions HTTP/1.1" 200 OK
            INFO:     Started server process [4242]
            INFO:     Application startup complete.
            """,
            """
            ignored 1: trtllm: http access
            ignored 2: trtllm: uvicorn message
            ignored 3: trtllm: uvicorn message
            """),
        row(
            "uvicorn startup after trt line is a notice",
            """
            [TensorRT-LLM][WARNING] first
            INFO:     Application startup complete.
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":"first"}
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":2,"offset":30},"level":"INFO","kind":"startup","message":"Application startup complete."}
            """),
        row(
            "launcher and container prefixes",
            """
            [1,0]<stdout>:[TensorRT-LLM][WARNING] from mpi rank zero
             3: [TensorRT-LLM][WARNING] from slurm task three
            [rank2]: [TensorRT-LLM][WARNING] from torch rank two
            trtllm-server-1  | [TensorRT-LLM][WARNING] from compose
            [pod/trtllm-0/server] [TensorRT-LLM][WARNING] from kubectl
            2025-08-07T02:28:51.123456789Z [TensorRT-LLM][WARNING] with container time
            2025-08-07T02:28:52.5+02:00 [pod/trtllm-0/server] [1,1]<stderr>:[TensorRT-LLM][WARNING] stacked prefixes
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":"from mpi rank zero"}
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":2,"offset":57},"level":"WARNING","kind":"warning","message":"from slurm task three"}
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":3,"offset":107},"level":"WARNING","kind":"warning","message":"from torch rank two"}
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":4,"offset":160},"level":"WARNING","kind":"warning","message":"from compose"}
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":5,"offset":216},"level":"WARNING","kind":"warning","message":"from kubectl"}
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2025-08-07T02:28:51.123Z","source":{"path":"t.log","line":6,"offset":275},"level":"WARNING","kind":"warning","message":"with container time"}
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2025-08-07T00:28:52.500Z","source":{"path":"t.log","line":7,"offset":350},"level":"WARNING","kind":"warning","message":"stacked prefixes"}
            """),
        row(
            "ansi and crlf",
            """
            \033[32m[08/07/2025-02:28:51] [TRT-LLM] [W] coloured warning\033[0m
            [TensorRT-LLM][WARNING] windows line end\r
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2025-08-07T02:28:51.000Z","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":"coloured warning"}
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":2,"offset":62},"level":"WARNING","kind":"warning","message":"windows line end"}
            """),
        row(
            "banners tables nccl progress blank",
            """
            =============================
            == TensorRT-LLM ==
            NVIDIA Release 25.05 (build 123456)
            Copyright (c) 2025, NVIDIA CORPORATION & AFFILIATES.  All rights reserved.
            host1:123:456 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>

            Loading checkpoint shards: 100%|██████████| 4/4 [00:03<00:00,  1.20it/s]
            """,
            """
            ignored 1: trtllm: container banner
            ignored 2: trtllm: container banner
            ignored 3: trtllm: container banner
            ignored 4: trtllm: container banner
            ignored 5: trtllm: nccl message
            ignored 6: trtllm: blank line
            ignored 7: trtllm: progress bar
            """),
        row(
            "traceback grouped into preceding error",
            """
            [08/07/2025-02:29:00] [TRT-LLM] [E] Error in event loop: boom
            Traceback (most recent call last):
              File "/usr/lib/python3/executor.py", line 10, in run
                self.step()
            RuntimeError: step failed
            [08/07/2025-02:29:01] [TRT-LLM] [I] next line
            """,
            """
            ignored 2: trtllm: traceback
            ignored 3: trtllm: traceback
            ignored 4: trtllm: traceback
            ignored 5: trtllm: traceback
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2025-08-07T02:29:00.000Z","source":{"path":"t.log","line":1,"offset":0},"level":"ERROR","kind":"error","message":"Error in event loop: boom | RuntimeError: step failed"}
            ignored 6: trtllm: other message
            """),
        row(
            "traceback oom upgrades kind",
            """
            [08/07/2025-02:29:00] [TRT-LLM] [E] Encountered an error in forward function
            Traceback (most recent call last):
              File "/usr/lib/python3/model.py", line 5, in forward

            torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.
            """,
            """
            ignored 2: trtllm: traceback
            ignored 3: trtllm: traceback
            ignored 4: trtllm: blank line
            ignored 5: trtllm: traceback
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2025-08-07T02:29:00.000Z","source":{"path":"t.log","line":1,"offset":0},"level":"ERROR","kind":"oom","message":"Encountered an error in forward function | torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."}
            """),
        row(
            "traceback without preceding error after trt line",
            """
            [TensorRT-LLM][WARNING] first
            Traceback (most recent call last):
              File "/srv/app.py", line 1, in <module>
            ValueError: bad config value
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":"first"}
            ignored 3: trtllm: traceback
            ignored 4: trtllm: traceback
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":2,"offset":30},"level":"ERROR","kind":"error","message":"ValueError: bad config value"}
            """),
        row(
            "traceback in a foreign log makes no event",
            """
            Traceback (most recent call last):
              File "/srv/app.py", line 1, in <module>
            ValueError: bad config value
            """,
            """
            ignored 1: trtllm: traceback
            ignored 2: trtllm: continuation line
            ignored 3: trtllm: traceback
            """),
        row(
            "chained traceback keeps last exception",
            """
            [08/07/2025-02:29:00] [TRT-LLM] [E] request failed
            Traceback (most recent call last):
              File "a.py", line 1, in f
            KeyError: 'x'

            During handling of the above exception, another exception occurred:

            Traceback (most recent call last):
              File "a.py", line 3, in g
            RuntimeError: wrapped failure
            """,
            """
            ignored 2: trtllm: traceback
            ignored 3: trtllm: traceback
            ignored 4: trtllm: traceback
            ignored 5: trtllm: blank line
            ignored 6: trtllm: traceback
            ignored 7: trtllm: blank line
            ignored 8: trtllm: traceback
            ignored 9: trtllm: traceback
            ignored 10: trtllm: traceback
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","ts":"2025-08-07T02:29:00.000Z","source":{"path":"t.log","line":1,"offset":0},"level":"ERROR","kind":"error","message":"request failed | RuntimeError: wrapped failure"}
            """),
        row(
            "cpp terminate with what and native frames",
            """
            [TensorRT-LLM][WARNING] first
            terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'
              what():  [TensorRT-LLM][ERROR] Assertion failed: mNextBlocks.empty() (kvCacheManager.cpp:160)
            1       0x7fd6cf49d68d /opt/lib/libtensorrt_llm.so(+0x1668d) [0x7fd6cf49d68d]
            2       0x7fd6cf4a4ebf /opt/lib/libtensorrt_llm.so(+0x1debf) [0x7fd6cf4a4ebf]
            Aborted (core dumped)
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":"first"}
            ignored 3: trtllm: traceback
            ignored 4: trtllm: traceback
            ignored 5: trtllm: traceback
            ignored 6: trtllm: traceback
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":2,"offset":30},"level":"ERROR","kind":"error","message":"[TensorRT-LLM][ERROR] Assertion failed: mNextBlocks.empty() (kvCacheManager.cpp:160)"}
            """),
        row(
            "python warning after trt line",
            """
            [TensorRT-LLM][WARNING] first
            /usr/lib/python3/dist-packages/torch/cuda/__init__.py:61: FutureWarning: The pynvml package is deprecated.
              import pynvml
            """,
            """
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"level":"WARNING","kind":"warning","message":"first"}
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":2,"offset":30},"level":"WARNING","kind":"warning","message":"/usr/lib/python3/dist-packages/torch/cuda/__init__.py:61: FutureWarning: The pynvml package is deprecated."}
            ignored 3: trtllm: continuation line
            """),
        row(
            "python warning in a foreign log",
            """
            /usr/lib/python3/dist-packages/torch/cuda/__init__.py:61: FutureWarning: The pynvml package is deprecated.
            """,
            """
            ignored 1: trtllm: python warning
            """),
        row(
            "vllm lines make no event",
            """
            INFO 08-07 02:28:51 [api_server.py:1233] Starting vLLM API server on http://0.0.0.0:8000
            {"resourceSpans":[{"resource":{"attributes":[]},"scopeSpans":[]}]}
            """,
            """
            rejected 1: unrecognized line
            rejected 2: json: otlp export not supported by the trtllm parser
            """),
        row(
            "sglang lines make no event",
            """
            [2025-08-07 02:28:51 TP0] Prefill batch. #new-seq: 1, #new-token: 6, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0
            {"rid": "a1b2", "e2e_latency": 0.5, "queue_time": 0.01, "request_parameters": "{}"}
            {"timestamp": "2025-12-24T10:00:00", "event": "request.received", "rid": "a1b2", "obj": {}}
            """,
            """
            rejected 1: unrecognized line
            rejected 2: json: not a tensorrt-llm record
            rejected 3: json: not a tensorrt-llm record
            """));
  }

  static Stream<Arguments> badLines() {
    return Stream.of(
        row(
            "unrecognized",
            """
            hello world
            """,
            """
            rejected 1: unrecognized line
            """),
        row(
            "unknown cpp level",
            """
            [TensorRT-LLM][NOTICE] something
            """,
            """
            rejected 1: log line: unknown level
            """),
        row(
            "unknown unified level",
            """
            [TRT-LLM] [X] something
            """,
            """
            rejected 1: log line: unknown level
            """),
        row(
            "bad cpp rank",
            """
            [TensorRT-LLM][INFO][x1] something
            """,
            """
            rejected 1: log line: bad rank
            """),
        row(
            "bad python timestamp",
            """
            [13/45/2025-02:28:51] [TRT-LLM] [I] something
            """,
            """
            rejected 1: log line: bad timestamp
            """),
        row(
            "unknown python logger",
            """
            [08/07/2025-02:28:51] [FOO] [I] something
            """,
            """
            rejected 1: log line: unknown logger
            """),
        row(
            "bad triton timestamp",
            """
            I1345 10:20:30.123456 77 server.cc:1] "x"
            """,
            """
            rejected 1: triton line: bad timestamp
            """),
        row(
            "iter malformed field",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, global_rank 0, states = {'num_ctx_requests': 0}
            """,
            """
            rejected 1: iteration line: malformed field
            """),
        row(
            "iter bad iter",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = -5, states = {'num_ctx_requests': 0}
            """,
            """
            rejected 1: iteration line: bad 'iter' value
            """),
        row(
            "iter bad host step",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, host_step_time = nanms, states = {'num_ctx_requests': 0}
            """,
            """
            rejected 1: iteration line: bad 'host_step_time' value
            """),
        row(
            "iter bad elapsed",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, elapsed_time = 12ms, states = {'num_ctx_requests': 0}
            """,
            """
            rejected 1: iteration line: bad 'elapsed_time' value
            """),
        row(
            "iter bad states",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, states = none
            """,
            """
            rejected 1: iteration line: bad 'states' value
            """),
        row(
            "iter bad states entry",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, states = {num_ctx_requests: 1}
            """,
            """
            rejected 1: iteration line: bad 'states' value
            """),
        row(
            "iter missing states",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, num_scheduled_requests = 2
            """,
            """
            rejected 1: iteration line: missing 'states'
            """),
        row(
            "iter missing ctx",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, num_scheduled_requests = 2, states = {'num_ctx_tokens': 4}
            """,
            """
            rejected 1: iteration line: missing 'num_ctx_requests'
            """),
        row(
            "iter bad ctx value",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, states = {'num_ctx_requests': 1.5}
            """,
            """
            rejected 1: iteration line: bad 'num_ctx_requests' value
            """),
        row(
            "iter bad timestamp",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, timestamp = 2025-13-01 00:00:00, states = {'num_ctx_requests': 1}
            """,
            """
            rejected 1: iteration line: bad 'timestamp' value
            """),
        row(
            "iter bad kv util",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, kv_cache_util = -0.5, states = {'num_ctx_requests': 1}
            """,
            """
            rejected 1: iteration line: bad 'kv_cache_util' value
            """),
        row(
            "iter bad scheduled",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, num_scheduled_requests = 99999999999, states = {'num_ctx_requests': 1}
            """,
            """
            rejected 1: iteration line: bad 'num_scheduled_requests' value
            """),
        row(
            "iter bad global rank",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, global_rank = r0, states = {'num_ctx_requests': 1}
            """,
            """
            rejected 1: iteration line: bad 'global_rank' value
            """),
        row(
            "iter bad cached kv len",
            """
            [08/07/2025-02:28:51] [TRT-LLM] [I] iter = 5, cached_kv_len = many, states = {'num_ctx_requests': 1}
            """,
            """
            rejected 1: iteration line: bad 'cached_kv_len' value
            """),
        row(
            "json malformed",
            """
            {"iter": 1,}
            """,
            """
            rejected 1: json: malformed value
            """),
        row(
            "json truncated at end",
            """
            [{"iter": 1, "iterLatencyMS": 5.0, "numActiveRequests": 1, "maxBatchSizeStatic": 8, "cpuMemUsage": 1}, {"iter": 2,
            """,
            """
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"running":1}
            rejected 1: truncated json
            """),
        row(
            "json cut in half pretty then log line",
            """
            [
              {
                "iter": 3,
                "iterLatencyMS": 5.0,
            [TensorRT-LLM][WARNING] interrupting line
            """,
            """
            ignored 1: trtllm: json continuation
            ignored 3: trtllm: json continuation
            ignored 4: trtllm: json continuation
            rejected 2: truncated json
            {"type":"server_notice","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":5,"offset":47},"level":"WARNING","kind":"warning","message":"interrupting line"}
            """),
        row(
            "json cut inside a string",
            """
            {"request_id": 1, "perf_metrics": {"timing_metrics": {"arrival_time": 1.0, "note": "abc
            """,
            """
            rejected 1: truncated json
            """),
        row(
            "json pretty then non json line",
            """
            {
              "iter": 3,
            garbage here
            """,
            """
            ignored 2: trtllm: json continuation
            rejected 1: truncated json
            rejected 3: unrecognized line
            """),
        row(
            "json pretty then triton line",
            """
            {
              "iter": 3,
            I0917 14:37:10.066353 72 model_lifecycle.cc:472] "loading: tensorrt_llm:1"
            """,
            """
            ignored 2: trtllm: json continuation
            rejected 1: truncated json
            ignored 3: trtllm: triton message
            """),
        row(
            "json not trt",
            """
            {"foo": 1}
            """,
            """
            rejected 1: json: not a tensorrt-llm record
            """),
        row(
            "json otlp",
            """
            {"resourceSpans": []}
            """,
            """
            rejected 1: json: otlp export not supported by the trtllm parser
            """),
        row(
            "json nested array element",
            """
            [[1, 2]]
            """,
            """
            rejected 1: json array: non-object element
            """),
        row(
            "json scalar element",
            """
            [{"iter": 1, "iterLatencyMS": 5.0, "numActiveRequests": 1, "maxBatchSizeStatic": 8, "cpuMemUsage": 1}, 2]
            """,
            """
            {"type":"engine_stats","engine":"trtllm","instance":"trt-0","source":{"path":"t.log","line":1,"offset":0},"running":1}
            rejected 1: json array: non-object element
            """),
        row(
            "json trailing characters",
            """
            {"request_stats_dummy": 1} x
            """,
            """
            rejected 1: json: not a tensorrt-llm record
            rejected 1: json: trailing characters
            """),
        row(
            "json close without open",
            """
            {"a": 1}}
            """,
            """
            rejected 1: json: not a tensorrt-llm record
            rejected 1: json: malformed value
            """),
        row(
            "stats bad count",
            """
            {"iter": 1, "iterLatencyMS": 5.0, "numActiveRequests": -1}
            """,
            """
            rejected 1: iteration stats: bad 'numActiveRequests' value
            """),
        row(
            "stats bad timestamp",
            """
            {"iter": 1, "iterLatencyMS": 5.0, "numActiveRequests": 1, "timestamp": "2025-09-01T12:00:00"}
            """,
            """
            rejected 1: iteration stats: bad 'timestamp' value
            """),
        row(
            "stats bad iter",
            """
            {"iter": "one", "iterLatencyMS": 5.0, "numActiveRequests": 1}
            """,
            """
            rejected 1: iteration stats: bad 'iter' value
            """),
        row(
            "stats huge number",
            """
            {"iter": 1, "iterLatencyMS": 1e999, "numActiveRequests": 123456789012345678901234567890}
            """,
            """
            rejected 1: iteration stats: bad 'numActiveRequests' value
            """),
        row(
            "stats bad nested",
            """
            {"iter": 1, "inflightBatchingStats": [1, 2]}
            """,
            """
            rejected 1: iteration stats: bad 'inflightBatchingStats' value
            """),
        row(
            "triton bad timestamp",
            """
            I1105 10:20:30.123456 77 model_instance_state.cc:969] {"Active Request Count":3,"Iteration Counter":410,"Timestamp":"yesterday"}
            """,
            """
            rejected 1: triton stats: bad 'Timestamp' value
            """),
        row(
            "triton bad count",
            """
            I1105 10:20:30.123456 77 model_instance_state.cc:969] {"Active Request Count":"three","Iteration Counter":410}
            """,
            """
            rejected 1: triton stats: bad 'Active Request Count' value
            """),
        row(
            "perf missing request id",
            """
            {"request_id": null, "perf_metrics": {"timing_metrics": {"arrival_time": 1.0, "first_token_time": 2.0}}}
            """,
            """
            rejected 1: perf metrics: missing 'request_id'
            """),
        row(
            "perf disagg missing ids",
            """
            {"ctx_perf_metrics": {"perf_metrics": {"timing_metrics": {"arrival_time": 1.0}}}}
            """,
            """
            rejected 1: perf metrics: missing 'request_id'
            """),
        row(
            "perf no timing metrics",
            """
            {"request_id": 3, "perf_metrics": {"first_iter": 1}}
            """,
            """
            rejected 1: perf metrics: no timing metrics
            """),
        row(
            "perf bad time value",
            """
            {"request_id": 3, "perf_metrics": {"timing_metrics": {"arrival_time": "soon"}}}
            """,
            """
            rejected 1: perf metrics: bad 'arrival_time' value
            """),
        row(
            "perf bad request id",
            """
            {"request_id": [3], "perf_metrics": {"timing_metrics": {"arrival_time": 1.0}}}
            """,
            """
            rejected 1: perf metrics: bad 'request_id' value
            """),
        row(
            "time events missing request id",
            """
            {"request_id": null, "time_breakdown_metrics": {}}
            """,
            """
            rejected 1: time events: missing 'request_id'
            """),
        row(
            "time events bad rank",
            """
            {"request_id": 4, "rank": "zero", "time_breakdown_metrics": {}}
            """,
            """
            rejected 1: time events: bad 'rank' value
            """),
        row(
            "prometheus bad value",
            """
            nv_trt_llm_request_metrics{model="m",request_type="active",version="1"} NaN
            """,
            """
            rejected 1: prometheus: bad nv_trt_llm sample value
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("formats")
  void parsesEveryDocumentedFormat(String name, List<String> lines, List<String> expected) {
    // through the collector layer too: some rows carry container prefixes
    Recorder sink = Recorder.run(Parsers.create(Engine.TRTLLM, SETTINGS), lines);

    assertThat(sink.outcomes).containsExactlyElementsOf(expected);
    assertThat(sink.reportedLines).containsExactlyElementsOf(lineNumbers(lines));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badLines")
  void rejectsBadLinesWithAStableReason(String name, List<String> lines, List<String> expected) {
    Recorder sink = Recorder.run(Parsers.create(Engine.TRTLLM, SETTINGS), lines);

    assertThat(sink.outcomes).containsExactlyElementsOf(expected);
    assertThat(sink.reportedLines).containsExactlyElementsOf(lineNumbers(lines));
    assertThat(sink.rejections).isNotEmpty().allSatisfy(TrtLlmLineParserTest::isWellFormed);
  }

  @Test
  void convertsLocalTimestampsWithTheConfiguredZone() {
    ParseSettings berlin = new ParseSettings("trt-0", ZoneId.of("Europe/Berlin"), 2025);
    Recorder sink =
        Recorder.run(
            new TrtLlmLineParser(berlin),
            List.of(
                "[08/07/2025-02:28:51] [TRT-LLM] [W] summer time is UTC+2",
                "[01/07/2025-02:28:51] [TRT-LLM] [W] winter time is UTC+1",
                "{\"iter\": 1, \"iterLatencyMS\": 5.0, \"numActiveRequests\": 0,"
                    + " \"timestamp\": \"08-07-2025 02:28:51.500000\"}",
                "W0807 02:28:52.250000 1 server.cc:10] \"triton is local time too\""));

    assertThat(sink.events)
        .extracting(EngineEvent::ts)
        .containsExactly(
            Instant.parse("2025-08-07T00:28:51Z"),
            Instant.parse("2025-01-07T01:28:51Z"),
            Instant.parse("2025-08-07T00:28:51.500Z"),
            Instant.parse("2025-08-07T00:28:52.250Z"));
  }

  @Test
  void leavesCppLinesWithoutTimeRatherThanGuessingOne() {
    Recorder sink =
        Recorder.run(
            new TrtLlmLineParser(SETTINGS),
            List.of(
                "[08/07/2025-02:28:51] [TRT-LLM] [W] python line with a time",
                "[TensorRT-LLM][WARNING] c++ line right after it"));

    assertThat(sink.events)
        .extracting(EngineEvent::ts)
        .containsExactly(Instant.parse("2025-08-07T02:28:51Z"), null);
  }

  @Test
  void keepsPerfMetricsAsDurationsWithoutWallClockTime() {
    Recorder sink =
        Recorder.run(
            new TrtLlmLineParser(SETTINGS),
            List.of(
                "{\"request_id\": 1, \"perf_metrics\": {\"timing_metrics\": {\"arrival_time\":"
                    + " 76543.25, \"first_scheduled_time\": 76543.5, \"first_token_time\": 76544.0,"
                    + " \"last_token_time\": 76546.0}}}"));

    RequestTiming timing = (RequestTiming) sink.events.get(0);
    assertThat(timing.ts()).isNull();
    assertThat(timing.arrivalTs()).isNull();
    assertThat(timing.queueMs() + timing.prefillMs() + timing.decodeMs()).isEqualTo(timing.e2eMs());
    assertThat(timing.queueMs() + timing.prefillMs()).isEqualTo(timing.serverTtftMs());
  }

  @Test
  void capsBufferedJsonAndRejectsTooLargeValues() {
    String padding = "x".repeat(300);
    List<String> lines =
        List.of(
            "{\"iter\": 1, \"numActiveRequests\": 1, \"pad\": \"" + padding + "\"}",
            "[",
            "  {",
            "    \"iter\": 2,",
            "    \"pad\": \"" + padding + "\",",
            "    \"numActiveRequests\": 1",
            "  },",
            "  {\"iter\": 3, \"numActiveRequests\": 2}",
            "]");

    Recorder sink = Recorder.run(new TrtLlmLineParser(SETTINGS, 256), lines);

    assertThat(sink.outcomes)
        .containsExactly(
            "rejected 1: json value too large",
            "ignored 2: trtllm: json continuation",
            "ignored 4: trtllm: json continuation",
            "rejected 3: json value too large",
            "ignored 5: trtllm: json continuation",
            "ignored 6: trtllm: json continuation",
            "ignored 7: trtllm: json continuation",
            "{\"type\":\"engine_stats\",\"engine\":\"trtllm\",\"instance\":\"trt-0\","
                + "\"source\":{\"path\":\"t.log\",\"line\":8,\"offset\":"
                + sink.events.get(0).source().offset()
                + "},\"running\":2}",
            "ignored 9: trtllm: json continuation");
  }

  @Test
  void rejectsAPrettyArrayCutAfterAnyLineAsTruncated() {
    List<String> pretty =
        List.of(
            "[",
            "  {",
            "    \"iter\": 7,",
            "    \"iterLatencyMS\": 12.5,",
            "    \"numActiveRequests\": 3,",
            "    \"inflightBatchingStats\": {",
            "      \"numContextRequests\": 1, \"numGenRequests\": 2, \"numScheduledRequests\": 3",
            "    }",
            "  }",
            "]");
    for (int cut = 1; cut < pretty.size(); cut++) {
      List<String> head = pretty.subList(0, cut);
      Recorder sink = Recorder.run(new TrtLlmLineParser(SETTINGS), head);

      assertThat(sink.reportedLines).containsExactlyElementsOf(lineNumbers(head));
      assertThat(sink.rejections).extracting(Rejection::reason).containsExactly("truncated json");
      assertThat(sink.events).hasSize(cut >= 9 ? 2 : 0);
    }
  }

  @Test
  void emitsEachIterationOfATimeEventsFileOnce() {
    String entry =
        "{\"iter_counter\": %d, \"iter_batch_size\": 2, \"num_ctx_requests\": 0,"
            + " \"num_gen_requests\": 2, \"gpu_forward_time\": 3.0}";
    List<String> lines = new ArrayList<>();
    for (int request = 0; request < 2; request++) {
      String steps =
          LongStream.range(0, 5000)
              .mapToObj(i -> String.format(entry, i))
              .collect(Collectors.joining(","));
      lines.add(
          "{\"request_id\": "
              + request
              + ", \"rank\": 0, \"time_breakdown_metrics\":"
              + " {\"step_metrics\": ["
              + steps
              + "]}}");
    }

    Recorder sink = Recorder.run(new TrtLlmLineParser(SETTINGS), lines);

    assertThat(sink.events).hasSize(5000).allMatch(BatchStep.class::isInstance);
    assertThat(sink.events)
        .extracting(event -> ((BatchStep) event).iteration())
        .doesNotHaveDuplicates();
  }

  @Test
  void detectionPicksTrtLlmForItsLinesAndJson() {
    List<String> head =
        List.of(
            "[TensorRT-LLM] TensorRT-LLM version: 0.21.0",
            "[TensorRT-LLM][INFO] Loaded engine size: 4096 MiB",
            "[08/19/2026-14:11:49] [TRT-LLM] [I] [_torch][RANK 0] iter = 5, global_rank = 0,"
                + " rank = 0, num_scheduled_requests = 1, kv_cache_util = 0.010,"
                + " currank_total_requests = 1/1, host_step_time = 5.0ms,"
                + " prev_device_step_time = 4.5ms, timestamp = 2026-08-19 14:11:49,"
                + " states = {'num_ctx_requests': 1, 'num_ctx_tokens': 9, 'num_generation_tokens': 0}");

    assertThat(Parsers.detect(head, SETTINGS).engine()).contains(Engine.TRTLLM);
  }

  private static Arguments row(String name, String lines, String outcomes) {
    return Arguments.of(name, split(lines), split(outcomes));
  }

  static List<String> split(String block) {
    String text = block.endsWith("\n") ? block.substring(0, block.length() - 1) : block;
    return Arrays.asList(text.split("\n", -1));
  }

  static List<Long> lineNumbers(List<String> lines) {
    return LongStream.rangeClosed(1, lines.size()).boxed().collect(Collectors.toList());
  }

  private static void isWellFormed(Rejection rejection) {
    assertThat(rejection.engine()).isEqualTo(Engine.TRTLLM);
    // lower case, except a field name quoted as the engine spells it (docs/design.md#bad-input)
    assertThat(rejection.reason()).matches("[a-z0-9 :_-]+(?:'[^']+'[a-z0-9 :_-]*)*");
    assertThat(rejection.excerpt().length()).isLessThanOrEqualTo(Rejection.MAX_EXCERPT);
  }
}
