package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import java.io.Closeable;

/**
 * GenAI-Perf / perf_analyzer {@code profile_export.json} (docs/formats/clients.md#genai-perf): one
 * experiment per concurrency level, each request with its epoch-ns start, every response chunk's
 * epoch-ns arrival, and the raw SSE text of each chunk, whose {@code "id"} is the only trace of the
 * server's request ID (GenAI-Perf sends none). Requests stream into the file in completion order.
 */
final class GenaiPerfWriter implements SimObserver, Closeable {
  private final TextFile out;
  private final OutputSettings output;
  private final WallClock clock;
  private int experiments;
  private int requests;
  private long phaseStartUs;
  private long created;

  GenaiPerfWriter(TextFile out, OutputSettings output) {
    this.out = out;
    this.output = output;
    this.clock = new WallClock(output.start(), output.zone());
    out.write("{\"experiments\":[");
  }

  @Override
  public void advance(long nowUs, ServerView server) {
    created = clock.epochUs(nowUs) / 1_000_000;
  }

  @Override
  public void phaseStarted(int phase, int concurrency, long nowUs) {
    endExperiment(nowUs);
    StringBuilder json = out.begin().append(experiments++ == 0 ? "" : ",");
    json.append("{\"experiment\":{\"mode\":\"concurrency\",\"value\":").append(concurrency);
    json.append("},\"requests\":[");
    out.write(json);
    requests = 0;
    phaseStartUs = nowUs;
  }

  private void endExperiment(long endUs) {
    if (experiments == 0) {
      return;
    }
    StringBuilder json = out.begin().append("],\"window_boundaries\":[");
    nanos(json, phaseStartUs).append(',');
    nanos(json, endUs).append("]}");
    out.write(json);
  }

  @Override
  public void clientDone(RequestView request) {
    if (!request.finalAttempt()) {
      return;
    }
    StringBuilder json = out.begin().append(requests++ == 0 ? "" : ",");
    json.append("{\"timestamp\":");
    nanos(json, request.sentUs()).append(",\"request_inputs\":{\"payload\":\"{\\\"messages\\\":");
    json.append("[{\\\"role\\\":\\\"user\\\",\\\"content\\\":\\\"simulated prompt of ");
    json.append(request.promptTokens())
        .append(" tokens\\\"}],\\\"model\\\":\\\"/models/Llama-3.1-8B-Instruct");
    json.append("\\\",\\\"stream\\\":true,\\\"max_tokens\\\":").append(request.outputTokens());
    json.append("}\"},\"response_timestamps\":[");
    long[] times = request.timedOut() ? new long[0] : request.clientTokenTimesUs();
    for (int i = 0; i < times.length; i++) {
      nanos(json.append(i == 0 ? "" : ","), times[i]);
    }
    if (times.length > 0) {
      nanos(json.append(','), request.clientEndUs());
    }
    json.append("],\"response_outputs\":[");
    String id = ServerIds.clientSide(request, output.format(), output.api());
    for (int i = 0; i < times.length; i++) {
      chunk(json.append(i == 0 ? "" : ","), id, i == times.length - 1);
    }
    if (times.length > 0) {
      json.append(",{\"response\":\"data: [DONE]\\n\\n\"}");
    }
    json.append("]}");
    out.write(json);
  }

  /** One SSE event as the client received it, JSON-escaped. */
  private void chunk(StringBuilder json, String id, boolean last) {
    json.append("{\"response\":\"data: {\\\"id\\\":\\\"").append(id);
    json.append("\\\",\\\"object\\\":\\\"chat.completion.chunk\\\",\\\"created\\\":")
        .append(created);
    json.append(
        ",\\\"model\\\":\\\"/models/Llama-3.1-8B-Instruct\\\",\\\"choices\\\":[{\\\"index\\\":0,");
    json.append("\\\"delta\\\":{\\\"content\\\":\\\" tok\\\"},\\\"finish_reason\\\":");
    json.append(last ? "\\\"length\\\"" : "null").append("}]}\\n\\n\"}");
  }

  private StringBuilder nanos(StringBuilder json, long simUs) {
    return json.append(clock.epochUs(simUs)).append("000");
  }

  @Override
  public void finished(ServerView server) {
    endExperiment(server.nowUs());
    out.write("],\"version\":\"0.0.16\",\"service_kind\":\"openai\",\"endpoint\":\"");
    out.write(output.api().path().substring(1));
    out.write("\"}\n");
    experiments = 0;
  }

  @Override
  public void close() {
    out.close();
  }
}
