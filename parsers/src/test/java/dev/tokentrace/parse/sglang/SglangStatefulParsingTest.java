package dev.tokentrace.parse.sglang;

import static dev.tokentrace.parse.sglang.SglangLineParserTest.descriptions;
import static dev.tokentrace.parse.sglang.SglangLineParserTest.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Behaviour that spans lines: grouping, derived step times, dating, zones, joined requests. */
final class SglangStatefulParsingTest {
  private static final String DECODE =
      " Decode batch, #running-req: 8, #token: 900, token usage: 0.02, cuda graph: True, gen"
          + " throughput (token/s): 400.00, #queue-req: 0";

  @Test
  void groupsTracebackIntoOneNoticeEmittedWhenTheNextPrefixedLineArrives() {
    RecordingSink sink =
        parse(
            "[2025-03-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call"
                + " last):",
            "  File \"/sgl/managers/scheduler.py\", line 100, in event_loop",
            "    self.run_batch(batch)",
            "ValueError: bad shape (3, 4)",
            "",
            "[2025-03-01 10:00:01 TP0]" + DECODE);

    assertThat(sink.all)
        .startsWith(
            "ignored:2:" + NoiseRules.TRACEBACK_LINE,
            "ignored:3:" + NoiseRules.TRACEBACK_LINE,
            "ignored:4:" + NoiseRules.TRACEBACK_LINE,
            "ignored:5:" + NoiseRules.TRACEBACK_LINE);
    assertThat(descriptions(sink.events))
        .containsExactly(
            "server_notice ts=2025-03-01T10:00:00.000Z level=ERROR kind=error"
                + " message='Scheduler hit an exception: Traceback (most recent call last): |"
                + " ValueError: bad shape (3, 4)'",
            "batch_step ts=2025-03-01T10:00:01.000Z rank=TP0 phase=decode batch_size=8"
                + " queued=0 token_usage=0.02 throughput_tps=400.0 step_ms_derived=false");
    assertThat(sink.events.get(0).source().line()).isEqualTo(1);
  }

  @Test
  void emitsAnOpenTracebackAtFinishAndMarksOutOfMemoryTracebacksAsOom() {
    RecordingSink sink =
        parse(
            "[2025-03-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call"
                + " last):",
            "  File \"/sgl/model_runner.py\", line 7, in forward",
            "RuntimeError: first",
            "",
            "During handling of the above exception, another exception occurred:",
            "",
            "Traceback (most recent call last):",
            "  File \"/sgl/model_runner.py\", line 9, in forward",
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.",
            "CUDA kernel errors might be asynchronously reported at some other API call.");

    assertThat(descriptions(sink.events))
        .containsExactly(
            "server_notice ts=2025-03-01T10:00:00.000Z level=ERROR kind=oom"
                + " message='Scheduler hit an exception: Traceback (most recent call last): |"
                + " torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.'");
    assertThat(sink.reportedLines).containsExactlyElementsOf(lines(1, 10));
  }

  @Test
  void groupsUvicornErrorWithItsTraceback() {
    RecordingSink sink =
        parse(
            "[2025-03-01 10:00:00] INFO:     10.0.0.1:5000 - \"POST /generate HTTP/1.1\" 200 OK",
            "[2025-03-01 10:00:01] ERROR:    Exception in ASGI application",
            "Traceback (most recent call last):",
            "  File \"/x/uvicorn/protocols/http/httptools_impl.py\", line 4, in run_asgi",
            "KeyError: 'meta_info'");

    assertThat(descriptions(sink.events))
        .containsExactly(
            "server_notice ts=2025-03-01T10:00:01.000Z level=ERROR kind=error"
                + " message='ERROR:    Exception in ASGI application | KeyError: 'meta_info''");
  }

