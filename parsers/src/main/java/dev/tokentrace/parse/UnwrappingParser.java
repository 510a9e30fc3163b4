package dev.tokentrace.parse;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the collectors' envelopes ({@link CollectorWrappers}) in front of an engine's parser and
 * joins partial lines (Docker json-file parts without their newline, CRI {@code P} lines) into the
 * line the engine wrote (docs/formats/collectors.md#partial-lines). Each part is reported as
 * ignored under {@link #PARTIAL_RULE}; the joined line is parsed at the position of its last part,
 * so that every physical line is still accounted for. Parts of stdout and stderr are joined apart.
 * Not thread-safe: one instance per source.
 */
final class UnwrappingParser implements LineParser {
  static final String PARTIAL_RULE = "collector: partial line, joined with the next";

  private static final Logger log = LoggerFactory.getLogger(UnwrappingParser.class);

  /** Joined parts longer than this (characters) are rejected: a writer that never ends a line. */
  static final int MAX_JOINED_CHARS = 8 << 20;

  private final Engine engine;
  private final LineParser parser;
  private final @Nullable CollectorClock clock;
  private final CollectorWrappers wrappers;
  private final Layouts layouts;

  /** Layout combinations already named in the log for this source. */
  private final Set<String> layoutsNoted = new HashSet<>();

  private final Parts stdout = new Parts();
  private final Parts stderr = new Parts();

  UnwrappingParser(Engine engine, LineParser parser, ParseSettings settings) {
    this.engine = requireNonNull(engine, "engine is null");
    this.parser = requireNonNull(parser, "parser is null");
    LineParser engineParser =
        parser instanceof GuardedParser ? ((GuardedParser) parser).inner() : parser;
    this.clock = engineParser instanceof CollectorClock ? (CollectorClock) engineParser : null;
    this.wrappers = new CollectorWrappers(settings.zone());
    // vLLM and SGLang read process tags themselves, GPU telemetry has none
    // (docs/formats/layouts.md#process-tags)
    this.layouts = new Layouts(settings.zone(), engine == Engine.TRTLLM);
  }

  @Override
  public void parse(String raw, SourcePosition position, ParseOutput sink) {
    // colour codes around a collector's time would hide it (docs/formats/layouts.md#ansi)
    String line = Layouts.withoutAnsi(raw);
    if (!wrappers.unwrap(line)) {
      // an unwrapped line between parts: the parts were all the writer gave
      stdout.flush(sink);
      stderr.flush(sink);
      engineParse(line, null, position, sink);
      return;
    }
    Parts parts = wrappers.stderr() ? stderr : stdout;
    String text = wrappers.text();
    if (wrappers.partial()) {
      parts.add(text, position, sink);
      return;
    }
    engineParse(parts.complete(text), wrappers.ts(), position, sink);
  }

  @Override
  public void finish(ParseOutput sink) {
    stdout.flush(sink);
    stderr.flush(sink);
    parser.finish(sink);
  }

  /**
   * The one layout-stripping stage (docs/formats/layouts.md): the engine parser gets the line
   * without the layouts around its body, with the wrapper's time and level.
   */
  private void engineParse(
      String text, java.time.@Nullable Instant ts, SourcePosition position, ParseOutput sink) {
    if (layouts.strip(text, ts) && layoutsNoted.add(layouts.layouts())) {
      // which layout, and so whose time, once per source (docs/formats/layouts.md#which-time)
      log.info(
          "{}: {}: layout '{}' removed from line {} on; {}",
          position.path(),
          engine.id(),
          layouts.layouts(),
          position.line(),
          layouts.level() == null
              ? "the engine's own header, where the line keeps one, dates it"
              : "its message bodies are read without the engine's header and take the"
                  + " layout's time");
    }
    if (clock != null) {
      clock.collectorTime(layouts.ts());
      clock.wrapperLevel(layouts.level());
    }
    parser.parse(layouts.text(), position, sink);
  }

  /** The parts of one stream's line, so far. */
  private final class Parts {
    private @Nullable StringBuilder text;
    private @Nullable SourcePosition last;
    private java.time.@Nullable Instant ts;

    void add(String part, SourcePosition position, ParseOutput sink) {
      StringBuilder joined = text == null ? new StringBuilder() : text;
      if (joined.length() + part.length() > MAX_JOINED_CHARS) {
        text = null;
        last = null;
        sink.rejected(
            Rejection.of(
                position,
                engine,
                "collector: partial lines longer than " + MAX_JOINED_CHARS + " characters",
                part));
        return;
      }
      joined.append(part);
      text = joined;
      last = position;
      ts = wrappers.ts();
      sink.ignored(position, PARTIAL_RULE);
    }

    String complete(String part) {
      StringBuilder joined = text;
      text = null;
      last = null;
      return joined == null ? part : joined.append(part).toString();
    }

    /** Parts without a final part: parsed as they are, at the last part's position. */
    void flush(ParseOutput sink) {
      StringBuilder joined = text;
      SourcePosition position = last;
      text = null;
      last = null;
      if (joined != null && position != null) {
        engineParse(joined.toString(), ts, position, sink);
      }
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
}
