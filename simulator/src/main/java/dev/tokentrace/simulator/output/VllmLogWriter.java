package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.SimulationSettings;
import dev.tokentrace.simulator.StepView;
import java.io.Closeable;

/**
 * vLLM's {@code server.log} (stdout of {@code vllm serve}) in one format generation: startup facts,
 * request lines ({@code --enable-log-requests}), uvicorn access lines, the periodic stats line, V0
 * preemption warnings and V1 {@code Iteration(i)} lines (docs/formats/vllm.md). Timestamps are
 * local time at 1-s resolution without a year, as vLLM prints them.
 */
final class VllmLogWriter implements SimObserver, Closeable {
  /** V0 logs when 5 s passed since its last line, checked on every step and every 10 s. */
  private static final long V0_INTERVAL_US = 5_000_000;

  /** V1 logs from the API server every {@code VLLM_LOG_STATS_INTERVAL} (10 s). */
  private static final long V1_INTERVAL_US = 10_000_000;

  /** The API server's 10-s timer started this long before model time 0 (server start-up). */
  private static final long TIMER_PHASE_US = 3_417_000;

  private final TextFile out;
  private final EngineFormat format;
  private final OutputSettings output;
  private final VllmLines lines;
  private final long apiPid;
  private final long enginePid;
  private final boolean v0;
  private long nextTickUs = V1_INTERVAL_US - TIMER_PHASE_US;
  private long lastLogUs;
  private long lastPrompt;
  private long lastGeneration;
  private long lastPreemptions;
  private boolean previousIdle;
  private long loggedPreemptions;

  VllmLogWriter(TextFile out, OutputSettings output, SimulationSettings settings) {
    this.out = out;
    this.output = output;
    this.format = output.format();
    this.v0 = format == EngineFormat.VLLM_0_7;
    this.lines = new VllmLines(format, output);
    lines.prefixCaching(settings.server().prefixCaching());
    this.apiPid = Pids.api(settings.seed());
    this.enginePid = apiPid + 187;
  }

  /**
   * The version line, the launch arguments (V0: the whole {@code Namespace}; V1: the non-default
   * ones) and the engine config dump (docs/formats/vllm.md#startup-configuration-lines).
   */
  private void configuration(long at, ServerStartup startup) {
    String release = ServerStartup.release(format);
    header(at, "INFO", Proc.API, "api_server.py", v0 ? 838 : 1885)
        .append("vLLM API server version ")
        .append(release);
    out.end();
    int tp = output.tpSize();
    if (v0) {
      header(at, "INFO", Proc.API, "api_server.py", 839)
          .append("args: Namespace(host=None, port=8000, api_key=None, model='")
          .append(ServerStartup.MODEL)
          .append("', dtype='auto', max_model_len=")
          .append(startup.maxModelLen())
          .append(", tensor_parallel_size=")
          .append(tp)
          .append(", max_num_seqs=")
          .append(startup.maxBatch())
          .append(", enable_prefix_caching=")
          .append(startup.prefixCaching() ? "True" : "False")
          .append(", disable_log_requests=False)");
    } else {
      header(at, "INFO", Proc.API, "utils.py", 326)
          .append("non-default args: {'model': '")
          .append(ServerStartup.MODEL)
          .append("', 'max_model_len': ")
          .append(startup.maxModelLen())
          .append(tp > 1 ? ", 'tensor_parallel_size': " + tp : "")
          .append(", 'max_num_seqs': ")
          .append(startup.maxBatch())
          .append(", 'enable_log_requests': True}");
    }
    out.end();
    header(at, "INFO", v0 ? Proc.API : Proc.ENGINE, v0 ? "llm_engine.py" : "core.py", v0 ? 234 : 74)
        .append(v0 ? "Initializing an LLM engine (v" : "Initializing a V1 LLM engine (v")
        .append(release)
        .append(") with config: model='")
        .append(ServerStartup.MODEL)
        .append("', speculative_config=None, tokenizer='")
        .append(ServerStartup.MODEL)
        .append("', dtype=torch.bfloat16, max_seq_len=")
        .append(startup.maxModelLen())
        .append(", tensor_parallel_size=")
        .append(tp)
        .append(", pipeline_parallel_size=1, data_parallel_size=1, quantization=None,")
        .append(" enforce_eager=False, kv_cache_dtype=auto, seed=0, served_model_name=")
        .append(ServerStartup.MODEL)
        .append(", enable_prefix_caching=")
        .append(startup.prefixCaching() ? "True" : "False")
        .append(", chunked_prefill_enabled=")
        .append(startup.chunkedPrefill() ? "True" : "False");
    out.end();
  }

