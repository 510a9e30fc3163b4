package dev.tokentrace.parse.sglang;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.ParseSink;
import dev.tokentrace.parse.Rejection;

/** Parses Sglang output. Not thread-safe: one instance per source. */
public final class SglangLineParser implements LineParser {
  private final ParseSettings settings;

  public SglangLineParser(ParseSettings settings) {
    this.settings = requireNonNull(settings, "settings is null");
  }

  @Override
  public void parse(String line, SourcePosition position, ParseSink sink) {
    sink.rejected(Rejection.of(position, Engine.SGLANG, "unrecognized line", line));
  }

  ParseSettings settings() {
    return settings;
  }
}
