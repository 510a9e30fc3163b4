package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.SimObserver;
import java.io.Closeable;

/**
 * {@code truth.csv}: one row per attempt the client made (retried attempts flagged {@code
 * final=false}), with the true latency components ({@link Components}) and what the client file
 * reported. Rows are in the order the client finished with them.
 */
final class TruthWriter implements SimObserver, Closeable {
  static final String HEADER =
      "request_id,attempt,final,server_request_id,phase,concurrency,warmup,start_ts,"
          + "prompt_tokens,cached_tokens,output_tokens,client_queue_ms,network_ttft_ms,network_ms,"
          + "queue_ms,prefill_ms,decode_ms,ttft_ms,e2e_ms,preemptions,status,dominant,"
          + "reported_ttft_ms,reported_output_tokens,heartbeats";

  private final TextFile out;
  private final WallClock utc;
  private final OutputSettings output;

  TruthWriter(TextFile out, OutputSettings output) {
    this.out = out;
    this.output = output;
    this.utc = new WallClock(output.start(), java.time.ZoneOffset.UTC);
    out.write(HEADER + "\n");
  }

  @Override
  public void clientDone(RequestView request) {
    StringBuilder line = out.begin();
    line.append(ServerIds.clientSide(request, output.format(), output.api())).append(',');
    line.append(request.attempt()).append(',').append(request.finalAttempt()).append(',');
    line.append(serverId(request)).append(',');
    line.append(request.phase()).append(',');
    if (request.concurrency() > 0) {
      line.append(request.concurrency());
    }
    line.append(',').append(request.warmup()).append(',');
    utc.isoMicros(line, request.issuedUs());
    line.append(',').append(request.promptTokens()).append(',');
    line.append(request.cachedTokens()).append(',');
    if (request.timedOut()) {
      timedOut(line, request);
    } else {
      completed(line, request);
    }
    line.append(',').append(request.heartbeats());
    out.end();
  }

  private String serverId(RequestView request) {
    if (request.serverSeq() < 0) {
      return ""; // never reached the server
    }
    switch (output.format().engine()) {
      case VLLM:
        return ServerIds.vllmExternal(request, output.format(), output.api());
      case SGLANG:
        return ServerIds.sglangRid(request);
      case TRTLLM:
        return Long.toString(ServerIds.trtllmRequestId(request));
      default:
        throw new IllegalStateException("unhandled engine: " + output.format().engine());
    }
  }

  private static void completed(StringBuilder line, RequestView request) {
    Components parts = Components.of(request);
    line.append(request.generatedTokens()).append(',');
    Decimals.millis(line, parts.clientQueueUs()).append(',');
    Decimals.millis(line, parts.networkTtftUs()).append(',');
    Decimals.millis(line, parts.networkUs()).append(',');
    Decimals.millis(line, parts.queueUs()).append(',');
    Decimals.millis(line, parts.prefillUs()).append(',');
    Decimals.millis(line, parts.decodeUs()).append(',');
    Decimals.millis(line, parts.ttftUs()).append(',');
    Decimals.millis(line, parts.e2eUs()).append(',');
    line.append(request.preemptions()).append(",ok,").append(parts.dominant()).append(',');
    Decimals.millis(line, request.reportedTtftUs()).append(',');
    line.append(request.reportedOutputTokens());
  }

  /** What is known of an attempt the client gave up on; network and decode stay empty. */
  private static void timedOut(StringBuilder line, RequestView request) {
    line.append(',');
    Decimals.millis(line, request.clientQueueUs()).append(",,,");
    if (request.firstScheduledUs() >= 0) {
      Decimals.millis(line, request.firstScheduledUs() - request.serverArrivalUs());
    }
    line.append(',');
    if (request.firstTokenUs() >= 0 && request.firstScheduledUs() >= 0) {
      Decimals.millis(line, request.firstTokenUs() - request.firstScheduledUs());
    }
    line.append(",,");
    if (request.clientFirstTokenUs() >= 0) {
      Decimals.millis(line, request.clientFirstTokenUs() - request.issuedUs());
    }
    line.append(',');
    Decimals.millis(line, request.clientEndUs() - request.issuedUs()).append(',');
    line.append(request.preemptions()).append(",timeout,,");
    if (request.reportedTtftUs() >= 0) {
      Decimals.millis(line, request.reportedTtftUs());
    }
    line.append(',');
  }

  @Override
  public void close() {
    out.close();
  }
}
