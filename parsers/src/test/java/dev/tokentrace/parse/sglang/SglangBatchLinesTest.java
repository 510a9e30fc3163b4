package dev.tokentrace.parse.sglang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One row per {@code Prefill batch} / {@code Decode batch} template of
 * docs/formats/sglang.md#prefill-batch-line and docs/formats/sglang.md#decode-batch-line and per
 * prefix generation of docs/formats/sglang.md#log-prefix, docs/formats/sglang.md#rank-tags,
 * composed from the documented format strings with our own values.
 */
final class SglangBatchLinesTest {
  private static final String TS = "ts=2025-03-01T10:00:00.000Z";
  private static final String P = "[2025-03-01 10:00:00 TP0] ";

  static Stream<Arguments> prefillLines() {
    return Stream.of(
        row(
            "v0.1.17 typo, gpu_id tag, no timestamp",
            "[gpu_id=0] Prefil batch. #new-seq: 1, #new-token: 9, #cached-token: 0, cache hit rate:"
                + " 0.00%, #running-req: 0, #queue-req: 0",
            "batch_step rank=GPU0 phase=prefill batch_size=0 new_seqs=1 new_tokens=9 cached_tokens=0"
                + " queued=0 step_ms_derived=false"),
        row(
            "v0.1.18 – v0.2.6",
            "[gpu_id=1] Prefill batch. #new-seq: 2, #new-token: 300, #cached-token: 12, cache hit"
                + " rate: 3.85%, #running-req: 5, #queue-req: 7",
            "batch_step rank=GPU1 phase=prefill batch_size=5 new_seqs=2 new_tokens=300"
                + " cached_tokens=12 queued=7 step_ms_derived=false"),
        row(
            "v0.2.7 – v0.2.13 gpu tag",
            "[gpu=3] Prefill batch. #new-seq: 1, #new-token: 40, #cached-token: 0, cache hit rate:"
                + " 0.00%, #running-req: 1, #queue-req: 0",
            "batch_step rank=GPU3 phase=prefill batch_size=1 new_seqs=1 new_tokens=40"
                + " cached_tokens=0 queued=0 step_ms_derived=false"),
        row(
            "v0.2.14 – v0.3.1.post1, time-only prefix (undated: no full date seen)",
            "[04:40:55 TP0] Prefill batch. #new-seq: 1, #new-token: 64, #cached-token: 8, cache hit"
                + " rate: 11.11%, #running-req: 2, #queue-req: 1",
            "batch_step rank=TP0 phase=prefill batch_size=2 new_seqs=1 new_tokens=64"
                + " cached_tokens=8 queued=1 step_ms_derived=false"),
        row(
            "v0.2.14 – v0.3.1.post1 mixed chunk",
            "[04:40:56 TP0] Prefill batch(mixed #running-req: 3). #new-seq: 1, #new-token: 64,"
                + " #cached-token: 0, cache hit rate: 0.00%, #queue-req: 0",
            "batch_step rank=TP0 phase=mixed batch_size=3 new_seqs=1 new_tokens=64 cached_tokens=0"
                + " queued=0 step_ms_derived=false"),
        row(
            "v0.3.1.post2 – v0.3.5 mixed chunk with token usage",
            "[04:40:57 TP1] Prefill batch(mixed #running-req: 4). #new-seq: 2, #new-token: 128,"
                + " #cached-token: 16, cache hit rate: 5.00%, token usage: 0.12, #queue-req: 3",
            "batch_step rank=TP1 phase=mixed batch_size=4 new_seqs=2 new_tokens=128"
                + " cached_tokens=16 queued=3 token_usage=0.12 step_ms_derived=false"),
        row(
            "v0.3.5.post1 – v0.4.3.post2",
            P
                + "Prefill batch. #new-seq: 1, #new-token: 512, #cached-token: 128, cache hit rate:"
                + " 20.00%, token usage: 0.10, #running-req: 4, #queue-req: 2",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill batch_size=4 new_seqs=1 new_tokens=512"
                + " cached_tokens=128 queued=2 token_usage=0.1 step_ms_derived=false"),
        row(
            "v0.4.3.post3 – v0.4.5.post3 trailing separator",
            P
                + "Prefill batch. #new-seq: 1, #new-token: 512, #cached-token: 0, token usage: 0.02,"
                + " #running-req: 0, #queue-req: 0, ",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill batch_size=0 new_seqs=1 new_tokens=512"
                + " cached_tokens=0 queued=0 token_usage=0.02 step_ms_derived=false"),
        row(
            "v0.4.6 PD prefill, one trailing space",
            P
                + "Prefill batch. #new-seq: 1, #new-token: 100, #cached-token: 0, token usage: 0.01,"
                + " #running-req: 0, #unbootstrapped-req: 2, #queue-req: 1, #transferring-req: 3 ",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill batch_size=0 new_seqs=1 new_tokens=100"
                + " cached_tokens=0 queued=1 token_usage=0.01 step_ms_derived=false"),
        row(
            "v0.4.7 PD prefill with time",
            P
                + "Prefill batch. #new-seq: 1, #new-token: 100, #cached-token: 0, token usage: 0.01,"
                + " #running-req: 0, #unbootstrapped-req: 0, #queue-req: 0, #transferring-req: 1,"
                + " time: 0.25 ",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill batch_size=0 new_seqs=1 new_tokens=100"
                + " cached_tokens=0 queued=0 token_usage=0.01 step_ms_derived=false"),
        row(
            "v0.4.7.post1 – v0.4.8.post1 PD prefill, input throughput, no #running-req",
            P
                + "Prefill batch. #new-seq: 2, #new-token: 2048, #cached-token: 0, token usage:"
                + " 0.03, #unbootstrapped-req: 0, #queue-req: 5, #transferring-req: 2, input"
                + " throughput (token/s): 15234.50 ",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill new_seqs=2 new_tokens=2048"
                + " cached_tokens=0 queued=5 token_usage=0.03 throughput_tps=15234.5"
                + " step_ms_derived=false"),
        row(
            "v0.4.9 allocator usage text",
            P
                + "Prefill batch. #new-seq: 1, #new-token: 16, #cached-token: 0, #token: 1000, token"
                + " usage: 0.05, #running-req: 1, #queue-req: 0",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill batch_size=1 new_seqs=1 new_tokens=16"
                + " cached_tokens=0 queued=0 token_usage=0.05 step_ms_derived=false"),
        row(
            "v0.4.9 hybrid SWA usage text",
            P
                + "Prefill batch. #new-seq: 1, #new-token: 16, #cached-token: 0, #token: full=1000,"
                + " swa=200, token usage: full=0.05, swa=0.40, #running-req: 1, #queue-req: 0",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill batch_size=1 new_seqs=1 new_tokens=16"
                + " cached_tokens=0 queued=0 token_usage=0.05 step_ms_derived=false"),
        row(
            "v0.4.9.post1 – post2 non-PD timestamp field (microseconds: the ts)",
            P
                + "Prefill batch. #new-seq: 1, #new-token: 16, #cached-token: 0, #token: 1000, token"
                + " usage: 0.05, #running-req: 1, #queue-req: 0, timestamp:"
                + " 2025-03-01T10:00:00.417234",
            "batch_step ts=2025-03-01T10:00:00.417Z rank=TP0 phase=prefill batch_size=1"
                + " new_seqs=1 new_tokens=16 cached_tokens=0 queued=0 token_usage=0.05"
                + " step_ms_derived=false"),
        row(
            "v0.4.9.post1 – post2 PD timestamp field",
            P
                + "Prefill batch. #new-seq: 1, #new-token: 16, #cached-token: 0, #token: 1000, token"
                + " usage: 0.05, #unbootstrapped-req: 0, #queue-req: 0, #transferring-req: 0, input"
                + " throughput (token/s): 800.00, timestamp: 2025-03-01T10:00:01",
            "batch_step ts=2025-03-01T10:00:01.000Z rank=TP0 phase=prefill new_seqs=1"
                + " new_tokens=16 cached_tokens=0 queued=0 token_usage=0.05 throughput_tps=800.0"
                + " step_ms_derived=false"),
        row(
            "v0.4.9.post3 – v0.5.3rc0 non-PD",
            P
                + "Prefill batch. #new-seq: 3, #new-token: 900, #cached-token: 300, token usage:"
                + " 0.20, #running-req: 10, #queue-req: 4, ",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill batch_size=10 new_seqs=3"
                + " new_tokens=900 cached_tokens=300 queued=4 token_usage=0.2"
                + " step_ms_derived=false"),
        row(
            "v0.4.9.post3 – v0.5.3rc0 PD with SWA usage",
            P
                + "Prefill batch. #new-seq: 1, #new-token: 64, #cached-token: 0, full token usage:"
                + " 0.11, swa token usage: 0.50, #unbootstrapped-req: 1, #queue-req: 2,"
                + " #transferring-req: 3, input throughput (token/s): 1000.25, ",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill new_seqs=1 new_tokens=64"
                + " cached_tokens=0 queued=2 token_usage=0.11 throughput_tps=1000.25"
                + " step_ms_derived=false"),
        row(
            "v0.5.3rc2 – v0.5.3.post3 PD prealloc/inflight",
            P
                + "Prefill batch. #new-seq: 1, #new-token: 64, #cached-token: 0, token usage: 0.01,"
                + " #running-req: 0, #queue-req: 0, #prealloc-req: 2, #inflight-req: 1, ",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill batch_size=0 new_seqs=1 new_tokens=64"
                + " cached_tokens=0 queued=0 token_usage=0.01 step_ms_derived=false"),
        row(
            "v0.5.3.post2 hybrid mamba usage",
            P
                + "Prefill batch. #new-seq: 1, #new-token: 64, #cached-token: 0, full token usage:"
                + " 0.07, mamba usage: 0.30, #running-req: 2, #queue-req: 0, ",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill batch_size=2 new_seqs=1 new_tokens=64"
                + " cached_tokens=0 queued=0 token_usage=0.07 step_ms_derived=false"),
        row(
            "v0.5.4 iteration header, PD input throughput",
            P
                + "Prefill batch [42], #new-seq: 1, #new-token: 64, #cached-token: 0, token usage:"
                + " 0.01, #running-req: 0, #queue-req: 0, #prealloc-req: 0, #inflight-req: 0,"
                + " input throughput (token/s): 2345.67, ",
            "batch_step "
                + TS
                + " rank=TP0 iteration=42 phase=prefill batch_size=0 new_seqs=1"
                + " new_tokens=64 cached_tokens=0 queued=0 token_usage=0.01"
                + " throughput_tps=2345.67 step_ms_derived=false"),
        row(
            "v0.5.4.post1 – 2026-01-29 comma header",
            P
                + "Prefill batch, #new-seq: 2, #new-token: 128, #cached-token: 64, token usage:"
                + " 0.03, #running-req: 6, #queue-req: 1, ",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill batch_size=6 new_seqs=2 new_tokens=128"
                + " cached_tokens=64 queued=1 token_usage=0.03 step_ms_derived=false"),
        row(
            "2026-01-30 – 2026-03-18 throughput then graph flag, no trailing separator",
            P
                + "Prefill batch, #new-seq: 1, #new-token: 256, #cached-token: 0, token usage: 0.04,"
                + " #running-req: 3, #queue-req: 0, input throughput (token/s): 9000.00,"
                + " waiting-image-req: 0, cuda graph: False",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill batch_size=3 new_seqs=1 new_tokens=256"
                + " cached_tokens=0 queued=0 token_usage=0.04 throughput_tps=9000.0"
                + " step_ms_derived=false"),
        row(
            "2026-03-19 – 2026-04-09 graph flag before throughput, npu graph, iteration",
            P
                + "Prefill batch [7], #new-seq: 1, #new-token: 256, #cached-token: 0, token usage:"
                + " 0.04, #running-req: 3, #queue-req: 0, #prealloc-req: 1, #inflight-req: 0, npu"
                + " graph: False, input throughput (token/s): 9000.50",
            "batch_step "
                + TS
                + " rank=TP0 iteration=7 phase=prefill batch_size=3 new_seqs=1"
                + " new_tokens=256 cached_tokens=0 queued=0 token_usage=0.04"
                + " throughput_tps=9000.5 step_ms_derived=false"),
        row(
            "2026-04-10 → 2026-07 pending tokens, bootstrap/optimistic, TFLOPS, occupancy",
            P
                + "Prefill batch, #new-seq: 2, #new-token: 4096, #cached-token: 1024, full token"
                + " usage: 0.31, swa token usage: 0.20, mamba usage: 0.10, #running-req: 8,"
                + " #queue-req: 5, #pending-token: 20480, #bootstrap-req: 1, #inflight-req: 2,"
                + " #optimistic-req: 0, waiting-image-req: 0, musa graph: True, input throughput"
                + " (token/s): 30123.45, est. prefill TFLOPS/s (per GPU): 312.50, fwd occupancy:"
                + " 87.50%",
            "batch_step "
                + TS
                + " rank=TP0 phase=prefill batch_size=8 new_seqs=2"
                + " new_tokens=4096 cached_tokens=1024 queued=5 token_usage=0.31"
                + " throughput_tps=30123.45 step_ms_derived=false"));
  }

