package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.ServerSettings;
import dev.tokentrace.simulator.SimulationSettings;

/** Texts for SOURCE.md: the server launch a real deployment would have used, and file notes. */
final class Launches {
  private Launches() {}

  /** The launch command whose flags produce the simulated outputs. */
  static String command(SimulationSettings simulation, OutputSettings output) {
    ServerSettings server = simulation.server();
    StringBuilder cmd = new StringBuilder();
    switch (output.format().engine()) {
      case VLLM:
        cmd.append("vllm serve /models/Llama-3.1-8B-Instruct --max-num-seqs ")
            .append(server.maxBatch());
        cmd.append(" --max-num-batched-tokens ").append(server.maxBatchedTokens());
        cmd.append(" --max-model-len ").append(simulation.workload().maxModelLen());
        cmd.append(
            server.chunkedPrefill() ? " --enable-chunked-prefill" : " --no-enable-chunked-prefill");
        cmd.append(
            server.prefixCaching() ? " --enable-prefix-caching" : " --no-enable-prefix-caching");
        if (output.requestLogging()) {
          cmd.append(output.format() == EngineFormat.VLLM_0_7 ? "" : " --enable-log-requests");
          cmd.append(" --max-log-len ").append(output.maxLogLen());
        } else if (output.format() == EngineFormat.VLLM_0_7) {
          cmd.append(" --disable-log-requests");
        }
        if (output.iterationLog() && output.format() == EngineFormat.VLLM_0_16) {
          cmd.append(" --enable-logging-iteration-details");
        }
        if (output.otlp()) {
          cmd.append(" --otlp-traces-endpoint grpc://otel-collector:4317");
        }
        if (!output.accessLog()) {
          cmd.append(" --disable-uvicorn-access-log");
        }
        break;
      case SGLANG:
        cmd.append("python -m sglang.launch_server --model-path /models/Llama-3.1-8B-Instruct");
        cmd.append(" --tp-size ").append(output.tpSize());
        cmd.append(" --max-running-requests ").append(server.maxBatch());
        cmd.append(" --chunked-prefill-size ")
            .append(server.chunkedPrefill() ? server.maxBatchedTokens() : -1);
        cmd.append(server.prefixCaching() ? "" : " --disable-radix-cache");
        if (output.requestLogging()) {
          cmd.append(" --log-requests --log-requests-level ");
          cmd.append(output.format() == EngineFormat.SGLANG_0_4 ? "0" : "1");
        }
        if (output.format() == EngineFormat.SGLANG_0_5) {
          cmd.append(
              " --enable-metrics --export-metrics-to-file --export-metrics-to-file-dir metrics");
          if (output.logMillis()) {
            cmd.insert(0, "SGLANG_LOG_MS=1 ");
          }
        }
        break;
      case TRTLLM:
        cmd.append(
            "trtllm-serve /models/Llama-3.1-8B-Instruct --backend pytorch --max_batch_size ");
        cmd.append(server.maxBatch())
            .append(" --max_num_tokens ")
            .append(server.maxBatchedTokens());
        cmd.append(
            " --extra_llm_api_options extra.yaml  # extra.yaml: enable_iter_perf_stats: true,");
        cmd.append(" return_perf_metrics: true, perf_metrics_max_requests: 1000000,");
        cmd.append(" disable_overlap_scheduler: true");
        if (output.iterationLog()) {
          cmd.append(", print_iter_log: true");
        }
        break;
      default:
        throw new IllegalStateException("unhandled engine: " + output.format().engine());
    }
    return cmd.toString();
  }

  /** One line on a file of the scenario directory. */
  static String describe(String name, OutputSettings output) {
    if (name.equals("server.log")) {
      return "server log (stdout/stderr of the server process)";
    }
    if (name.equals("otlp.jsonl")) {
      return "OTLP trace export, one Collector file-exporter line per BatchSpanProcessor export";
    }
    if (name.startsWith("metrics/")) {
      return "SGLang per-request metrics export (`--export-metrics-to-file`), hourly files";
    }
    if (name.equals("iteration_stats.jsonl")) {
      return "TensorRT-LLM IterationStats, one JSON object per iteration (each `/metrics` scrape's array flattened)";
    }
    if (name.equals("perf_metrics.jsonl")) {
      return "TensorRT-LLM `GET /perf_metrics` scraped every 10 s: one drained JSON array per line"
          + " (steady-clock seconds)";
    }
    if (name.equals("client_timings.csv")) {
      return "the project's client CSV, one row per request (final attempt)";
    }
    if (name.equals("truth.csv")) {
      return "ground truth, one row per attempt";
    }
    String gpu = GpuTelemetryFiles.describe(name);
    if (gpu != null) {
      return gpu;
    }
    String scrapes = MetricsScrapeFile.describe(name);
    if (scrapes != null) {
      return scrapes;
    }
    return "client file in " + output.clientFormat().id() + " format";
  }

  static String conventions() {
    return "## Conventions\n\n"
        + "- `client_timings.csv`: `start_ts` is when the client issued the request (UTC, µs);"
        + " `ttft_ms` and `e2e_ms` count from it and include `client_queue_ms`. A retried"
        + " request has one row, its final attempt, timed from that attempt's start. Timed-out"
        + " requests have `status=timeout`. A client that counts SSE heartbeats reports the first"
        + " heartbeat's arrival as TTFT and adds heartbeats to `output_tokens`.\n"
        + "- `truth.csv`: one row per attempt (`final=false` for attempts that were retried)."
        + " `client_ttft = client_queue + network_ttft + queue + prefill` and"
        + " `client_e2e = client_queue + network + queue + prefill + decode` hold exactly"
        + " (docs/design.md#attribution); `ttft_ms`/`e2e_ms` are the true values, `reported_*` what the"
        + " client file says. `queue` = arrival at the server to first scheduled, `prefill` ="
        + " first scheduled to first token, `decode` = first to last token (vLLM V1"
        + " queued/prefill/decode, SGLang queue_time/prefill, TensorRT-LLM perf_metrics)."
        + " `dominant` is the largest of client_queue, network, queue, prefill, decode."
        + " `server_request_id` is the ID the engine's per-request source shows (empty if the"
        + " attempt never reached the server).\n";
  }
}