  @Test
  void anSglangLineWithoutPrefixEndsATracebackAndIsParsed() {
    RecordingSink sink =
        parse(
            "[2025-03-01 10:00:00 TP0] Scheduler hit an exception: Traceback (most recent call"
                + " last):",
            "KeyError: 'x'",
            "{\"timestamp\": \"2025-03-01T10:00:02\", \"event\": \"request.received\", \"rid\":"
                + " \"q1\", \"obj\": {}}",
            "Decode batch. #running-req: 1, #token: 2, token usage: 0.00, gen throughput (token/s):"
                + " 1.00, #queue-req: 0");

    assertThat(descriptions(sink.events))
        .containsExactly(
            "server_notice ts=2025-03-01T10:00:00.000Z level=ERROR kind=error"
                + " message='Scheduler hit an exception: Traceback (most recent call last): |"
                + " KeyError: 'x''",
            "request_arrived ts=2025-03-01T10:00:02.000Z request_id=q1 request_key=q1",
            "batch_step phase=decode batch_size=1 queued=0 token_usage=0.0 throughput_tps=1.0"
                + " step_ms_derived=false");
  }

  @Test
  void unprefixedTracebackIsANoticeOnlyInAnSglangLog() {
    String[] traceback = {
      "Traceback (most recent call last):", "  File \"/a.py\", line 1, in <module>", "OSError: x"
    };
    RecordingSink sglang =
        parse(
            "[2025-03-01 10:00:00 TP0] Init torch distributed begin.",
            traceback[0],
            traceback[1],
            traceback[2]);
    RecordingSink unknown = parse(traceback);

    assertThat(descriptions(sglang.events))
        .containsExactly(
            "server_notice level=ERROR kind=error message='Traceback (most recent call last): |"
                + " OSError: x'");
    assertThat(unknown.events).isEmpty();
    assertThat(unknown.ignored).contains(NoiseRules.TRACEBACK_WITHOUT_CONTEXT);
  }

  @Test
  void indentedContinuationOfAPrefixedMessageIsIgnoredByName() {
    RecordingSink sink =
        parse("[2025-03-01 10:00:00] Some multi-line message:", "    detail one", "\tdetail two");

    assertThat(sink.ignored)
        .containsExactly(NoiseRules.OTHER, NoiseRules.CONTINUATION, NoiseRules.CONTINUATION);
  }

  @Test
  void derivesDecodeStepTimeFromMillisecondPreciseLinesOfTheSameRank() {
    RecordingSink sink =
        parse(
            "[2025-12-01 12:00:00.000 DP0 TP0]" + DECODE,
            "[2025-12-01 12:00:00.500 DP1 TP1]" + DECODE,
            "[2025-12-01 12:00:02.400 DP0 TP0]" + DECODE,
            "[2025-12-01 12:00:02.410 DP0 TP0] Prefill batch, #new-seq: 1, #new-token: 8,"
                + " #cached-token: 0, token usage: 0.02, #running-req: 8, #queue-req: 0",
            "[2025-12-01 12:00:03.300 DP1 TP1]" + DECODE,
            "[2025-12-01 12:00:04.000 DP0 TP0]" + DECODE);

    assertThat(stepTimes(sink)).containsExactly(null, null, 60.0, null, 70.0, 40.0);
    assertThat(derivedFlags(sink)).containsExactly(false, false, true, false, true, true);
  }

  @Test
  void neverDerivesStepTimeFromSecondPrecisionTimestamps() {
    RecordingSink sink =
        parse(
            "[2025-03-01 10:00:00 TP0]" + DECODE,
            "[2025-03-01 10:00:02 TP0]" + DECODE,
            "[2025-03-01 10:00:04 TP0]" + DECODE);

    assertThat(stepTimes(sink)).containsExactly(null, null, null);
    assertThat(derivedFlags(sink)).containsExactly(false, false, false);
  }

  @Test
  void aSecondPrecisionLineOrARestartBreaksTheChain() {
    RecordingSink sink =
        parse(
            "[2025-12-01 12:00:00.000]" + DECODE,
            "[2025-12-01 12:00:01]" + DECODE,
            "[2025-12-01 12:00:02.000]" + DECODE,
            "[2025-12-01 12:00:02.400]" + DECODE,
            "[2025-12-01 12:00:03.000] The server is fired up and ready to roll!",
            "[2025-12-01 12:00:04.000]" + DECODE,
            "[2025-12-01 12:00:04.800]" + DECODE);

    assertThat(stepTimes(sink)).containsExactly(null, null, null, 10.0, null, 20.0);
  }

