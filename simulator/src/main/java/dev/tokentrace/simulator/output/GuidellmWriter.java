package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.Ids;
import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import java.io.Closeable;

/**
 * GuideLLM {@code benchmarks.json} (docs/formats/clients.md#guidellm): one benchmark per
 * concurrency level, each with {@code requests.successful / incomplete / errored} lists of
 * GenerativeRequestStats. GuideLLM sends no request ID: {@code request_id} is its own UUID and
 * {@code response_id} the server's response {@code id}, the join key. Timings are epoch seconds;
 * request bodies are not kept (as with a metrics sample size). Successful requests stream into the
 * file in completion order; errored ones (few) are held until their level ends.
 */
final class GuidellmWriter implements SimObserver, Closeable {
  private final TextFile out;
  private final OutputSettings output;
  private final WallClock clock;
  private final StringBuilder errored = new StringBuilder();
  private int benchmarks;
  private int successful;
  private int failed;

  GuidellmWriter(TextFile out, OutputSettings output) {
    this.out = out;
    this.output = output;
    this.clock = new WallClock(output.start(), output.zone());
    out.write("{\"benchmarks\":[");
  }

  @Override
  public void phaseStarted(int phase, int concurrency, long nowUs) {
    endBenchmark();
    StringBuilder json = out.begin().append(benchmarks++ == 0 ? "" : ",");
    json.append("{\"type_\":\"generative_benchmark\",\"run_index\":").append(phase);
    json.append(",\"scheduler\":{\"strategy\":");
    if (concurrency > 0) {
      json.append("{\"type_\":\"concurrent\",\"streams\":").append(concurrency).append('}');
    } else {
      json.append("{\"type_\":\"async\"}");
    }
    json.append("},\"requests\":{\"successful\":[");
    out.write(json);
    successful = 0;
    failed = 0;
    errored.setLength(0);
  }

  private void endBenchmark() {
    if (benchmarks == 0) {
      return;
    }
    out.write("],\"incomplete\":[],\"errored\":[");
    out.write(errored);
    out.write("]}}");
  }

  @Override
  public void clientDone(RequestView request) {
    if (!request.finalAttempt()) {
      return;
    }
    StringBuilder json;
    if (request.timedOut()) {
      json = errored.append(failed++ == 0 ? "" : ",");
    } else {
      json = out.begin().append(successful++ == 0 ? "" : ",");
    }
    item(json, request);
    if (!request.timedOut()) {
      out.write(json);
    }
  }

  private void item(StringBuilder json, RequestView request) {
    long nonce = request.nonce();
    String requestId = Ids.uuid(Ids.mix(nonce ^ 0x9d1L), Ids.mix(nonce ^ 0x9d2L));
    boolean ok = !request.timedOut();
    json.append("{\"type_\":\"generative_request_stats\",\"request_id\":\"").append(requestId);
    json.append("\",\"response_id\":");
    if (ok) {
      json.append('"')
          .append(ServerIds.clientSide(request, output.format(), output.api()))
          .append('"');
    } else {
      json.append("null");
    }
    json.append(",\"request_type\":\"chat_completions\",\"request_args\":null,\"output\":null");
    json.append(",\"info\":{\"request_id\":\"").append(requestId).append("\",\"status\":\"");
    json.append(ok ? "completed" : "errored").append("\",\"timings\":{");
    epoch(json, "queued", request.issuedUs()).append(',');
    epoch(json, "dequeued", request.sentUs()).append(',');
    epoch(json, "request_start", request.sentUs()).append(',');
    if (ok) {
      epoch(json, "first_token_iteration", request.clientFirstTokenUs()).append(',');
      epoch(json, "last_token_iteration", request.clientEndUs()).append(',');
    }
    epoch(json, "request_end", request.clientEndUs()).append("}}");
    json.append(",\"input_metrics\":{\"text_tokens\":").append(request.promptTokens());
    json.append(",\"cached_tokens\":").append(request.cachedTokens()).append('}');
    if (ok) {
      computed(json, request);
    }
    json.append('}');
  }

  private void computed(StringBuilder json, RequestView request) {
    int tokens = request.generatedTokens();
    long latencyUs = request.clientEndUs() - request.sentUs();
    long ttftUs = request.clientFirstTokenUs() - request.sentUs();
    json.append(",\"output_metrics\":{\"text_tokens\":").append(tokens).append('}');
    epoch(json.append(','), "request_start_time", request.sentUs());
    epoch(json.append(','), "request_end_time", request.clientEndUs());
    Decimals.seconds(json.append(",\"request_latency\":"), latencyUs);
    json.append(",\"prompt_tokens\":").append(request.promptTokens());
    json.append(",\"output_tokens\":").append(tokens);
    Decimals.shortMillis(json.append(",\"time_to_first_token_ms\":"), ttftUs);
    Decimals.sixDecimals(
        json.append(",\"time_per_output_token_ms\":"), latencyUs / 1000.0 / tokens);
    json.append(",\"inter_token_latency_ms\":");
    if (tokens > 1) {
      Decimals.sixDecimals(json, (latencyUs - ttftUs) / 1000.0 / (tokens - 1));
    } else {
      json.append("null");
    }
    double seconds = latencyUs / 1e6;
    Decimals.sixDecimals(
        json.append(",\"tokens_per_second\":"), (request.promptTokens() + tokens) / seconds);
    Decimals.sixDecimals(json.append(",\"output_tokens_per_second\":"), tokens / seconds);
  }

  private StringBuilder epoch(StringBuilder json, String key, long simUs) {
    json.append('"').append(key).append("\":");
    return Decimals.seconds(json, clock.epochUs(simUs));
  }

  @Override
  public void finished(ServerView server) {
    endBenchmark();
    out.write("]}\n");
    benchmarks = 0;
  }

  @Override
  public void close() {
    out.close();
  }
}
