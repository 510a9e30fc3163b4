package dev.tokentrace.parse.vllm;

import static dev.tokentrace.parse.vllm.VllmLines.API;
import static dev.tokentrace.parse.vllm.VllmLines.V1_STATS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestFinished;
import dev.tokentrace.event.ServerNotice;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Multi-line records (docs/formats/vllm.md#multi-line-records): continuation lines, tracebacks,
 * grouped notices.
 */
final class VllmRecordGroupingTest {
  private static final String ERROR_HEADER =
      "(EngineCore_DP0 pid=3812) ERROR 05-19 10:13:11 [core.py:612] ";
  private static final String RAW = "(EngineCore_DP0 pid=3812) ";

  /** A logger.exception record: NewLineFormatter repeats the header and ends lines with \r. */
  private static List<String> fatalErrorRecord(String exceptionLine) {
    List<String> lines = new ArrayList<>();
    lines.add(ERROR_HEADER + "EngineCore encountered a fatal error.");
    lines.add(ERROR_HEADER + "Traceback (most recent call last):");
    for (int frame = 0; frame < 8; frame++) {
      lines.add(
          ERROR_HEADER
              + "  File \"/opt/vllm/vllm/v1/engine/core.py\", line "
              + (600 + frame)
              + ", in step_"
              + frame);
      lines.add(ERROR_HEADER + "    outputs = self.model_executor.execute_model(" + frame + ")");
    }
    lines.add(ERROR_HEADER + "             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^");
    lines.add(ERROR_HEADER + exceptionLine);
    List<String> withCr = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      withCr.add(i < lines.size() - 1 ? lines.get(i) + "\r" : lines.get(i));
    }
    return withCr;
  }

  @Test
  void foldsATwentyLineTracebackWithCarriageReturnsIntoOneOomNotice() {
    List<String> lines =
        new ArrayList<>(
            fatalErrorRecord(
                "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has"
                    + " a total capacity of 79.10 GiB of which 1.21 GiB is free."));
    lines.add(API + V1_STATS);
    assertThat(lines).hasSize(21);

    RecordingSink sink = RecordingSink.parse(lines.toArray(String[]::new));

    assertThat(sink.events).hasSize(2);
    ServerNotice notice = (ServerNotice) sink.events.get(0);
    assertThat(notice.kind()).isEqualTo(ServerNotice.Kind.OOM);
    assertThat(notice.level()).isEqualTo("ERROR");
    assertThat(notice.source().line()).isEqualTo(1);
    assertThat(notice.ts()).isEqualTo(Instant.parse("2026-05-19T10:13:11Z"));
    assertThat(notice.message())
        .isEqualTo(
            "EngineCore encountered a fatal error.: torch.OutOfMemoryError: CUDA out of memory."
                + " Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which"
                + " 1.21 GiB is free.");
    assertThat(sink.events.get(1)).isInstanceOf(EngineStats.class);
    assertThat(sink.rules()).hasSize(19).containsOnly("vllm: traceback");
    assertThat(sink.rejections).isEmpty();
    sink.assertEveryLineReported(21);
  }

  @Test
  void foldsTheSameRecordWhenTheCarriageReturnsWereStripped() {
    List<String> lines = new ArrayList<>();
    for (String line : fatalErrorRecord("RuntimeError: shape mismatch")) {
      lines.add(line.replace("\r", ""));
    }

    RecordingSink sink = RecordingSink.parse(lines.toArray(String[]::new));

    assertThat(sink.events).hasSize(1);
    ServerNotice notice = (ServerNotice) sink.events.get(0);
    assertThat(notice.kind()).isEqualTo(ServerNotice.Kind.ERROR);
    assertThat(notice.message())
        .isEqualTo("EngineCore encountered a fatal error.: RuntimeError: shape mismatch");
    sink.assertEveryLineReported(lines.size());
  }

  @Test
  void foldsARawTracebackWithProcessPrefixIntoOneNoticeTimedByTheLastRecord() {
    String[] lines = {
      API + V1_STATS,
      RAW + "Process EngineCore_DP0:",
      RAW + "Traceback (most recent call last):",
      RAW + "  File \"/usr/lib/python3.12/multiprocessing/process.py\", line 314, in _bootstrap",
      RAW + "    self.run()",
      RAW + "  File \"/usr/lib/python3.12/multiprocessing/process.py\", line 108, in run",
      RAW + "    self._target(*self._args, **self._kwargs)",
      RAW + "  File \"/opt/vllm/vllm/v1/engine/core.py\", line 701, in run_engine_core",
      RAW + "    raise e",
      RAW + "RuntimeError: CUDA error: an illegal memory access was encountered",
      RAW + "CUDA kernel errors might be asynchronously reported at some other API call.",
      RAW + "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
      RAW + "",
      "(APIServer pid=3646) ERROR 05-19 10:13:12 [core_client.py:564] Engine core proc"
          + " EngineCore_DP0 died unexpectedly, shutting down client.",
    };

    RecordingSink sink = RecordingSink.parse(lines);

    assertThat(sink.events).hasSize(3);
    ServerNotice raw = (ServerNotice) sink.events.get(1);
    assertThat(raw.source().line()).isEqualTo(2);
    assertThat(raw.ts()).isEqualTo(Instant.parse("2026-05-19T10:13:11Z"));
    assertThat(raw.kind()).isEqualTo(ServerNotice.Kind.ERROR);
    assertThat(raw.message())
        .isEqualTo(
            "Process EngineCore_DP0: RuntimeError: CUDA error: an illegal memory access was"
                + " encountered");
    ServerNotice died = (ServerNotice) sink.events.get(2);
    assertThat(died.message()).startsWith("Engine core proc EngineCore_DP0 died");
    assertThat(sink.rejections).isEmpty();
    sink.assertEveryLineReported(lines.length);
  }

  @Test
  void prefersTheOutOfMemoryExceptionOfAChainedTraceback() {
    String header = "ERROR 05-19 10:13:11 [async_llm.py:543] ";
    RecordingSink sink =
        RecordingSink.parse(
            header + "AsyncLLM output_handler failed.\r",
            header + "Traceback (most recent call last):\r",
            header + "  File \"/opt/vllm/vllm/v1/worker/gpu_model_runner.py\", line 9, in run\r",
            header + "torch.OutOfMemoryError: CUDA out of memory.\r",
            header + "\r",
            header + "The above exception was the direct cause of the following exception:\r",
            header + "\r",
            header + "Traceback (most recent call last):\r",
            header + "  File \"/opt/vllm/vllm/v1/engine/async_llm.py\", line 500, in handler\r",
            header + "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue.");

    assertThat(sink.events).hasSize(1);
    ServerNotice notice = (ServerNotice) sink.events.get(0);
    assertThat(notice.kind()).isEqualTo(ServerNotice.Kind.OOM);
    assertThat(notice.message())
        .isEqualTo("AsyncLLM output_handler failed.: torch.OutOfMemoryError: CUDA out of memory.");
    sink.assertEveryLineReported(10);
  }

  @Test
  void givesAnUvicornErrorItsRawTraceback() {
    RecordingSink sink =
        RecordingSink.parse(
            API + V1_STATS,
            "(APIServer pid=3646) ERROR:    Exception in ASGI application",
            "(APIServer pid=3646) Traceback (most recent call last):",
            "(APIServer pid=3646)   File \"/usr/lib/python3/site-packages/uvicorn/h11.py\", line"
                + " 403, in run_asgi",
            "(APIServer pid=3646)     result = await app(self.scope, self.receive, self.send)",
            "(APIServer pid=3646) ValueError: bad request body");

    assertThat(sink.events).hasSize(2);
    ServerNotice notice = (ServerNotice) sink.events.get(1);
    assertThat(notice.message())
        .isEqualTo("Exception in ASGI application: ValueError: bad request body");
    assertThat(notice.ts()).isEqualTo(Instant.parse("2026-05-19T10:13:11Z"));
    sink.assertEveryLineReported(6);
  }

  @Test
  void keepsTwoEnginesStatsLinesWithTheSameHeaderApart() {
    String second = V1_STATS.replace("Engine 000", "Engine 001");
    RecordingSink plain = RecordingSink.parse(API + V1_STATS, API + second);
    RecordingSink crlf = RecordingSink.parse(API + V1_STATS + "\r", API + second + "\r");

    for (RecordingSink sink : List.of(plain, crlf)) {
      assertThat(sink.events)
          .extracting(event -> ((EngineStats) event).rank())
          .containsExactly("Engine 000", "Engine 001");
    }
  }

  @Test
  void foldsAWarningWithContinuationLines() {
    String header = "WARNING 05-19 10:13:11 [config.py:1200] ";
    RecordingSink sink =
        RecordingSink.parse(
            header + "Possibly too large swap space.\r",
            header + "4.00 GiB out of the 7.50 GiB total CPU memory\r",
            header + "is allocated for the swap space.",
            API + V1_STATS);

    assertThat(sink.events).hasSize(2);
    ServerNotice notice = (ServerNotice) sink.events.get(0);
    assertThat(notice.kind()).isEqualTo(ServerNotice.Kind.WARNING);
    assertThat(notice.message()).isEqualTo("Possibly too large swap space.");
    assertThat(sink.rules())
        .containsExactly("vllm: record continuation", "vllm: record continuation");
  }

  @Test
  void ignoresTheContinuationLinesOfAnInfoTable() {
    String header = "(EngineCore_DP0 pid=3812) INFO 05-19 10:13:11 [cuda_graph.py:120] ";
    RecordingSink sink =
        RecordingSink.parse(
            header + "**CUDAGraph Config Settings:**\r",
            header + "\r",
            header + "- Mode: FULL_AND_PIECEWISE\r",
            header + "| Unpadded Tokens | Padded Tokens | Num Paddings | Runtime Mode | Count |\r",
            header + "| 250             | 256           | 6            | FULL         | 150   |");

    assertThat(sink.rules())
        .containsExactly(
            "vllm: cudagraph metrics",
            "vllm: record continuation",
            "vllm: record continuation",
            "vllm: record continuation",
            "vllm: record continuation");
    assertThat(sink.events).isEmpty();
  }

  @Test
  void startsANewRecordAfterALineWithoutCarriageReturnWhenTheSourceKeepsThem() {
    String header = "WARNING 05-19 10:13:11 [serving.py:88] ";
    RecordingSink sink =
        RecordingSink.parse(
            header + "first part\r",
            header + "second part",
            header + "another warning from the same place");

    assertThat(sink.events)
        .extracting(event -> ((ServerNotice) event).message())
        .containsExactly("first part", "another warning from the same place");
    sink.assertEveryLineReported(3);
  }

  @Test
  void keepsSameHeaderRecordsOfDifferentProcessesApart() {
    RecordingSink sink =
        RecordingSink.parse(
            "(Worker_TP0 pid=90) ERROR 05-19 10:13:11 [gpu_worker.py:200] Traceback (most recent"
                + " call last):",
            "(Worker_TP1 pid=91) ERROR 05-19 10:13:11 [gpu_worker.py:200] Traceback (most recent"
                + " call last):");

    assertThat(sink.events).hasSize(2);
    assertThat(sink.ignored).isEmpty();
  }

  @Test
  void emitsAPendingErrorAtFinish() {
    RecordingSink sink = RecordingSink.parse(ERROR_HEADER + "Worker failed.");

    assertThat(sink.events)
        .singleElement()
        .satisfies(
            event -> assertThat(((ServerNotice) event).message()).isEqualTo("Worker failed."));
  }

  @Test
  void ignoresPythonWarningsWithTheirSourceLine() {
    RecordingSink sink =
        RecordingSink.parse(
            "/usr/lib/python3/site-packages/torch/cuda/__init__.py:61: FutureWarning: The pynvml"
                + " package is deprecated.",
            "  import pynvml  # type: ignore[import]");

    assertThat(sink.rules()).containsExactly("python: warning", "python: warning");
  }

  @Test
  void rebuildsTheV0StatsOfTheLoggingErrorOfApril2024() {
    String[] lines = {
      "INFO 05-19 10:13:11 metrics.py:218] Started.",
      "--- Logging error ---",
      "Traceback (most recent call last):",
      "  File \"/usr/lib/python3.10/logging/__init__.py\", line 1100, in emit",
      "    msg = self.format(record)",
      "ValueError: unsupported format character ',' (0x2c) at index 188",
      "Call stack:",
      "  File \"/opt/vllm/vllm/engine/metrics.py\", line 229, in log",
      "    logger.info(",
      "Message: 'Avg prompt throughput: %.1f tokens/s, Avg generation throughput: %.1f tokens/s,"
          + " Running: %d reqs, Swapped: %d reqs, Pending: %d reqs, GPU KV cache usage: %.1f%,"
          + " CPU KV cache usage: %.1f%'",
      "Arguments: (210.33333333333334, 12.0, 3, 0, 2, 45.5, 0.0)",
      "--- Logging error ---",
      "Message: 'Avg prompt throughput: %.1f tokens/s, Avg generation throughput: %.1f tokens/s,"
          + " Running: %d reqs, Swapped: %d reqs, Pending: %d reqs, GPU KV cache usage: %.1f%,"
          + " CPU KV cache usage: %.1f%'",
      "Arguments: (1.0, 2.0, three)",
    };

    RecordingSink sink = RecordingSink.parse(lines);

    assertThat(sink.eventBodies())
        .containsExactly(
            RecordingSink.json(
                VllmLines.body(
                    "engine_stats",
                    "'prompt_tps':210.33333333333334,'gen_tps':12.0,'running':3,'waiting':2,"
                        + "'swapped':0,'kv_usage_pct':45.5")));
    assertThat(sink.events.get(0).source().line()).isEqualTo(11);
    assertThat(sink.reasons()).containsExactly("stats line: bad arguments");
    sink.assertEveryLineReported(lines.length);
  }

  @Test
  void takesThePromptTokenCountFromTheDebugDetailsLine() {
    RecordingSink sink =
        RecordingSink.parse(
            "(APIServer pid=3646) DEBUG 05-19 10:13:11 [logger.py:49] Request chatcmpl-c1 details:"
                + " prompt: 'hidden', prompt_token_ids: [5, 6, 7, 8], prompt_embeds shape: None.",
            "(APIServer pid=3646) INFO 05-19 10:13:11 [logger.py:59] Received request"
                + " chatcmpl-c1: params: SamplingParams(n=1, max_tokens=20), lora_request: None.");

    assertThat(sink.events)
        .singleElement()
        .satisfies(
            event -> {
              RequestArrived arrived = (RequestArrived) event;
              assertThat(arrived.promptTokens()).isEqualTo(4);
              assertThat(arrived.maxTokens()).isEqualTo(20);
            });
    assertThat(sink.rules()).containsExactly("vllm: request details");
  }

  @Test
  void takesTheFinishReasonOfAStreamFromItsLastDelta() {
    String header = "(APIServer pid=3646) INFO 05-19 10:13:11 [logger.py:80] ";
    RecordingSink sink =
        RecordingSink.parse(
            header
                + "Generated response chatcmpl-s1 (streaming delta): output: 'Hi', output_token_ids:"
                + " [1], finish_reason: None",
            header
                + "Generated response chatcmpl-s1 (streaming delta): output: '!', output_token_ids:"
                + " [2], finish_reason: length",
            header
                + "Generated response chatcmpl-s1 (streaming complete): output: 'Hi!',"
                + " output_token_ids: None, finish_reason: streaming_complete");

    assertThat(sink.events)
        .singleElement()
        .satisfies(
            event -> {
              RequestFinished finished = (RequestFinished) event;
              assertThat(finished.requestKey()).isEqualTo("s1");
              assertThat(finished.finishReason()).isEqualTo("length");
              assertThat(finished.outputTokens()).isNull();
            });
    assertThat(sink.events.toString()).doesNotContain("Hi!");
  }

  @Test
  void reportsEveryLineOfAMixedLogExactlyOnceOrMore() {
    List<String> lines = new ArrayList<>(fatalErrorRecord("KeyboardInterrupt"));
    lines.add("INFO:     10.0.0.1:5 - \"GET /health HTTP/1.1\" 200 OK");
    lines.add(API + V1_STATS);
    lines.add("garbage");
    Collections.addAll(lines, "(APIServer pid=3646) Traceback (most recent call last):", "  x", "");

    RecordingSink sink = RecordingSink.parse(lines.toArray(String[]::new));

    sink.assertEveryLineReported(lines.size());
    assertThat(sink.reasons()).containsExactly("unrecognized line");
  }
}
