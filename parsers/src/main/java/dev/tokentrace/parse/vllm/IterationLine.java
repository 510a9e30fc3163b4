package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.Phase;
import dev.tokentrace.parse.ParseOutput;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The opt-in per-step line of the V1 engine core ({@code --enable-logging-iteration-details},
 * 6ebe34d6f, 2026-01-08, v0.16.0; docs/formats/vllm.md#scheduler-lines): {@code Iteration(812): 2
 * context requests, 1536 context tokens, 30 generation requests, 30 generation tokens, iteration
 * elapsed time: 41.25 ms}. Mapped to batch_step as: batch size = context + generation requests;
 * {@code new_tokens} = context tokens, i.e. the prompt tokens computed in the step, which is what
 * SGLang's {@code #new-token} counts too (generation tokens equal the generation requests without
 * speculative decoding and are not kept); phase from which request counts are non-zero; {@code
 * rank} {@code Engine NNN} from the {@code EngineCore_DP<n>} process prefix so that steps line up
 * with that engine's stats lines. A step with no requests at all is ignored.
 */
final class IterationLine {
  static final String PREFIX = "Iteration(";
  private static final String[] COUNTS = {
    "context requests", "context tokens", "generation requests", "generation tokens"
  };

  /** {@code " context requests, "} etc., made once: concatenating them per line was measurable. */
  private static final String[] SEPARATORS =
      Arrays.stream(COUNTS).map(count -> " " + count + ", ").toArray(String[]::new);

  private static final String ELAPSED = "iteration elapsed time: ";

  private IterationLine() {}

  static void parse(RecordLine line, UnknownFields unknown, ParseOutput sink) {
    String message = line.message();
    int cursor = PREFIX.length();
    int end = Ascii.digitsEnd(message, cursor);
    if (end == cursor || end - cursor > 18) {
      line.reject(sink, "iteration line: bad 'Iteration' value");
      return;
    }
    long iteration = Long.parseLong(message, cursor, end, 10);
    if (!message.startsWith("): ", end)) {
      line.reject(sink, "iteration line: malformed");
      return;
    }
    cursor = end + 3;
    int[] counts = new int[COUNTS.length];
    for (int i = 0; i < COUNTS.length; i++) {
      end = Ascii.digitsEnd(message, cursor);
      counts[i] = Decimals.integer(message, cursor, end);
      if (counts[i] < 0) {
        line.reject(sink, "iteration line: bad '" + COUNTS[i] + "' value");
        return;
      }
      String separator = SEPARATORS[i];
      if (!message.startsWith(separator, end)) {
        line.reject(sink, "iteration line: malformed");
        return;
      }
      cursor = end + separator.length();
    }
    if (!message.startsWith(ELAPSED, cursor)) {
      line.reject(sink, "iteration line: malformed");
      return;
    }
    int msStart = cursor + ELAPSED.length();
    int msEnd = message.indexOf(" ms", msStart);
    boolean tail = msEnd >= 0 && message.startsWith(", ", msEnd + 3);
    if (msEnd < 0 || (msEnd + 3 != message.length() && !tail)) {
      line.reject(sink, "iteration line: malformed");
      return;
    }
    if (tail) {
      // newer releases add fields after the elapsed time (docs/formats/vllm-wild.md#unknown-fields)
      noteTail(message, msEnd + 5, unknown, line);
    }
    double stepMs = Decimals.decimal(message, msStart, msEnd);
    if (stepMs == Decimals.INVALID || Double.isNaN(stepMs)) {
      line.reject(sink, "iteration line: bad 'iteration elapsed time' value");
      return;
    }
    emit(line, sink, iteration, counts, stepMs);
  }

  /** Notes the labels of {@code a: 1, b: 2 ms} after the elapsed time, each once per source. */
  private static void noteTail(String message, int from, UnknownFields unknown, RecordLine line) {
    for (String item : message.substring(from).split(", ")) {
      int colon = item.indexOf(':');
      String label = colon > 0 ? item.substring(0, colon) : item;
      if (!label.isBlank() && label.length() <= 60) {
        unknown.note("iteration line", label.strip(), line.position());
      }
    }
  }

  private static void emit(
      RecordLine line, ParseOutput sink, long iteration, int[] counts, double stepMs) {
    int ctxRequests = counts[0];
    int genRequests = counts[2];
    if (ctxRequests == 0 && genRequests == 0) {
      line.ignore(sink, "vllm: empty iteration");
      return;
    }
    Phase phase =
        ctxRequests > 0 && genRequests > 0
            ? Phase.MIXED
            : ctxRequests > 0 ? Phase.PREFILL : Phase.DECODE;
    sink.event(
        new BatchStep(
            Engine.VLLM,
            line.instance(),
            line.ts(),
            line.position(),
            engineRank(line.header().process(line.text())),
            iteration,
            phase,
            (int) Math.min(Integer.MAX_VALUE, (long) ctxRequests + genRequests),
            null,
            counts[1],
            null,
            null,
            null,
            null,
            stepMs,
            false,
            ctxRequests,
            genRequests));
  }

  /** {@code Engine 003} for process {@code EngineCore_DP3 pid=N} (or {@code EngineCore_3}). */
  static @Nullable String engineRank(@Nullable String process) {
    if (process == null) {
      return null;
    }
    int space = process.indexOf(' ');
    String name = space < 0 ? process : process.substring(0, space);
    if (name.equals("EngineCore")) {
      return "Engine 000";
    }
    String prefix = name.startsWith("EngineCore_DP") ? "EngineCore_DP" : "EngineCore_";
    if (!name.startsWith(prefix)) {
      return null;
    }
    int index = Decimals.integer(name, prefix.length(), name.length());
    return index >= 0 ? rank(index) : null;
  }

  /**
   * {@code Engine 003}: at least three digits, as {@code String.format("Engine %03d", index)}
   * gives, without a Formatter per iteration line (it was a tenth of the shipping thread's CPU in a
   * JFR profile of {@code ingest}, BENCHMARKS.md "Ingest and lake, round 4").
   */
  static String rank(int index) {
    String digits = Integer.toString(index);
    return digits.length() >= 3
        ? "Engine " + digits
        : "Engine " + "00".substring(digits.length() - 1) + digits;
  }
}
