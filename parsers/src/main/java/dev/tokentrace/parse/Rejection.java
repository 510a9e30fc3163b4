package dev.tokentrace.parse;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.Redaction;
import dev.tokentrace.event.SourcePosition;
import org.jspecify.annotations.Nullable;

/**
 * A line that could not be turned into an event, with a short, stable, lower-case reason (grouped
 * on in SQL) and a capped excerpt. {@code engine} is null when no format was recognized at all.
 */
public record Rejection(
    SourcePosition position, @Nullable Engine engine, String reason, String excerpt) {
  /**
   * Excerpts never exceed this many characters (the whole line goes to the rejects topic, unless it
   * carries user text: then the redacted excerpt does).
   */
  public static final int MAX_EXCERPT = 512;

  public Rejection {
    requireNonNull(position, "position is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(excerpt, "excerpt is null");
    if (reason.isBlank()) {
      throw new IllegalArgumentException("reason is blank");
    }
    // a reason may quote a bad value, which may be a prompt's or a secret
    reason = Redaction.apply(reason);
    excerpt = COUNTING_ONLY.get() ? UNREAD_EXCERPT : excerptOf(excerpt);
  }

  /**
   * True while {@link Parsers#detect} runs on this thread: it only counts rejections, so their
   * excerpts are not redacted (the redaction of a rejected 24 KB OTLP line by the engines that do
   * not read it was half of {@code ingest}'s main thread at 400 k events, BENCHMARKS.md "Ingest and
   * TensorRT-LLM JSON, round 7"). Such a rejection never leaves detection.
   */
  static final ThreadLocal<Boolean> COUNTING_ONLY = ThreadLocal.withInitial(() -> false);

  /** The excerpt of a rejection made while only counting. */
  static final String UNREAD_EXCERPT = "[not kept: format detection]";

  /** Builds a rejection from the offending line, capping the excerpt. */
  public static Rejection of(
      SourcePosition position, @Nullable Engine engine, String reason, String line) {
    return new Rejection(position, engine, reason, line);
  }

  /**
   * The line shortened to {@value #MAX_EXCERPT} characters, without a trailing {@code \r}, with any
   * prompt or response text and any secret removed ({@link Redaction}).
   */
  public static String excerptOf(String line) {
    String text =
        Redaction.apply(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
    return text.length() <= MAX_EXCERPT ? text : text.substring(0, MAX_EXCERPT - 1) + "…";
  }

  /**
   * What the rejects topic carries for a rejected line: its raw bytes, unless their text (bad UTF-8
   * read leniently) holds user text or a secret; then that text, redacted ({@link Redaction},
   * docs/privacy.md#secrets). The topic is one more place a line is stored.
   */
  public static byte[] topicValue(byte[] raw) {
    String text = new String(raw, UTF_8);
    String redacted = Redaction.apply(text);
    return redacted.equals(text) ? raw : redacted.getBytes(UTF_8);
  }

  /** The house message format: {@code path:line: engine: reason}. */
  public String message() {
    return position + ": " + (engine == null ? "unknown" : engine.id()) + ": " + reason;
  }
}