  static Stream<Arguments> decodeLines() {
    return Stream.of(
        row(
            "≤ v0.1.16 no header",
            "#running-req: 1, #token: 20, token usage: 0.00, gen throughput (token/s): 30.00,"
                + " #queue-req: 0",
            "batch_step phase=decode batch_size=1 queued=0 token_usage=0.0 throughput_tps=30.0"
                + " step_ms_derived=false"),
        row(
            "v0.1.17 – v0.2.6 gpu_id tag",
            "[gpu_id=0] Decode batch. #running-req: 2, #token: 40, token usage: 0.01, gen"
                + " throughput (token/s): 60.50, #queue-req: 1",
            "batch_step rank=GPU0 phase=decode batch_size=2 queued=1 token_usage=0.01"
                + " throughput_tps=60.5 step_ms_derived=false"),
        row(
            "v0.2.7 – v0.2.13 gpu tag",
            "[gpu=1] Decode batch. #running-req: 2, #token: 40, token usage: 0.01, gen throughput"
                + " (token/s): 60.50, #queue-req: 1",
            "batch_step rank=GPU1 phase=decode batch_size=2 queued=1 token_usage=0.01"
                + " throughput_tps=60.5 step_ms_derived=false"),
        row(
            "v0.2.14 – v0.4.1.post6",
            P
                + "Decode batch. #running-req: 12, #token: 4096, token usage: 0.05, gen throughput"
                + " (token/s): 512.34, #queue-req: 3",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=12 queued=3 token_usage=0.05"
                + " throughput_tps=512.34 step_ms_derived=false"),
        row(
            "v0.4.1.post7 – v0.4.3.post2 accept len",
            P
                + "Decode batch. #running-req: 4, #token: 900, token usage: 0.02, accept len: 2.75,"
                + " gen throughput (token/s): 700.00, #queue-req: 0",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=4 queued=0 token_usage=0.02"
                + " throughput_tps=700.0 step_ms_derived=false"),
        row(
            "v0.4.3.post3 – v0.4.4.post1 largest-len, trailing separator",
            P
                + "Decode batch. #running-req: 4, #token: 900, token usage: 0.02, gen throughput"
                + " (token/s): 700.00, largest-len: 0, #queue-req: 0, ",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=4 queued=0 token_usage=0.02"
                + " throughput_tps=700.0 step_ms_derived=false"),
        row(
            "v0.4.4.post2 – v0.4.5.post3 trailing separator",
            P
                + "Decode batch. #running-req: 4, #token: 900, token usage: 0.02, gen throughput"
                + " (token/s): 700.00, #queue-req: 2, ",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=4 queued=2 token_usage=0.02"
                + " throughput_tps=700.0 step_ms_derived=false"),
        row(
            "v0.4.6 – v0.4.6.post3 pre-allocated usage",
            P
                + "Decode batch. #running-req: 4, #token: 900, token usage: 0.02, pre-allocated"
                + " usage: 0.10, gen throughput (token/s): 700.00, #queue-req: 2",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=4 queued=2 token_usage=0.02"
                + " throughput_tps=700.0 step_ms_derived=false"),
        row(
            "v0.4.6.post4 – v0.4.7 cuda graph",
            P
                + "Decode batch. #running-req: 4, #token: 900, token usage: 0.02, accept len: 1.90,"
                + " cuda graph: True, gen throughput (token/s): 700.00, #queue-req: 2",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=4 queued=2 token_usage=0.02"
                + " throughput_tps=700.0 step_ms_derived=false"),
        row(
            "v0.4.7.post1 – v0.4.9 PD decode retracted",
            P
                + "Decode batch. #running-req: 30, #token: 9000, token usage: 0.40, pre-allocated"
                + " usage: 0.05, #retracted-req: 1, cuda graph: True, gen throughput (token/s):"
                + " 2100.00, #queue-req: 0",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=30 queued=0 token_usage=0.4"
                + " throughput_tps=2100.0 step_ms_derived=false"),
        row(
            "v0.4.9 SWA usage text",
            P
                + "Decode batch. #running-req: 3, #token: full=900, swa=100, token usage:"
                + " full=0.04, swa=0.20, cuda graph: True, gen throughput (token/s): 90.00,"
                + " #queue-req: 0",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=3 queued=0 token_usage=0.04"
                + " throughput_tps=90.0 step_ms_derived=false"),
        row(
            "v0.4.9.post1 – post2 timestamp field",
            P
                + "Decode batch. #running-req: 3, #token: 900, token usage: 0.04, cuda graph: True,"
                + " gen throughput (token/s): 90.00, #queue-req: 0, timestamp:"
                + " 2025-03-01T10:00:00.999001",
            "batch_step ts=2025-03-01T10:00:00.999Z rank=TP0 phase=decode batch_size=3 queued=0"
                + " token_usage=0.04 throughput_tps=90.0 step_ms_derived=false"),
        row(
            "v0.4.9.post3 – v0.5.3rc0 trailing separator",
            P
                + "Decode batch. #running-req: 3, #token: 900, token usage: 0.04, cuda graph: True,"
                + " gen throughput (token/s): 90.00, #queue-req: 0, ",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=3 queued=0 token_usage=0.04"
                + " throughput_tps=90.0 step_ms_derived=false"),
        row(
            "v0.4.9.post3 – v0.5.3rc0 SWA counters, cpu graph",
            P
                + "Decode batch. #running-req: 3, #full token: 900, full token usage: 0.04, #swa"
                + " token: 100, swa token usage: 0.30, cpu graph: False, gen throughput (token/s):"
                + " 90.00, #queue-req: 0, ",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=3 queued=0 token_usage=0.04"
                + " throughput_tps=90.0 step_ms_derived=false"),
        row(
            "v0.5.3rc2 – v0.5.3.post1 PD decode queues",
            P
                + "Decode batch. #running-req: 64, #token: 20000, token usage: 0.61, pre-allocated"
                + " usage: 0.02, #prealloc-req: 3, #transfer-req: 5, #retracted-req: 0, cuda graph:"
                + " True, gen throughput (token/s): 4000.00, #queue-req: 1, ",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=64 queued=1 token_usage=0.61"
                + " throughput_tps=4000.0 step_ms_derived=false"),
        row(
            "v0.5.3.post2 – post3 accept rate, mamba",
            P
                + "Decode batch. #running-req: 8, #full token: 3000, full token usage: 0.09, mamba"
                + " num: 8, mamba usage: 0.25, accept len: 3.10, accept rate: 0.78, cuda graph:"
                + " True, gen throughput (token/s): 1500.00, #queue-req: 0, ",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=8 queued=0 token_usage=0.09"
                + " throughput_tps=1500.0 step_ms_derived=false"),
        row(
            "v0.5.4 iteration header",
            P
                + "Decode batch [1234], #running-req: 8, #token: 3000, token usage: 0.09, cuda graph:"
                + " True, gen throughput (token/s): 1500.00, #queue-req: 0, ",
            "batch_step "
                + TS
                + " rank=TP0 iteration=1234 phase=decode batch_size=8 queued=0"
                + " token_usage=0.09 throughput_tps=1500.0 step_ms_derived=false"),
        row(
            "v0.5.4.post1 – 2026-01-29 comma header",
            P
                + "Decode batch, #running-req: 8, #token: 3000, token usage: 0.09, cuda graph: True,"
                + " gen throughput (token/s): 1500.00, #queue-req: 0, ",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=8 queued=0 token_usage=0.09"
                + " throughput_tps=1500.0 step_ms_derived=false"),
        row(
            "2026-01-30 → 2026-07 no trailing, spec, PD, MFU, occupancy",
            P
                + "Decode batch, #running-req: 8, #token: 3000, token usage: 0.09, accept len:"
                + " 3.10, accept rate: 0.78, cap len: 4.00, block accept len: 2.00, pre-allocated"
                + " usage: 0.01, #prealloc-req: 0, #transfer-req: 0, #retracted-req: 0,"
                + " waiting-image-req: 0, cuda graph: True, gen throughput (token/s): 1500.00,"
                + " #queue-req: 0, est. decode TFLOPS/s (per GPU): 45.00, est. read BW (GB/s per"
                + " GPU): 2100.00, est. write BW (GB/s per GPU): 30.00, fwd occupancy: 92.10%",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=8 queued=0 token_usage=0.09"
                + " throughput_tps=1500.0 step_ms_derived=false"),
        row(
            "2026-04 HiSparse usage without plain token usage",
            P
                + "Decode batch, #running-req: 8, #gpu token: 3000, gpu token usage: 0.19, #cpu"
                + " token: 9000, cpu token usage: 0.50, cuda graph: True, gen throughput"
                + " (token/s): 1500.00, #queue-req: 0",
            "batch_step "
                + TS
                + " rank=TP0 phase=decode batch_size=8 queued=0 token_usage=0.19"
                + " throughput_tps=1500.0 step_ms_derived=false"));
  }