  @Test
  void derivesStepTimeFromTheTimestampFieldOfV049Post1() {
    String body =
        " Decode batch. #running-req: 1, #token: 20, token usage: 0.00, cuda graph: True, gen"
            + " throughput (token/s): 30.00, #queue-req: 0, timestamp: ";
    RecordingSink sink =
        parse(
            "[2025-07-01 12:00:00 TP0]" + body + "2025-07-01T12:00:00.250000",
            "[2025-07-01 12:00:01 TP0]" + body + "2025-07-01T12:00:01.050000");

    assertThat(stepTimes(sink)).containsExactly(null, 20.0);
  }

  @Test
  void datesTimeOnlyLinesFromTheLastFullDateAcrossMidnight() {
    RecordingSink sink =
        parse(
            "2025-12-31 23:59:00,000 INFO 1 [scheduler.py:1]" + DECODE,
            "[23:59:59 TP0]" + DECODE,
            "[00:00:01 TP0]" + DECODE);

    assertThat(sink.events)
        .extracting(event -> String.valueOf(event.ts()))
        .containsExactly("2025-12-31T23:59:00Z", "2025-12-31T23:59:59Z", "2026-01-01T00:00:01Z");
  }

  @Test
  void convertsLocalTimestampsWithTheConfiguredZone() {
    ParseSettings berlin = new ParseSettings("test", ZoneId.of("Europe/Berlin"), 2025);
    RecordingSink sink =
        parse(
            berlin,
            "[2025-03-01 10:00:00 TP0]" + DECODE,
            "[2025-07-01 10:00:00.250 TP0]" + DECODE,
            "[2025-03-30 02:30:00 TP0]" + DECODE,
            "[2025-10-26 02:30:00 TP0]" + DECODE);

    // winter +01:00, summer +02:00; in the spring gap the local time moves forward by the gap,
    // in the autumn overlap the earlier offset counts (ZonedDateTime.ofLocal)
    assertThat(sink.events)
        .extracting(event -> String.valueOf(event.ts()))
        .containsExactly(
            "2025-03-01T09:00:00Z",
            "2025-07-01T08:00:00.250Z",
            "2025-03-30T01:30:00Z",
            "2025-10-26T00:30:00Z");
  }

  @Test
  void joinsV041RequestLinesSplitByRawNewlinesInThePrompt() {
    RecordingSink sink =
        parse(
            "[2024-12-22 10:00:00] Receive: obj=GenerateReqInput(text=\"SECRET line one",
            "SECRET \"quoted\" {brace} ) line two",
            "SECRET end\", input_ids=None, sampling_params={max_new_tokens: 8}, rid=\"ml1\","
                + " return_logprob=False)",
            "[2024-12-22 10:00:02] Finish: obj=GenerateReqInput(text=\"SECRET a",
            "SECRET b\", rid=\"ml1\"), out={text: \"SECRET out",
            "SECRET more\", meta_info: {prompt_tokens: 9, completion_tokens: 8, cached_tokens: 0,"
                + " finish_reason: {type: \"length\", length: 8}, id: \"ml1\", e2e_latency: 2.0}}",
            "[2024-12-22 10:00:03 TP0]" + DECODE);

    assertThat(sink.reasons()).isEmpty();
    assertThat(descriptions(sink.events))
        .containsExactly(
            "request_arrived ts=2024-12-22T10:00:00.000Z request_id=ml1 request_key=ml1"
                + " max_tokens=8",
            "request_finished ts=2024-12-22T10:00:02.000Z request_id=ml1 request_key=ml1"
                + " output_tokens=8 finish_reason=length",
            "request_timing ts=2024-12-22T10:00:02.000Z request_id=ml1 request_key=ml1"
                + " e2e_ms=2000.0 prompt_tokens=9 output_tokens=8 cached_tokens=0"
                + " finish_reason=length source_kind=meta_info",
            "batch_step ts=2024-12-22T10:00:03.000Z rank=TP0 phase=decode batch_size=8"
                + " queued=0 token_usage=0.02 throughput_tps=400.0 step_ms_derived=false");
    assertThat(sink.ignored).containsOnly(NoiseRules.REQUEST_CONTINUATION).hasSize(4);
    assertThat(sink.reportedLines).containsExactlyElementsOf(lines(1, 7));
  }

