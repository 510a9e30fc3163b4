package dev.tokentrace.parse.sglang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Line tables for SGLang's request lines (docs/formats/sglang.md#request-lines,
 * docs/formats/sglang.md#time-stats-line, docs/formats/sglang.md#metrics-export-file), notices
 * (docs/formats/sglang.md#log-prefix, docs/formats/sglang.md#other-scheduler-lines), noise rules
 * and every reject reason. Lines are composed from the documented templates with our own values;
 * prompts carry the marker {@code SECRET} so that tests can prove no prompt text leaks.
 */
final class SglangLineParserTest {
  static final String TS = "ts=2025-03-01T10:00:00.000Z";

  static Stream<Arguments> requestLines() {
    return Stream.of(
        row(
            "≤ v0.2.13 in/out at finish, no prefix, string finish reason",
            "in=GenerateReqInput(text='SECRET hi', image_data=None, sampling_params={'max_new_tokens':"
                + " 16}, rid='a1b2'), out={'text': ' SECRET', 'meta_info': {'prompt_tokens': 2,"
                + " 'completion_tokens': 16, 'completion_tokens_wo_jump_forward': 16,"
                + " 'finish_reason': 'length', 'id': 'a1b2'}}",
            "request_finished request_id=a1b2 request_key=a1b2 output_tokens=16"
                + " finish_reason=length"),
        row(
            "v0.2.14 – v0.4.0.post1 in/out, dict finish reason, no e2e",
            "[2024-10-01 10:00:00] in=GenerateReqInput(text='SECRET', input_ids=None,"
                + " sampling_params={'max_new_tokens': 8, 'temperature': 0.0}, rid='r2',"
                + " return_logprob=False), out={'text': 'SECRET', 'meta_info': {'prompt_tokens': 3,"
                + " 'completion_tokens': 8, 'completion_tokens_wo_jump_forward': 8, 'cached_tokens':"
                + " 1, 'finish_reason': {'type': 'stop', 'matched': 2}, 'id': 'r2'}}",
            "request_finished ts=2024-10-01T10:00:00.000Z request_id=r2 request_key=r2"
                + " output_tokens=8 finish_reason=stop"),
        row(
            "v0.4.0.post2 in/out with e2e_latency",
            "[2024-12-09 10:00:00] in=GenerateReqInput(text='SECRET', rid='r3'), out={'text':"
                + " 'SECRET', 'meta_info': {'prompt_tokens': 3, 'completion_tokens': 8,"
                + " 'cached_tokens': 0, 'finish_reason': {'type': 'length', 'length': 8}, 'id':"
                + " 'r3', 'e2e_latency': 0.123456}}",
            "request_finished ts=2024-12-09T10:00:00.000Z request_id=r3 request_key=r3"
                + " output_tokens=8 finish_reason=length",
            "request_timing ts=2024-12-09T10:00:00.000Z request_id=r3 request_key=r3"
                + " e2e_ms=123.456 prompt_tokens=3 output_tokens=8 cached_tokens=0"
                + " finish_reason=length source_kind=meta_info"),
        row(
            "v0.4.1 – v0.4.1.post6 Receive, unquoted keys, double-quoted strings",
            "[2024-12-22 10:00:00] Receive: obj=GenerateReqInput(text=\"SECRET hello\","
                + " input_ids=None, sampling_params={max_new_tokens: 32, temperature: 0},"
                + " rid=\"r-041\", return_logprob=False)",
            "request_arrived ts=2024-12-22T10:00:00.000Z request_id=r-041 request_key=r-041"
                + " max_tokens=32"),
        row(
            "v0.4.1 – v0.4.1.post6 Finish, unquoted keys",
            "[2024-12-22 10:00:01] Finish: obj=GenerateReqInput(text=\"SECRET hello\","
                + " rid=\"r-041\"), out={text: \"SECRET\", meta_info: {prompt_tokens: 3,"
                + " completion_tokens: 32, cached_tokens: 0, finish_reason: {type: \"length\","
                + " length: 32}, id: \"r-041\", e2e_latency: 0.812345}}",
            "request_finished ts=2024-12-22T10:00:01.000Z request_id=r-041 request_key=r-041"
                + " output_tokens=32 finish_reason=length",
            "request_timing ts=2024-12-22T10:00:01.000Z request_id=r-041 request_key=r-041"
                + " e2e_ms=812.345 prompt_tokens=3 output_tokens=32 cached_tokens=0"
                + " finish_reason=length source_kind=meta_info"),
        row(
            "v0.4.1.post7+ Receive, repr strings with quotes and braces in the prompt",
            "[2025-03-01 10:00:00] Receive: obj=GenerateReqInput(text='SECRET say \"hi\" {x}"
                + " \\'q\\' ) ]', input_ids=None, sampling_params={'max_new_tokens': 128,"
                + " 'stop': [')', '}']}, rid='0f1e2d3c4b5a69788796a5b4c3d2e1f0',"
                + " return_logprob=False, stream=True)",
            "request_arrived "
                + TS
                + " request_id=0f1e2d3c4b5a69788796a5b4c3d2e1f0"
                + " request_key=0f1e2d3c4b5a69788796a5b4c3d2e1f0 max_tokens=128"),
        row(
            "v0.4.9+ level 0: metadata only",
            "[2025-03-01 10:00:00] Receive: obj=GenerateReqInput(image_data=None, rid='lvl0',"
                + " return_logprob=False, logprob_start_len=-1, stream=False,"
                + " custom_logit_processor=None, bootstrap_host=None, bootstrap_room=None)",
            "request_arrived " + TS + " request_id=lvl0 request_key=lvl0"),
        row(
            "level 2 truncated prompt",
            "[2025-03-01 10:00:00] Receive: obj=GenerateReqInput(text='SECRET aaaa' ... 'zzzz"
                + " SECRET', input_ids=[1, 2] ... [8, 9], sampling_params={'max_new_tokens': 5},"
                + " rid='trunc')",
            "request_arrived " + TS + " request_id=trunc request_key=trunc max_tokens=5"),
        row(
            "batch request: one arrival per rid",
            "[2025-03-01 10:00:00] Receive: obj=GenerateReqInput(text=['SECRET a', 'SECRET b'],"
                + " sampling_params=[{'max_new_tokens': 4}, {'max_new_tokens': 4}], rid=['b-0',"
                + " 'b-1'])",
            "request_arrived " + TS + " request_id=b-0 request_key=b-0",
            "request_arrived " + TS + " request_id=b-1 request_key=b-1"),
        row(
            "embedding request finish",
            "[2025-03-01 10:00:00] Finish: obj=EmbeddingReqInput(text='SECRET', rid='e1'),"
                + " out={'embedding': [0.125, -0.5], 'meta_info': {'id': 'e1', 'finish_reason':"
                + " None, 'prompt_tokens': 4, 'cached_tokens': 0, 'e2e_latency': 0.01}}",
            "request_finished " + TS + " request_id=e1 request_key=e1",
            "request_timing "
                + TS
                + " request_id=e1 request_key=e1 e2e_ms=10.0 prompt_tokens=4"
                + " cached_tokens=0 source_kind=meta_info"),
        row(
            "multimodal generation finish without out",
            "[2025-03-01 10:00:00] Finish: obj=GenerateReqInput(text='SECRET', rid='mm1')",
            "request_finished " + TS + " request_id=mm1 request_key=mm1"),
        row(
            "v0.5.5 – v0.5.5.post1 timing keys (not gated)",
            "[2025-11-06 10:00:00] Finish: obj=GenerateReqInput(rid='b55'), out={'meta_info':"
                + " {'id': 'b55', 'finish_reason': {'type': 'stop', 'matched': 151645},"
                + " 'prompt_tokens': 100, 'completion_tokens': 20, 'cached_tokens': 50,"
                + " 'e2e_latency': 0.9, 'queue_time': 0.05, 'prefill_delay': 0.002,"
                + " 'prefill_latency': 0.048, 'request_received_ts': 1762423200.0,"
                + " 'request_scheduled_ts': 1762423200.01, 'prefill_finished_ts': 1762423200.2,"
                + " 'response_sent_ts': 1762423200.9, 'decode_finished_ts': 1762423200.9,"
                + " 'forward_time': 0.85, 'decode_throughput': 28.5, 'time_per_token': 0.035}}",
            "request_finished ts=2025-11-06T10:00:00.000Z request_id=b55 request_key=b55"
                + " output_tokens=20 finish_reason=stop",
            "request_timing ts=2025-11-06T10:00:00.000Z request_id=b55 request_key=b55"
                + " arrival_ts=2025-11-06T10:00:00.000Z queue_ms=50.0 prefill_ms=50.0"
                + " decode_ms=700.0 server_ttft_ms=200.0 e2e_ms=900.0 prompt_tokens=100"
                + " output_tokens=20 cached_tokens=50 finish_reason=stop source_kind=meta_info"),
        row(
            "v0.5.5.post2 – 2026-02-24 --enable-metrics keys, abort",
            "Finish: obj=GenerateReqInput(rid='r2', text='SECRET'), headers={'x-smg-routing-key':"
                + " 'k'}, out={'meta_info': {'id': 'r2', 'finish_reason': {'type': 'abort',"
                + " 'message': 'Client disconnected'}, 'prompt_tokens': 5, 'completion_tokens': 3,"
                + " 'cached_tokens': 0, 'e2e_latency': 0.5, 'queue_time': 0.01,"
                + " 'prefill_launch_delay': 0.002, 'prefill_launch_latency': 0.03,"
                + " 'request_received_ts': 1767225600.1, 'request_sent_to_scheduler_ts':"
                + " 1767225600.105, 'prefill_finished_ts': 1767225600.2,"
                + " 'response_sent_to_client_ts': 1767225600.6, 'decode_finished_ts':"
                + " 1767225600.6, 'inference_time': 0.45, 'decode_throughput': 7.5,"
                + " 'total_retractions': 0}}",
            "request_finished ts=2026-01-01T00:00:00.600Z request_id=r2 request_key=r2"
                + " output_tokens=3 finish_reason=abort",
            "request_aborted ts=2026-01-01T00:00:00.600Z request_id=r2 request_key=r2"
                + " reason='Client disconnected'",
            "request_timing ts=2026-01-01T00:00:00.600Z request_id=r2 request_key=r2"
                + " arrival_ts=2026-01-01T00:00:00.100Z queue_ms=10.0 prefill_ms=32.0"
                + " decode_ms=400.0 server_ttft_ms=100.0 e2e_ms=500.0 prompt_tokens=5"
                + " output_tokens=3 cached_tokens=0 finish_reason=abort source_kind=meta_info"),
        row(
            "2026-01-03 – 2026-05-05 unprefixed Receive with headers",
            "Receive: obj=GenerateReqInput(rid='h1', text='SECRET', sampling_params={'max_new_tokens':"
                + " 7}), headers={'x-smg-routing-key': 'abc'}",
            "request_arrived request_id=h1 request_key=h1 max_tokens=7"),
        row(
            "2026-02-25+ scheduler/api-server keys, None latencies",
            "Finish: obj=GenerateReqInput(rid='d1'), out={'text': 'SECRET', 'output_ids': [5, 6],"
                + " 'meta_info': {'id': 'd1', 'finish_reason': {'type': 'length', 'length': 64},"
                + " 'prompt_tokens': 1000, 'completion_tokens': 64, 'cached_tokens': 512,"
                + " 'e2e_latency': 2.5, 'forward_entry_time': 1772000000.3,"
                + " 'prefill_finished_time': 1772000000.55, 'queue_time': 0.25,"
                + " 'prefill_waiting_latency': None, 'prefill_launch_latency': None,"
                + " 'request_received_ts': 1772000000.0, 'api_server_dispatch_finish_ts':"
                + " 1772000000.04, 'response_sent_to_client_ts': 1772000002.5,"
                + " 'request_finished_ts': 1772000002.5, 'inference_time': 2.2,"
                + " 'decode_throughput': 32.0}}",
            "request_finished ts=2026-02-25T06:13:22.500Z request_id=d1 request_key=d1"
                + " output_tokens=64 finish_reason=length",
            "request_timing ts=2026-02-25T06:13:22.500Z request_id=d1 request_key=d1"
                + " arrival_ts=2026-02-25T06:13:20.000Z queue_ms=250.0 prefill_ms=250.0"
                + " decode_ms=1950.0 server_ttft_ms=550.0 e2e_ms=2500.0 prompt_tokens=1000"
                + " output_tokens=64 cached_tokens=512 finish_reason=length"
                + " source_kind=meta_info"),
        row(
            "2026 keys without epochs: waiting + launch latency",
            "Finish: obj=GenerateReqInput(rid='d2'), out={'meta_info': {'id': 'd2', 'e2e_latency':"
                + " 1.0, 'queue_time': 0.1, 'prefill_waiting_latency': 0.01,"
                + " 'prefill_launch_latency': 0.2}}",
            "request_finished request_id=d2 request_key=d2",
            "request_timing request_id=d2 request_key=d2 queue_ms=100.0 prefill_ms=210.0"
                + " e2e_ms=1000.0 source_kind=meta_info"),
        row(
            "2026-05-06+ prefixed again, num_retractions",
            "[2026-05-07 10:00:00] Finish: obj=GenerateReqInput(rid='n1'), out={'meta_info':"
                + " {'id': 'n1', 'finish_reason': {'type': 'stop', 'matched': 2}, 'prompt_tokens':"
                + " 9, 'completion_tokens': 1, 'cached_tokens': 0, 'e2e_latency': 0.05,"
                + " 'num_retractions': 0}}",
            "request_finished ts=2026-05-07T10:00:00.000Z request_id=n1 request_key=n1"
                + " output_tokens=1 finish_reason=stop",
            "request_timing ts=2026-05-07T10:00:00.000Z request_id=n1 request_key=n1"
                + " e2e_ms=50.0 prompt_tokens=9 output_tokens=1 cached_tokens=0"
                + " finish_reason=stop source_kind=meta_info"),
        row(
            "json request.received, list rid",
            "{\"timestamp\": \"2025-12-24T21:05:35.123456\", \"event\": \"request.received\","
                + " \"rid\": [\"j1\", \"j2\"], \"obj\": {\"text\": [\"SECRET\", \"SECRET\"],"
                + " \"sampling_params\": {\"max_new_tokens\": 64}, \"rid\": [\"j1\", \"j2\"]}}",
            "request_arrived ts=2025-12-24T21:05:35.123Z request_id=j1 request_key=j1"
                + " max_tokens=64",
            "request_arrived ts=2025-12-24T21:05:35.123Z request_id=j2 request_key=j2"
                + " max_tokens=64"),
        row(
            "json request.finished",
            "{\"timestamp\": \"2025-12-24T21:05:36.000001\", \"event\": \"request.finished\","
                + " \"rid\": \"j1\", \"obj\": {\"text\": \"SECRET\"}, \"out\": {\"text\":"
                + " \"SECRET\", \"meta_info\": {\"id\": \"j1\", \"finish_reason\": {\"type\":"
                + " \"stop\", \"matched\": 2}, \"prompt_tokens\": 4, \"completion_tokens\": 10,"
                + " \"cached_tokens\": 2, \"e2e_latency\": 0.75, \"decode_throughput\": NaN}},"
                + " \"headers\": {\"x-smg-routing-key\": \"k\"}}",
            "request_finished ts=2025-12-24T21:05:36.000Z request_id=j1 request_key=j1"
                + " output_tokens=10 finish_reason=stop",
            "request_timing ts=2025-12-24T21:05:36.000Z request_id=j1 request_key=j1"
                + " e2e_ms=750.0 prompt_tokens=4 output_tokens=10 cached_tokens=2"
                + " finish_reason=stop source_kind=meta_info"),
        row(
            "metrics export record (2026 keys)",
            "{\"request_parameters\": \"{\\\"text\\\": \\\"SECRET\\\", \\\"rid\\\": \\\"m1\\\"}\","
                + " \"id\": \"m1\", \"finish_reason\": {\"type\": \"stop\", \"matched\": 2},"
                + " \"prompt_tokens\": 10, \"completion_tokens\": 20, \"cached_tokens\": 0,"
                + " \"e2e_latency\": 1.5, \"queue_time\": 0.1, \"forward_entry_time\":"
                + " 1772000000.2, \"prefill_finished_time\": 1772000000.5,"
                + " \"request_received_ts\": 1772000000.0, \"request_finished_ts\":"
                + " 1772000001.5}",
            "request_timing ts=2026-02-25T06:13:21.500Z request_id=m1 request_key=m1"
                + " arrival_ts=2026-02-25T06:13:20.000Z queue_ms=100.0 prefill_ms=300.0"
                + " decode_ms=1000.0 server_ttft_ms=500.0 e2e_ms=1500.0 prompt_tokens=10"
                + " output_tokens=20 cached_tokens=0 finish_reason=stop"
                + " source_kind=metrics_export"),
        row(
            "metrics export record (v0.5.5.post3 keys)",
            "{\"request_parameters\": \"{}\", \"id\": \"m2\", \"prompt_tokens\": 3,"
                + " \"completion_tokens\": 2, \"e2e_latency\": 0.2, \"queue_time\": 0.01,"
                + " \"prefill_launch_delay\": 0.001, \"prefill_launch_latency\": 0.009,"
                + " \"request_received_ts\": 1763000000.0, \"prefill_finished_ts\": 1763000000.05,"
                + " \"decode_finished_ts\": 1763000000.2}",
            "request_timing ts=2025-11-13T02:13:20.200Z request_id=m2 request_key=m2"
                + " arrival_ts=2025-11-13T02:13:20.000Z queue_ms=10.0 prefill_ms=10.0"
                + " decode_ms=150.0 server_ttft_ms=50.0 e2e_ms=200.0 prompt_tokens=3"
                + " output_tokens=2 source_kind=metrics_export"),
        row(
            "v0.5.3rc2 – v0.5.4.post2 Req Time Stats, unified",
            "[2025-03-01 10:00:00 TP0] Req Time Stats(rid=ts1, input len=10, output len=20,"
                + " type=unified): queue_duration=1.23ms, forward_duration=456.78ms,"
                + " start_time=1234.567",
            "request_timing "
                + TS
                + " request_id=ts1 request_key=ts1 queue_ms=1.23"
                + " prompt_tokens=10 output_tokens=20 source_kind=req_time_stats"),
        row(
            "v0.5.3rc2 Req Time Stats, PD prefill",
            "[2025-03-01 10:00:00 TP0] Req Time Stats(rid=ts2, bootstrap_room=77, input len=10,"
                + " output len=1, type=prefill): bootstrap_duration=5.00ms, queue_duration=2.50ms,"
                + " forward_duration=40.00ms, start_time=99.125",
            "request_timing "
                + TS
                + " request_id=ts2 request_key=ts2 queue_ms=7.5"
                + " prompt_tokens=10 output_tokens=1 source_kind=req_time_stats"),
        row(
            "v0.5.4.post3 – 2026-05-05 Req Time Stats, PD prefill breakdown",
            "[2025-03-01 10:00:00 TP0] Req Time Stats(rid=ts3, bootstrap_room=78, input len=10,"
                + " output len=1, type=prefill): bootstrap_queue_duration(9.00ms) ="
                + " alloc_wait(1.00ms) + bootstrap(7.00ms) + other(1.00ms); queue_duration=3.00ms,"
                + " forward_duration=40.00ms, start=99.125, transfer_speed=12.50GB/s,"
                + " transfer_total=64.00MB, #retries=0",
            "request_timing "
                + TS
                + " request_id=ts3 request_key=ts3 queue_ms=12.0 prefill_ms=35.0"
                + " prompt_tokens=10 output_tokens=1 source_kind=req_time_stats",
            "kv_transfer "
                + TS
                + " request_id=ts3 request_key=ts3 side=prefill transfers=1 duration_ms=5.0"
                + " mb_per_transfer=64.0 throughput_mb_s=12800.0 source_kind=req_time_stats"),
        row(
            "v0.5.4.post3 – 2026-05-05 Req Time Stats, PD decode",
            "[2025-03-01 10:00:00 TP0] Req Time Stats(rid=ts4, bootstrap_room=79, input len=10,"
                + " output len=30, type=decode): prealloc_queue_duration(4.00ms) ="
                + " alloc_wait(1.00ms) + bootstrap(2.00ms) + other(1.00ms); transfer_duration=6.00ms;"
                + " queue_duration=0.50ms, forward_duration=900.00ms, start=99.500",
            "request_timing "
                + TS
                + " request_id=ts4 request_key=ts4 queue_ms=0.5 decode_ms=900.0"
                + " prompt_tokens=10 output_tokens=30 source_kind=req_time_stats"),
        row(
            "2026-05-06+ ReqTimeStats",
            "[2026-05-07 10:00:00 TP0] ReqTimeStats(rid=ts5, input_len=10, cached_input_len=4,"
                + " output_len=20, attempts=1, type=unified): queue_duration=2.00ms,"
                + " forward_duration=3.00ms, entry_time=1778148000.123",
            "request_timing ts=2026-05-07T10:00:00.000Z request_id=ts5 request_key=ts5"
                + " queue_ms=2.0 prompt_tokens=10 output_tokens=20 cached_tokens=4"
                + " source_kind=req_time_stats"),
        row(
            "2026-05-06+ ReqTimeStats, PD prefill with bootstrap_queue_duration",
            "[2026-05-07 10:00:00 TP0] ReqTimeStats(rid=ts6, bootstrap_room=5, input_len=10,"
                + " cached_input_len=0, output_len=1, attempts=2, type=prefill):"
                + " bootstrap_queue_duration=8.00ms, queue_duration=1.50ms,"
                + " forward_duration=30.00ms, entry_time=1778148000.500, transfer_speed=10.00 GB/s,"
                + " transfer_total=32.00 MB",
            "request_timing ts=2026-05-07T10:00:00.000Z request_id=ts6 request_key=ts6"
                + " queue_ms=9.5 prefill_ms=26.875 prompt_tokens=10 output_tokens=1"
                + " cached_tokens=0 source_kind=req_time_stats",
            "kv_transfer ts=2026-05-07T10:00:00.000Z request_id=ts6 request_key=ts6"
                + " side=prefill transfers=1 duration_ms=3.125 mb_per_transfer=32.0"
                + " throughput_mb_s=10240.0 source_kind=req_time_stats"),
        row(
            "2026-05-06+ ReqTimeStats, PD prefill with bootstrap and alloc wait",
            "[2026-05-07 10:00:00] ReqTimeStats(rid=ts7, bootstrap_room=6, input_len=10,"
                + " cached_input_len=0, output_len=1, type=prefill): bootstrap_duration=0.80ms,"
                + " alloc_wait_duration=0.20ms, queue_duration=1.00ms, forward_duration=30.00ms,"
                + " entry_time=1778148000.500, transfer_speed=0.00 GB/s, transfer_total=0.00 MB,"
                + " #retries=0",
            "request_timing ts=2026-05-07T10:00:00.000Z request_id=ts7 request_key=ts7"
                + " queue_ms=2.0 prompt_tokens=10 output_tokens=1 cached_tokens=0"
                + " source_kind=req_time_stats"),
        row(
            "2026-05-06+ ReqTimeStats, PD decode",
            "[2026-05-07 10:00:00] ReqTimeStats(rid=ts8, bootstrap_room=6, input_len=10,"
                + " cached_input_len=0, output_len=40, type=decode): bootstrap_duration=0.80ms,"
                + " alloc_wait_duration=0.00ms, transfer_duration=35.00ms, queue_duration=4.25ms,"
                + " forward_duration=800.00ms, entry_time=1778148000.400",
            "request_timing ts=2026-05-07T10:00:00.000Z request_id=ts8 request_key=ts8"
                + " queue_ms=4.25 decode_ms=800.0 prompt_tokens=10 output_tokens=40"
                + " cached_tokens=0 source_kind=req_time_stats"),
        row(
            "2026-05-06+ ReqTimeStats, PD prefill without a client rid: keyed by bootstrap_room",
            "[2026-05-07 10:00:00] ReqTimeStats(rid=0f1e2d3c4b5a69788796a5b4c3d2e1f0,"
                + " bootstrap_room=4611686018427387904, input_len=10, cached_input_len=0,"
                + " output_len=1, type=prefill): bootstrap_duration=0.80ms,"
                + " alloc_wait_duration=0.20ms, queue_duration=1.00ms, forward_duration=30.00ms,"
                + " entry_time=1778148000.500, transfer_speed=10.00 GB/s, transfer_total=32.00 MB,"
                + " #retries=0",
            "request_timing ts=2026-05-07T10:00:00.000Z"
                + " request_id=0f1e2d3c4b5a69788796a5b4c3d2e1f0"
                + " request_key=bootstrap_room-4611686018427387904 queue_ms=2.0 prefill_ms=26.875"
                + " prompt_tokens=10 output_tokens=1 cached_tokens=0 source_kind=req_time_stats",
            "kv_transfer ts=2026-05-07T10:00:00.000Z"
                + " request_id=0f1e2d3c4b5a69788796a5b4c3d2e1f0"
                + " request_key=bootstrap_room-4611686018427387904 side=prefill transfers=1"
                + " duration_ms=3.125 mb_per_transfer=32.0 throughput_mb_s=10240.0"
                + " source_kind=req_time_stats"),
        row(
            "2026-05-06+ ReqTimeStats, PD decode without a client rid: keyed by bootstrap_room",
            "[2026-05-07 10:00:00] ReqTimeStats(rid=a1b2c3d4e5f60718293a4b5c6d7e8f90,"
                + " bootstrap_room=4611686018427387904, input_len=10, cached_input_len=0,"
                + " output_len=40, type=decode): bootstrap_duration=0.80ms,"
                + " alloc_wait_duration=0.00ms, transfer_duration=35.00ms, queue_duration=4.25ms,"
                + " forward_duration=800.00ms, entry_time=1778148000.400",
            "request_timing ts=2026-05-07T10:00:00.000Z"
                + " request_id=a1b2c3d4e5f60718293a4b5c6d7e8f90"
                + " request_key=bootstrap_room-4611686018427387904 queue_ms=4.25 decode_ms=800.0"
                + " prompt_tokens=10 output_tokens=40 cached_tokens=0 source_kind=req_time_stats"));
  }

  static Stream<Arguments> noticeLines() {
    return Stream.of(
        row(
            "v0.4.7 – 2025-12-23 retraction",
            "[2025-03-01 10:00:00 TP0] KV cache pool is full. Retract requests. #retracted_reqs:"
                + " 2, #new_token_ratio: 0.5000 -> 0.7000",
            "server_notice "
                + TS
                + " level=WARNING kind=preemption message='KV cache pool is"
                + " full. Retract requests. #retracted_reqs: 2, #new_token_ratio: 0.5000 ->"
                + " 0.7000'"),
        row(
            "2025-12-24+ retraction with tokens gained",
            "[2025-03-01 10:00:00 DP1 TP1] KV cache pool is full. Retract requests."
                + " #retracted_reqs: 1, #new_tokens_gained: 4096, #mamba_num_gained: 1,"
                + " #new_token_ratio: 0.3000 -> 0.6000",
            "server_notice "
                + TS
                + " level=WARNING kind=preemption message='KV cache pool is"
                + " full. Retract requests. #retracted_reqs: 1, #new_tokens_gained: 4096,"
                + " #mamba_num_gained: 1, #new_token_ratio: 0.3000 -> 0.6000'"),
        row(
            "v0.2.14 – v0.4.6.post5 decode OOM",
            "[2025-03-01 10:00:00 TP0] Decode out of memory happened. #retracted_reqs: 3,"
                + " #new_token_ratio: 0.4000 -> 0.9000",
            "server_notice "
                + TS
                + " level=WARNING kind=preemption message='Decode out of memory"
                + " happened. #retracted_reqs: 3, #new_token_ratio: 0.4000 -> 0.9000'"),
        row(
            "≤ v0.2.13 decode OOM, no prefix",
            "[gpu_id=0] decode out of memory happened, #retracted_reqs: 1, #new_token_ratio:"
                + " 0.4000 -> 0.9000",
            "server_notice level=WARNING kind=preemption message='decode out of memory"
                + " happened, #retracted_reqs: 1, #new_token_ratio: 0.4000 -> 0.9000'"),
        row(
            "GC warning",
            "[2025-03-01 10:00:00 TP0] LONG GARBAGE COLLECTION DETECTED | Generation 2 |"
                + " Duration: 1.2345s | # Objects: gen0=10, gen1=20, gen2=30 | ...",
            "server_notice "
                + TS
                + " level=WARNING kind=warning message='LONG GARBAGE COLLECTION"
                + " DETECTED | Generation 2 | Duration: 1.2345s | # Objects: gen0=10, gen1=20,"
                + " gen2=30 | ...'"),
        row(
            "sigquit",
            "[2025-03-01 10:00:00] Received sigquit from a child process. It usually means the"
                + " child failed.",
            "server_notice "
                + TS
                + " level=ERROR kind=error message='Received sigquit from a"
                + " child process. It usually means the child failed.'"),
        row(
            "uvicorn warning",
            "[2025-03-01 10:00:00] WARNING:  Invalid HTTP request received.",
            "server_notice "
                + TS
                + " level=WARNING kind=warning message='WARNING:  Invalid HTTP"
                + " request received.'"),
        row(
            "plain OOM message",
            "[2025-03-01 10:00:00 TP0] RuntimeError: CUDA error: out of memory",
            "server_notice "
                + TS
                + " level=ERROR kind=oom message='RuntimeError: CUDA error: out"
                + " of memory'"),
        row(
            "the server is ready (ends warm-up)",
            "[2025-03-01 10:00:00] The server is fired up and ready to roll!",
            "server_notice "
                + TS
                + " level=INFO kind=startup message='The server is fired up and"
                + " ready to roll!'"),
        row(
            "≤ v0.2.13 the server is ready, no prefix",
            "The server is fired up and ready to roll!",
            "server_notice level=INFO kind=startup message='The server is fired up and ready to"
                + " roll!'"));
  }

  static Stream<Arguments> ignoredLines() {
    return Stream.of(
        Arguments.of(
            "[2025-09-03 18:33:31] INFO:     192.168.30.81:35262 - \"POST /v1/chat/completions"
                + " HTTP/1.1\" 200 OK",
            NoiseRules.UVICORN_ACCESS),
        Arguments.of(
            "INFO:     127.0.0.1:40000 - \"POST /generate HTTP/1.1\" 200 OK",
            NoiseRules.UVICORN_ACCESS),
        Arguments.of("INFO:     Started server process [1234]", NoiseRules.UVICORN_LIFECYCLE),
        Arguments.of(
            "[2025-09-03 18:33:31] INFO:     Application startup complete.",
            NoiseRules.UVICORN_LIFECYCLE),
        Arguments.of(
            "[2025-03-01 10:00:00 TP0] Capture cuda graph end. Time elapsed: 12.00 s. mem"
                + " usage=1.00 GB. avail mem=10.00 GB.",
            NoiseRules.STARTUP),
        Arguments.of("[2025-03-01 10:00:00 TP0] Init torch distributed begin.", NoiseRules.STARTUP),
        Arguments.of(
            "[2025-03-01 10:00:00] Using default HuggingFace chat template", NoiseRules.OTHER),
        Arguments.of("[2025-03-01 10:00:00 TP0] ", NoiseRules.OTHER),
        Arguments.of(
            "[2025-03-01 10:00:00] Decode batch size is tuned by --cuda-graph-bs",
            NoiseRules.OTHER),
        Arguments.of(
            "[2026-03-20 10:00:00] Receive OpenAI: obj={'model': 'm', 'messages': [{'role':"
                + " 'user', 'content': 'SECRET'}]}",
            JsonLine.OPENAI_ECHO),
        Arguments.of(
            "Receive OpenAI: obj={'model': 'm', 'prompt': 'SECRET'}", JsonLine.OPENAI_ECHO),
        Arguments.of(
            "{\"timestamp\": \"2026-03-20T10:00:00\", \"event\": \"request.received.openai\","
                + " \"rid\": \"o1\", \"obj\": {\"prompt\": \"SECRET\"}}",
            JsonLine.OPENAI_ECHO),
        Arguments.of(
            "{\"timestamp\": 1768000000.0, \"event\": \"scheduler.status\", \"rank\": 0,"
                + " \"running_rids\": [\"a\"], \"queued_rids\": []}",
            JsonLine.SCHEDULER_STATUS),
        Arguments.of(
            "{\"request_parameters\": \"{}\", \"id\": \"m3\", \"prompt_tokens\": 1}",
            JsonLine.EXPORT_WITHOUT_TIMING),
        Arguments.of(
            "[2025-06-01 10:00:00 TP0] Req Time Stats(rid=z, input len=1, output len=1,"
                + " type=unified): queue_duration=0.00ms, forward_duration=1748772000000.00ms,"
                + " start_time=0",
            TimeStatsLine.WITHOUT_TIMES),
        Arguments.of("   ", NoiseRules.BLANK),
        Arguments.of(
            "Loading safetensors checkpoint shards:  50% Completed | 1/2 [00:01<00:01,  1.00s/it]",
            NoiseRules.TQDM),
        Arguments.of(
            "Capturing batches (bs=8 avail_mem=10.00 GB): 100%|██████████| 23/23 [00:05<00:00, "
                + " 4.21it/s]",
            NoiseRules.TQDM),
        Arguments.of("I0518 12:00:00.123456 12345 socket.cc:42] connected", NoiseRules.GLOG),
        Arguments.of("node-1:1234:1234 [0] NCCL INFO Bootstrap : Using eth0", NoiseRules.NCCL),
        Arguments.of(
            "/usr/lib/python3/dist-packages/x/y.py:12: FutureWarning: `foo` is deprecated",
            NoiseRules.PYTHON_WARNING),
        Arguments.of("  warnings.warn(", NoiseRules.PYTHON_WARNING),
        Arguments.of("Traceback (most recent call last):", NoiseRules.TRACEBACK_WITHOUT_CONTEXT));
  }

  static Stream<Arguments> badLines() {
    String p = "[2025-03-01 10:00:00 TP0] ";
    String decode = "Decode batch. #running-req: 1, #token: 2, token usage: 0.01, ";
    return Stream.of(
        bad("random junk", "unrecognized line"),
        bad(
            "INFO 04-01 10:00:00 [loggers.py:116] Engine 000: Avg prompt throughput: 0.0 tokens/s,"
                + " Avg generation throughput: 12.3 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU"
                + " KV cache usage: 0.1%, Prefix cache hit rate: 0.0%",
            "unrecognized line"),
        bad("junk\u0000with a NUL", "binary data"),
        bad("[2025-02-30 10:00:00 TP0] " + decode, "bad timestamp"),
        bad("[2025-03-01 25:00:00 TP0] " + decode, "bad timestamp"),
        bad(p + "Decode batch. nothing to see", BatchLine.NO_FIELDS),
        bad(p + "Decode batch [x], #running-req: 1", "batch line: bad iteration"),
        bad(p + "Prefill batch. #new-seq: one, #new-token: 1", "batch line: bad '#new-seq' value"),
        bad(p + "Prefill batch. #new-token: 1e9", "batch line: bad '#new-token' value"),
        bad(p + "Decode batch. #running-req: 99999999999", "batch line: bad '#running-req' value"),
        bad(p + "Decode batch. #queue-req: NaN", "batch line: bad '#queue-req' value"),
        bad(p + "Decode batch. token usage: inf", "batch line: bad 'token usage' value"),
        bad(p + "Decode batch. full token usage: x", "batch line: bad 'full token usage' value"),
        bad(p + "Decode batch. gpu token usage: ", "batch line: bad 'gpu token usage' value"),
        bad(
            p + "Decode batch. gen throughput (token/s): -5.00",
            "batch line: bad 'gen throughput (token/s)' value"),
        bad(
            p + "Prefill batch. input throughput (token/s): 1.2.3",
            "batch line: bad 'input throughput (token/s)' value"),
        bad(p + decode + "timestamp: yesterday", "batch line: bad 'timestamp' value"),
        bad(
            "[2025-03-01 10:00:00] Receive: obj=GenerateReqInput(text='SECRET', rid=None)",
            "receive line: no rid"),
        bad(
            "[2024-12-22 10:00:00] Receive: obj=GenerateReqInput(text=\"SECRET \"q\"\", rid=\"  \")",
            "receive line: no rid"),
        bad(
            "[2025-03-01 10:00:00] Finish: obj=GenerateReqInput(text='SECRET'), out={'text':"
                + " 'SECRET', 'meta_info': {'prompt_tokens': 1}}",
            "finish line: no rid"),
        bad(
            "Finish: obj=GenerateReqInput(rid='x'), out={'meta_info': {'e2e_latency': 'SECRET'}}",
            "finish line: bad 'e2e_latency' value"),
        bad(
            "Finish: obj=GenerateReqInput(rid='x'), out={'meta_info': {'prompt_tokens': -4}}",
            "finish line: bad 'prompt_tokens' value"),
        bad(
            "Finish: obj=GenerateReqInput(rid='x'), out={'meta_info': {'request_received_ts':"
                + " 12.5, 'e2e_latency': 1.0}}",
            "finish line: bad 'request_received_ts' value"),
        bad(p + "Req Time Stats(input len=1): queue_duration=1.00ms", "time stats line: no rid"),
        bad(
            p
                + "Req Time Stats(rid=a, input len=1, output len=1, type=unified):"
                + " forward_duration=1.00ms, start_time=5.0",
            "time stats line: no queue_duration"),
        bad(
            p
                + "Req Time Stats(rid=a, input len=1, output len=1, type=unified):"
                + " queue_duration=abcms, forward_duration=1.00ms, start_time=5.0",
            "time stats line: bad 'queue_duration' value"),
        bad(
            p
                + "Req Time Stats(rid=a, input len=x, output len=1, type=unified):"
                + " queue_duration=1.00ms, forward_duration=1.00ms, start_time=5.0",
            "time stats line: bad 'input len' value"),
        bad(
            p
                + "ReqTimeStats(rid=a, input_len=1, output_len=1, type=decode):"
                + " transfer_duration=1.00ms, queue_duration=1.00ms, forward_duration=x.00ms,"
                + " entry_time=5.000",
            "time stats line: bad 'forward_duration' value"),
        bad(
            p
                + "ReqTimeStats(rid=a, input_len=1, output_len=1, type=prefill):"
                + " bootstrap_queue_duration=-ms, queue_duration=1.00ms, forward_duration=2.00ms,"
                + " entry_time=5.000",
            "time stats line: bad bootstrap queue value"),
        bad(
            p
                + "ReqTimeStats(rid=a, input_len=1, output_len=1, type=prefill):"
                + " queue_duration=1.00ms, forward_duration=2.00ms, entry_time=5.000,"
                + " transfer_speed=fast GB/s, transfer_total=1.00 MB",
            "time stats line: bad 'transfer_speed' or 'transfer_total' value"),
        bad(
            "{\"event\": \"request.received\", \"obj\": {\"text\": \"SECRET",
            "json line: malformed"),
        bad("{\"resourceSpans\": []}", "json line: not an sglang record"),
        bad("{\"event\": \"request.exploded\"}", "json line: unknown event"),
        bad(
            "{\"event\": \"request.received\", \"obj\": {\"text\": \"SECRET\"}}",
            "json request log: no rid"),
        bad(
            "{\"event\": \"request.finished\", \"rid\": \"x\", \"out\": {\"meta_info\":"
                + " {\"e2e_latency\": NaN}}}",
            "json request log: bad 'e2e_latency' value"),
        bad(
            "{\"request_parameters\": \"{\\\"text\\\": \\\"SECRET\\\"}\", \"e2e_latency\": 1.0}",
            "metrics record: no rid"),
        bad(
            "{\"request_parameters\": \"{}\", \"id\": \"m\", \"queue_time\": Infinity}",
            "metrics record: bad 'queue_time' value"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"requestLines", "noticeLines"})
  void readsLine(String version, String line, List<String> expected) {
    RecordingSink sink = parse(line);
    assertThat(sink.reasons()).isEmpty();
    assertThat(descriptions(sink.events)).containsExactlyElementsOf(expected);
    assertThat(sink.eventJson()).noneMatch(json -> json.contains("SECRET"));
  }

  @ParameterizedTest(name = "{1}: {0}")
  @MethodSource("ignoredLines")
  void ignoresNoiseByName(String line, String rule) {
    RecordingSink sink = parse(line);
    assertThat(sink.events).isEmpty();
    assertThat(sink.reasons()).isEmpty();
    assertThat(sink.ignored).containsExactly(rule);
  }

  @ParameterizedTest(name = "{1}: {0}")
  @MethodSource("badLines")
  void rejectsBadLineWithReason(String line, String reason) {
    RecordingSink sink = parse(line);
    assertThat(sink.events).isEmpty();
    assertThat(sink.reasons()).containsExactly(reason);
    Rejection rejection = sink.rejections.get(0);
    assertThat(rejection.excerpt()).doesNotContain("SECRET");
    assertThat(rejection.position().line()).isEqualTo(1);
  }

  static RecordingSink parse(String... lines) {
    return parse(ParseSettings.of("test", 2025), lines);
  }

  static RecordingSink parse(ParseSettings settings, String... lines) {
    LineParser parser = Parsers.create(Engine.SGLANG, settings);
    RecordingSink sink = new RecordingSink();
    long number = 1;
    for (String line : lines) {
      parser.parse(line, new SourcePosition("server.log", number++, 0), sink);
    }
    parser.finish(sink);
    return sink;
  }

  static List<String> descriptions(List<EngineEvent> events) {
    List<String> descriptions = new ArrayList<>();
    for (EngineEvent event : events) {
      descriptions.add(EventDescriptions.of(event));
    }
    return descriptions;
  }

  private static Arguments row(String version, String line, String... expected) {
    List<String> events = new ArrayList<>();
    for (String event : expected) {
      if (event != null) {
        events.add(event);
      }
    }
    return Arguments.of(version, line, events);
  }

  private static Arguments bad(String line, String reason) {
    return Arguments.of(line, reason);
  }
}