  static Stream<Arguments> envelopes() {
    String decode =
        "Decode batch, #running-req: 1, #token: 9, token usage: 0.00, cuda graph: True, gen"
            + " throughput (token/s): 10.00, #queue-req: 0";
    String tail =
        " phase=decode batch_size=1 queued=0 token_usage=0.0 throughput_tps=10.0"
            + " step_ms_derived=false";
    return Stream.of(
        row(
            "single GPU, no rank tag",
            "[2025-05-14 09:31:43] " + decode,
            "batch_step ts=2025-05-14T09:31:43.000Z" + tail),
        row(
            "DP TP",
            "[2025-05-31 18:31:21 DP0 TP0] " + decode,
            "batch_step ts=2025-05-31T18:31:21.000Z rank='DP0 TP0'" + tail),
        row(
            "DP TP EP",
            "[2025-10-15 14:44:32 DP14 TP14 EP14] " + decode,
            "batch_step ts=2025-10-15T14:44:32.000Z rank='DP14 TP14 EP14'" + tail),
        row(
            "DP PP TP EP",
            "[2025-11-08 01:02:03 DP0 PP1 TP3 EP3] " + decode,
            "batch_step ts=2025-11-08T01:02:03.000Z rank='DP0 PP1 TP3 EP3'" + tail),
        row(
            "DP PP ATTN_CP MOE_DP TP EP",
            "[2026-02-14 00:00:00 DP1 PP0 ATTN_CP2 MOE_DP1 TP5 EP5] " + decode,
            "batch_step ts=2026-02-14T00:00:00.000Z rank='DP1 PP0 ATTN_CP2 MOE_DP1 TP5 EP5'"
                + tail),
        row(
            "SGLANG_LOG_MS",
            "[2025-12-01 12:00:00.123 TP0] " + decode,
            "batch_step ts=2025-12-01T12:00:00.123Z rank=TP0" + tail),
        row(
            "missing leading bracket (SGLang issue #26248)",
            "2025-12-01 12:00:00 TP2] " + decode,
            "batch_step ts=2025-12-01T12:00:00.000Z rank=TP2" + tail),
        row(
            "Ray actor tag",
            "(SGLangEngine pid=35555) [2025-10-31 10:00:00 TP1] " + decode,
            "batch_step ts=2025-10-31T10:00:00.000Z rank='pid=35555 TP1'" + tail),
        row(
            "Ray actor tag with ip",
            "(SGLangEngine pid=111711, ip=10.15.36.1) [2025-10-31 10:00:00] " + decode,
            "batch_step ts=2025-10-31T10:00:00.000Z rank=pid=111711" + tail),
        row(
            "embedder prefix with comma milliseconds",
            "2025-12-04 20:35:53,123 INFO 151972 [scheduler_metrics_mixin.py:287] " + decode,
            "batch_step ts=2025-12-04T20:35:53.123Z" + tail),
        row(
            "embedder prefix without time",
            "sglang.scheduler - INFO - " + decode,
            "batch_step" + tail),
        row("no prefix at all (%(message)s logging config)", decode, "batch_step" + tail),
        row(
            "MPI tag",
            "[1,0]<stdout>:[2025-03-01 10:00:00 TP0] " + decode,
            "batch_step " + TS + " rank=TP0" + tail),
        row(
            "docker logs -t",
            "2025-03-01T10:00:00.123456789Z [2025-03-01 10:00:00 TP0] " + decode,
            "batch_step " + TS + " rank=TP0" + tail),
        row(
            "docker compose",
            "sglang-1  | [2025-03-01 10:00:00 TP0] " + decode,
            "batch_step " + TS + " rank=TP0" + tail),
        row(
            "kubectl --prefix",
            "[pod/sglang-0/server] [2025-03-01 10:00:00 TP0] " + decode,
            "batch_step " + TS + " rank=TP0" + tail),
        row(
            "journald short",
            "Mar 01 10:00:00 gpu-node-7 python3[4242]: [2025-03-01 10:00:00 TP0] " + decode,
            "batch_step " + TS + " rank=TP0" + tail),
        row(
            "journald short-iso",
            "2025-03-01T10:00:00+0000 gpu-node-7 python3[4242]: [2025-03-01 10:00:00 TP0] "
                + decode,
            "batch_step " + TS + " rank=TP0" + tail),
        row(
            "byte-order mark on the first line",
            "\uFEFF[2025-03-01 10:00:00 TP0] " + decode,
            "batch_step " + TS + " rank=TP0" + tail),
        row(
            "ANSI colours and CRLF",
            "\u001B[32m[2025-03-01 10:00:00 TP0]\u001B[0m " + decode + "\r",
            "batch_step " + TS + " rank=TP0" + tail));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"prefillLines", "decodeLines", "envelopes"})
  void readsBatchLine(String version, String line, String expected) {
    RecordingSink sink = new RecordingSink();
    LineParser parser = Parsers.create(Engine.SGLANG, ParseSettings.of("test", 2025));
    parser.parse(line, new SourcePosition("server.log", 1, 0), sink);
    parser.finish(sink);
    assertThat(sink.reasons()).isEmpty();
    assertThat(sink.events).hasSize(1);
    assertThat(EventDescriptions.of(sink.events.get(0))).isEqualTo(expected);
  }

  private static Arguments row(String version, String line, String expected) {
    return Arguments.of(version, line, expected);
  }
}