  /** Start-up lines, stamped before model time 0. */
  void startup(ServerStartup startup) {
    long at = -startup.leadUs();
    if (output.accessLog()) {
      uvicorn("Started server process [" + apiPid + "]");
    }
    StringBuilder line;
    configuration(at, startup);
    if (v0) {
      line = header(at, "INFO", Proc.API, "executor_base.py", 110);
      line.append("# GPU blocks: ").append(startup.kvBlocks()).append(", # CPU blocks: 2048");
      out.end();
    } else {
      line = header(at, "INFO", Proc.ENGINE, "kv_cache_utils.py", 1087);
      line.append("GPU KV cache size: ").append(grouped(startup.kvTokens())).append(" tokens");
      out.end();
      line = header(at, "INFO", Proc.ENGINE, "kv_cache_utils.py", 1091);
      line.append("Maximum concurrency for ").append(grouped(startup.maxModelLen()));
      line.append(" tokens per request: ");
      Decimals.fixed(line, (double) startup.kvTokens() / startup.maxModelLen(), 2).append('x');
      out.end();
    }
    if (startup.chunkedPrefill()) {
      line = header(at, "INFO", Proc.API, v0 ? "config.py" : "scheduler.py", v0 ? 1457 : 205);
      line.append("Chunked prefill is enabled with max_num_batched_tokens=");
      line.append(startup.maxBatchedTokens()).append('.');
      out.end();
    }
    if (output.accessLog()) {
      uvicorn("Waiting for application startup.");
      uvicorn("Application startup complete.");
      uvicorn("Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)");
    }
  }

  private static String grouped(long value) {
    return String.format(java.util.Locale.ROOT, "%,d", value);
  }

  @Override
  public void advance(long nowUs, ServerView server) {
    while (nextTickUs < nowUs) {
      if (v0) {
        maybeLogV0(nextTickUs, server);
      } else {
        logStats(nextTickUs, server);
      }
      nextTickUs += V1_INTERVAL_US;
    }
  }

  @Override
  public void serverArrival(RequestView request, ServerView server) {
    long at = request.serverArrivalUs();
    if (output.requestLogging()) {
      StringBuilder line =
          header(
              at,
              "INFO",
              Proc.API,
              "logger.py",
              v0 ? 37 : format == EngineFormat.VLLM_0_11 ? 43 : 49);
      lines.received(line, request);
      out.end();
      line = header(at, "INFO", Proc.API, v0 ? "engine.py" : "async_llm.py", v0 ? 275 : 336);
      line.append("Added request ").append(ServerIds.vllmInternal(request, format, output.api()));
      line.append('.');
      out.end();
    }
    if (output.accessLog()) {
      // uvicorn logs at http.response.start, i.e. when a streaming response begins
      // (docs/formats/vllm.md#uvicorn-lines)
      StringBuilder line = prefix(Proc.API);
      line.append("INFO:     127.0.0.1:").append(32768 + Math.floorMod(request.nonce(), 28000));
      line.append(" - \"POST ").append(output.api().path()).append(" HTTP/1.1\" 200 OK");
      out.end();
    }
  }

  @Override
  public void preempted(RequestView request, ServerView server) {
    if (!v0) {
      return; // V1 has no per-preemption line (docs/formats/vllm.md#scheduler-lines)
    }
    // printed only when the cumulative count before this preemption is a multiple of 50
    // (docs/formats/vllm.md#scheduler-lines)
    if (loggedPreemptions++ % 50 != 0) {
      return;
    }
    StringBuilder line = header(server.nowUs(), "WARNING", Proc.API, "scheduler.py", 1560);
    line.append("Sequence group ").append(ServerIds.vllmExternal(request, format, output.api()));
    line.append(" is preempted by PreemptionMode.RECOMPUTE mode because there is not enough KV");
    line.append(" cache space. This can affect the end-to-end performance. Increase");
    line.append(" gpu_memory_utilization or tensor_parallel_size to provide more KV cache memory.");
    line.append(" total_num_cumulative_preemption=").append(loggedPreemptions);
    out.end();
  }

