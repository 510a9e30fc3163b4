package dev.tokentrace.parse;

import dev.tokentrace.event.SourcePosition;
import org.jspecify.annotations.Nullable;

/**
 * Hands an engine parser the lines of a prompt printed over several lines with their text redacted
 * ({@link UserTextGuard}), asking the parser itself where a continuation line's text starts. Sits
 * directly in front of the engine parser, behind the collector layer, so that it sees whole lines
 * as the engine wrote them. docs/privacy.md#multi-line-prompts. Not thread-safe: one per source.
 */
final class GuardedParser implements LineParser {
  private final LineParser parser;
  private final UserTextGuard userText = new UserTextGuard();

  GuardedParser(LineParser parser) {
    this.parser = parser;
  }

  /** The engine parser behind the guard (the collector layer hands it the collector's clock). */
  LineParser inner() {
    return parser;
  }

  @Override
  public void parse(String line, SourcePosition position, ParseOutput sink) {
    parser.parse(userText.next(line, parser), position, sink);
  }

  @Override
  public int continuationStart(String line) {
    return parser.continuationStart(line);
  }

  @Override
  public boolean insideUserText() {
    return userText.inside();
  }

  @Override
  public void finish(ParseOutput sink) {
    parser.finish(sink);
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