  @Test
  void aTruncatedRequestLineIsRejectedAtFinishWithoutItsText() {
    RecordingSink sink =
        parse("[2025-03-01 10:00:00] Receive: obj=GenerateReqInput(text='SECRET cut off");

    assertThat(sink.reasons()).containsExactly("receive line: no rid");
    assertThat(sink.rejections.get(0).excerpt()).doesNotContain("SECRET");
  }

  @Test
  void producesNoEventsFromOtherEnginesLines() {
    RecordingSink sink =
        parse(
            "INFO 04-01 10:00:00 [loggers.py:116] Engine 000: Avg prompt throughput: 100.0"
                + " tokens/s, Avg generation throughput: 12.3 tokens/s, Running: 1 reqs, Waiting: 0"
                + " reqs, GPU KV cache usage: 0.1%, Prefix cache hit rate: 0.0%",
            "(APIServer pid=1234) INFO 10-13 10:00:00 [logger.py:40] Received request"
                + " chatcmpl-abc: params: SamplingParams(n=1, max_tokens=16), lora_request: None.",
            "(APIServer pid=1234) INFO 10-13 10:00:00 [async_llm.py:300] Added request"
                + " chatcmpl-abc-0011beef.",
            "INFO 01-05 10:00:00 async_llm_engine.py:120] Finished request cmpl-abc-0.",
            "INFO 01-05 10:00:00 metrics.py:341] Avg prompt throughput: 0.0 tokens/s, Avg"
                + " generation throughput: 5.0 tokens/s, Running: 1 reqs, Swapped: 0 reqs, Pending:"
                + " 0 reqs, GPU KV cache usage: 0.4%, CPU KV cache usage: 0.0%.",
            "DEBUG 06-01 10:00:00 [core.py:1] Iteration(12): 2 context requests, 512 context"
                + " tokens, 8 generation requests, 8 generation tokens, iteration elapsed time:"
                + " 12.34 ms",
            "[TensorRT-LLM][INFO] MPI size: 4, rank: 0",
            "[TensorRT-LLM][WARNING][3] gpu_device_ids is not specified",
            "[04/28/2025-09:56:44] [TRT-LLM] [I] iter = 198, global_rank = 0, rank = 0,"
                + " host_step_time = 21.5ms, num_scheduled_requests: 8",
            "[TRT-LLM] [I] [batchmgr][RANK 0] Number of tokens per block: 32.",
            "{\"iter\": 3, \"iterLatencyMS\": 12.5, \"numActiveRequests\": 4}",
            "INFO:     127.0.0.1:5000 - \"POST /v1/completions HTTP/1.1\" 200 OK");

    assertThat(sink.events).isEmpty();
    assertThat(sink.reportedLines).containsExactlyElementsOf(lines(1, 12));
  }

  @Test
  void formatDetectionPicksSglangForAnSglangHead() {
    List<String> head =
        List.of(
            "[2025-03-01 10:00:00] server_args=ServerArgs(model_path='m')",
            "[2025-03-01 10:00:05 TP0] Prefill batch. #new-seq: 1, #new-token: 7, #cached-token:"
                + " 0, token usage: 0.00, #running-req: 0, #queue-req: 0, ",
            "[2025-03-01 10:00:06 TP0]" + DECODE,
            "[2025-03-01 10:00:06] INFO:     127.0.0.1:5000 - \"POST /generate HTTP/1.1\" 200 OK");

    Parsers.Detection detection = Parsers.detect(head, ParseSettings.of("test", 2025));

    assertThat(detection.engine()).contains(Engine.SGLANG);
  }

  private static List<Double> stepTimes(RecordingSink sink) {
    List<Double> steps = new ArrayList<>();
    for (EngineEvent event : sink.events) {
      if (event instanceof BatchStep) {
        steps.add(((BatchStep) event).stepMs());
      }
    }
    return steps;
  }

  private static List<Boolean> derivedFlags(RecordingSink sink) {
    List<Boolean> flags = new ArrayList<>();
    for (EngineEvent event : sink.events) {
      if (event instanceof BatchStep) {
        flags.add(((BatchStep) event).stepMsDerived());
      }
    }
    return flags;
  }

  private static List<Long> lines(long first, long last) {
    return LongStream.rangeClosed(first, last).boxed().toList();
  }
}