  @Override
  public void stepFinished(StepView step, ServerView server) {
    if (v0) {
      maybeLogV0(step.endUs(), server);
    } else if (output.iterationLog() && format == EngineFormat.VLLM_0_16) {
      StringBuilder line = header(step.endUs(), "INFO", Proc.ENGINE, "core.py", 421);
      lines.iteration(line, step);
      out.end();
    }
  }

  @Override
  public void serverAborted(RequestView request, ServerView server) {
    if (!output.requestLogging()) {
      return;
    }
    StringBuilder line =
        header(server.nowUs(), "INFO", Proc.API, v0 ? "engine.py" : "async_llm.py", v0 ? 301 : 461);
    // V0 "Aborted request %s."; V1 since 2025-08-15 "Aborted request(s) %s."
    // (docs/formats/vllm.md#request-lines)
    line.append(v0 ? "Aborted request " : "Aborted request(s) ");
    line.append(ServerIds.vllmInternal(request, format, output.api())).append('.');
    out.end();
  }

  @Override
  public void finished(ServerView server) {
    long endUs = server.nowUs();
    advance(endUs + V1_INTERVAL_US * 2 + 1, server);
  }

  private void maybeLogV0(long atUs, ServerView server) {
    if (atUs - lastLogUs >= V0_INTERVAL_US) {
      logStats(atUs, server);
    }
  }

  private void logStats(long atUs, ServerView server) {
    long elapsedUs = atUs - lastLogUs;
    long prompt = server.promptTokensComputed() - lastPrompt;
    long generation = server.generationTokens() - lastGeneration;
    long preemptions = server.preemptions() - lastPreemptions;
    boolean idle = prompt == 0 && generation == 0;
    lastLogUs = atUs;
    lastPrompt = server.promptTokensComputed();
    lastGeneration = server.generationTokens();
    lastPreemptions = server.preemptions();
    boolean suppress =
        idle && previousIdle; // logged at DEBUG instead (docs/formats/vllm.md#stats-line)
    previousIdle = idle;
    if (suppress) {
      return;
    }
    StringBuilder line =
        header(
            atUs,
            "INFO",
            Proc.API,
            v0 ? "metrics.py" : "loggers.py",
            v0 ? 455 : format == EngineFormat.VLLM_0_11 ? 127 : 259);
    double seconds = elapsedUs / 1e6;
    lines.stats(line, prompt / seconds, generation / seconds, preemptions, server);
    out.end();
    if (v0 && lines.prefixCaching()) {
      line = header(atUs, "INFO", Proc.API, "metrics.py", 471);
      lines.v0PrefixCache(line, server);
      out.end();
    }
  }

  private enum Proc {
    API,
    ENGINE
  }

  private StringBuilder prefix(Proc proc) {
    StringBuilder line = out.begin();
    if (v0) {
      return line; // V0's API server has no process prefix (docs/formats/vllm.md#process-prefix)
    }
    String name = proc == Proc.API ? "APIServer" : "EngineCore_DP0";
    long pid = proc == Proc.API ? apiPid : enginePid;
    if (format == EngineFormat.VLLM_0_11) {
      // 2025-07-29 .. 2025-11-19: always \033[1;36m, even into files
      // (docs/formats/vllm.md#process-prefix)
      return line.append("\u001b[1;36m(")
          .append(name)
          .append(" pid=")
          .append(pid)
          .append(")\u001b[0;0m ");
    }
    return line.append('(').append(name).append(" pid=").append(pid).append(") ");
  }

  private StringBuilder header(long atUs, String level, Proc proc, String file, int lineNo) {
    StringBuilder line = prefix(proc).append(level).append(' ');
    lines.clock().monthDayTime(line, atUs);
    line.append(' ');
    if (!v0) {
      line.append('['); // since c0e3ecd6d, 2025-02-24 (docs/formats/vllm.md#record-header)
    }
    return line.append(file).append(':').append(lineNo).append("] ");
  }

  private void uvicorn(String message) {
    prefix(Proc.API).append("INFO:     ").append(message);
    out.end();
  }

  @Override
  public void close() {
    out.close();
  }
}
