package dev.tokentrace.parse;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;

/** Receives what a {@link LineParser} made of each line. Implementations decide where it goes. */
public interface ParseOutput {
  void event(EngineEvent event);

  /** A line that matched a named noise rule (banner, stack frame, access log line). */
  void ignored(SourcePosition position, String rule);

  void rejected(Rejection rejection);
}
