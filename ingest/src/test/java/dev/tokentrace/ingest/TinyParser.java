package dev.tokentrace.ingest;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;

/**
 * A stand-in parser for testing the plumbing without depending on real engine formats: {@code A
 * <id>} is a request arrival, {@code N <text>} a warning notice, {@code # ...} ignored by rule
 * {@value #RULE}, anything else rejected as {@value #REASON}.
 */
public final class TinyParser implements LineParser {
  public static final String RULE = "comment";
  public static final String REASON = "unrecognized line";

  private final Engine engine;
  private final String instance;

  public TinyParser(Engine engine, String instance) {
    this.engine = engine;
    this.instance = instance;
  }

  @Override
  public void parse(String line, SourcePosition position, ParseOutput sink) {
    if (line.startsWith("A ") && line.length() > 2) {
      String id = line.substring(2);
      sink.event(new RequestArrived(engine, instance, null, position, id, id, null, null));
    } else if (line.startsWith("N ")) {
      sink.event(
          new ServerNotice(
              engine, instance, null, position, "WARNING", ServerNotice.Kind.WARNING, line));
    } else if (line.startsWith("#")) {
      sink.ignored(position, RULE);
    } else {
      sink.rejected(Rejection.of(position, engine, REASON, line));
    }
  }
}
