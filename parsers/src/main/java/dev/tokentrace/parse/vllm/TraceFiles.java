package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The trace documents of one source (OTLP/JSON lines or pretty-printed, Jaeger exports): parses
 * each and, at the end, says when the source held spans but none named {@code llm_request}
 * (docs/formats/vllm-wild.md#no-llm-request-spans): vLLM's tracing was off, or the file traces
 * another service. Not thread-safe.
 */
final class TraceFiles {
  private static final Logger log = LoggerFactory.getLogger(TraceFiles.class);

  private final String instance;
  private long spans;
  private long requests;
  private SourcePosition first = new SourcePosition("<none>", 1, 0);

  TraceFiles(String instance) {
    this.instance = instance;
  }

  void parse(String text, SourcePosition position, ParseOutput sink) {
    OtlpTraceLine.Counts counts = OtlpTraceLine.parse(text, position, instance, sink);
    if (spans == 0 && counts.spans() > 0) {
      first = position;
    }
    spans += counts.spans();
    requests += counts.requests();
  }

  void finish() {
    if (spans > 0 && requests == 0) {
      log.warn(
          "{}: vllm: the trace file holds {} span(s) but none named llm_request, so no request"
              + " timing; start vLLM with --otlp-traces-endpoint (and --collect-detailed-traces)"
              + " and export the llm_request spans of its tracer",
          first.path(),
          spans);
    }
  }

  long requests() {
    return requests;
  }

  long spans() {
    return spans;
  }
}
