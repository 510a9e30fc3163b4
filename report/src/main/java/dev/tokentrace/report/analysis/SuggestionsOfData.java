package dev.tokentrace.report.analysis;

import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.Suggestion;
import dev.tokentrace.report.model.Text;
import dev.tokentrace.store.rows.DataQuality;
import java.util.List;

/**
 * Suggestions about the measurement itself: KV cache pressure the server logged, warm-up counted in
 * the numbers, client retries, heartbeats counted as tokens, and missing per-request timings.
 */
final class SuggestionsOfData {
  private SuggestionsOfData() {}

  static void add(ReportData data, List<RunFinding> runs, List<Suggestion> out) {
    List<RunFinding> pressure =
        Suggestions.select(runs, run -> run.preemptions() + run.errors() > 0);
    if (!pressure.isEmpty()) {
      long preemptions = pressure.stream().mapToLong(RunFinding::preemptions).sum();
      long errors = pressure.stream().mapToLong(RunFinding::errors).sum();
      out.add(
          new Suggestion(
              "kv cache",
              Text.format(
                  "KV cache pressure (%s): the server logged %s and %s. Lower the maximum batch or"
                      + " context length, give the KV cache more memory (vLLM"
                      + " --gpu-memory-utilization, SGLang --mem-fraction-static), or scale out;"
                      + " a preempted request is recomputed (%s).",
                  Suggestions.names(pressure),
                  Numbers.count(preemptions, "preemption"),
                  Numbers.count(errors, "error"),
                  Inline.whole("tokentrace sql notices_near_slow")),
              Suggestions.ids(pressure)));
    }
    List<RunFinding> warm =
        Suggestions.select(
            runs, run -> run.warmup() != null && run.warmup().phase().equals("first_n"));
    if (!warm.isEmpty()) {
      out.add(
          new Suggestion(
              "warm-up",
              Text.format(
                  "Warm-up (%s): the first requests are %s slower than the rest and counted. Send"
                      + " 3-5 warm-up requests first and flag them (the client file's warmup"
                      + " column), or rerun with --warmup-first 5.",
                  Suggestions.names(warm),
                  Numbers.change(warm.get(0).warmup().ftlP50VsSteadyPct())),
              Suggestions.ids(warm)));
    }
    measurement(data.quality(), out);
  }

  private static void measurement(DataQuality q, List<Suggestion> out) {
    if (q.serverRetriedKeys() > 0 || q.duplicateClientKeys() > 0) {
      out.add(
          new Suggestion(
              "retries",
              Text.format(
                  "Client retries: %s reached the server more than once; retries add load and"
                      + " inflate later latencies (a false avalanche). Turn off retries on"
                      + " read timeouts in the load generator (%s).",
                  Numbers.count(q.serverRetriedKeys() + q.duplicateClientKeys(), "request key"),
                  Inline.whole("tokentrace sql retried_requests")),
              List.of()));
    }
    if (q.tokenMismatchRows() > 0) {
      out.add(
          new Suggestion(
              "client counting",
              Text.format(
                  "Client counting: client and server token counts differ for %s. Filter SSE"
                      + " heartbeats and empty chunks, and take the first content chunk as the first"
                      + " token.",
                  Numbers.count(q.tokenMismatchRows(), "request")),
              List.of()));
    }
    long unattributable = q.arrivalOnlyRows() + q.incompleteRows() + q.clientOnlyRows();
    if (unattributable > 0) {
      out.add(
          new Suggestion(
              "instrumentation",
              Text.format(
                  "Per-request timings: %s could not be attributed for want of a server record"
                      + " with phases or a shared ID. Export them (vLLM --otlp-traces-endpoint,"
                      + " SGLang --export-metrics-to-file, TensorRT-LLM /perf_metrics) and send the"
                      + " client's ID (X-Request-Id), or pair by time with --match heuristic.",
                  Numbers.count(unattributable, "client request")),
              List.of()));
    }
  }
}
