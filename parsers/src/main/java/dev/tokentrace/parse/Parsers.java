package dev.tokentrace.parse;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.UserText;
import dev.tokentrace.parse.gpu.GpuLineParser;
import dev.tokentrace.parse.sglang.SglangLineParser;
import dev.tokentrace.parse.trtllm.TrtLlmLineParser;
import dev.tokentrace.parse.vllm.VllmLineParser;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates the parser for an engine, guards parsers against their own bugs, detects formats. */
public final class Parsers {
  private static final Logger log = LoggerFactory.getLogger(Parsers.class);

  private Parsers() {}

  /**
   * A new parser for one source of {@code engine}, behind the collector layer that removes Docker,
   * CRI, kubectl, journald and collector envelopes and joins partial lines ({@link
   * CollectorWrappers}), already guarded by {@link #safe}.
   */
  public static LineParser create(Engine engine, ParseSettings settings) {
    requireNonNull(engine, "engine is null");
    requireNonNull(settings, "settings is null");
    // the guard sees the lines as the engine wrote them, after the collector layer has removed
    // its envelope and joined partial lines, and asks the engine parser itself where a
    // continuation line's text starts (docs/privacy.md#multi-line-prompts)
    return safe(
        engine, new UnwrappingParser(engine, new GuardedParser(raw(engine, settings)), settings));
  }

  private static LineParser raw(Engine engine, ParseSettings settings) {
    switch (engine) {
      case VLLM:
        return new ProxyLogRouter(
            engine, new MetricsRouter(engine, new VllmLineParser(settings), settings), settings);
      case SGLANG:
        return new ProxyLogRouter(
            engine, new MetricsRouter(engine, new SglangLineParser(settings), settings), settings);
      case TRTLLM:
        return new ProxyLogRouter(
            engine, new MetricsRouter(engine, new TrtLlmLineParser(settings), settings), settings);
      case GPU:
        return new GpuLineParser(settings);
      default:
        throw new IllegalStateException("unhandled engine: " + engine);
    }
  }

  /**
   * Wraps {@code parser} so that an exception thrown by its own code (a parser bug, never bad
   * input) becomes a rejection {@code parser error: <Class>: <message>} and is logged once at WARN
   * with its stack trace (the only place parser exceptions are caught).
   */
  public static LineParser safe(Engine engine, LineParser parser) {
    return new SafeParser(engine, parser);
  }

  /**
   * Detects the engine that wrote {@code head} (the first lines of a source) by parsing them with
   * every engine's parser and keeping the one that recognizes most.
   *
   * <p>The winner must score strictly above every other engine (events count twice, named ignores
   * once, rejections count against) and either have produced an event, or have rejected nothing
   * while every other engine rejected something: a TensorRT-LLM log that opens with plain INFO
   * lines, or the first lines of a pretty-printed JSON export that no parser has finished yet, are
   * recognized that way. {@code finish} is not called: a head cut mid-record is not an error. Empty
   * when no engine qualifies; {@link Detection#scores()} then says what was tried.
   */
  public static Detection detect(List<String> head, ParseSettings settings) {
    Map<Engine, Score> scores = new EnumMap<>(Engine.class);
    for (Engine engine : Engine.values()) {
      LineParser parser = create(engine, settings);
      Score score = new Score();
      long line = 1;
      for (String text : head) {
        parser.parse(text, new SourcePosition("<detect>", line++, 0), score);
      }
      scores.put(engine, score);
    }
    return new Detection(Optional.ofNullable(winner(scores)), Map.copyOf(scores));
  }

  private static @Nullable Engine winner(Map<Engine, Score> scores) {
    Engine best = null;
    boolean tie = false;
    for (Map.Entry<Engine, Score> entry : scores.entrySet()) {
      int value = entry.getValue().value();
      if (best == null || value > scores.get(best).value()) {
        best = entry.getKey();
        tie = false;
      } else if (value == scores.get(best).value()) {
        tie = true;
      }
    }
    if (best == null || tie) {
      return null;
    }
    Score top = scores.get(best);
    if (top.events > 0) {
      return best;
    }
    for (Map.Entry<Engine, Score> entry : scores.entrySet()) {
      if (entry.getKey() != best && entry.getValue().rejected == 0) {
        return null;
      }
    }
    return top.rejected == 0 ? best : null;
  }

  /** The result of {@link #detect}: the engine, if any, and every engine's score. */
  public record Detection(Optional<Engine> engine, Map<Engine, Score> scores) {
    /** {@code vllm: 3 events, 1 ignored, 0 rejected; sglang: ...}, for error messages. */
    public String describe() {
      StringBuilder text = new StringBuilder();
      for (Engine engine : Engine.values()) {
        Score score = scores.get(engine);
        if (score == null) {
          continue;
        }
        if (text.length() > 0) {
          text.append("; ");
        }
        text.append(engine.id()).append(": ").append(score);
      }
      return text.toString();
    }
  }

  /** Counts what one parser made of the detection sample. */
  public static final class Score implements ParseOutput {
    private int events;
    private int ignored;
    private int rejected;

    @Override
    public void event(EngineEvent event) {
      events++;
    }

    @Override
    public void ignored(SourcePosition position, String rule) {
      ignored++;
    }

    @Override
    public void rejected(Rejection rejection) {
      rejected++;
    }

    public int events() {
      return events;
    }

    public int ignored() {
      return ignored;
    }

    public int rejected() {
      return rejected;
    }

    int value() {
      return 2 * events + ignored - 2 * rejected;
    }

    @Override
    public String toString() {
      return events + " events, " + ignored + " ignored, " + rejected + " rejected";
    }
  }

  private static final class SafeParser implements LineParser {
    private final Engine engine;
    private final LineParser parser;
    private long failures;

    SafeParser(Engine engine, LineParser parser) {
      this.engine = engine;
      this.parser = parser;
    }

    @Override
    public void parse(String line, SourcePosition position, ParseOutput sink) {
      try {
        parser.parse(line, position, sink);
      } catch (RuntimeException e) {
        fail(position, parser.insideUserText() ? UserText.marker(line.length()) : line, e, sink);
      }
    }

    @Override
    public int continuationStart(String line) {
      return parser.continuationStart(line);
    }

    @Override
    public boolean insideUserText() {
      return parser.insideUserText();
    }

    @Override
    public @Nullable String state() {
      return parser.state();
    }

    @Override
    public void resume(String state) {
      parser.resume(state);
    }

    @Override
    public void finish(ParseOutput sink) {
      try {
        parser.finish(sink);
      } catch (RuntimeException e) {
        fail(new SourcePosition("<finish>", 1, 0), "", e, sink);
      }
    }

    private void fail(SourcePosition position, String line, RuntimeException e, ParseOutput sink) {
      // A parser bug, not bad input: the line still becomes a visible rejection; the stack trace
      // is logged for the first failure only so that a systematic bug does not flood the log.
      if (failures++ == 0) {
        log.warn("{}: {}: parser error (further ones are only counted)", position, engine, e);
      }
      String reason = "parser error: " + e.getClass().getSimpleName() + ": " + e.getMessage();
      sink.rejected(Rejection.of(position, engine, reason, line));
    }
  }
}
