package dev.tokentrace.event;

import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Something the server said that explains slowness or failure: a preemption, an OOM, an error with
 * its traceback folded into one record, a warning, a startup or config fact. The message is capped
 * at {@value #MAX_MESSAGE} characters and never holds prompt text: user-text values and secrets are
 * replaced here, whichever parser built it ({@link Redaction}).
 */
public record ServerNotice(
    Engine engine,
    String instance,
    @Nullable Instant ts,
    SourcePosition source,
    String level,
    Kind kind,
    String message)
    implements EngineEvent {
  public static final String TYPE = "server_notice";

  /** The {@value #TYPE} table: the envelope, then one column per component below it, in order. */
  public static final EventTable<ServerNotice> TABLE =
      new EventTable<>(
          TYPE,
          ServerNotice.class,
          TableSchema.columns(ServerNotice.class)
              .required("level", VARCHAR, ServerNotice::level)
              .required("kind", VARCHAR, e -> e.kind().id())
              .required("message", VARCHAR, ServerNotice::message)
              .list(),
          v ->
              new ServerNotice(
                  v.engine(),
                  v.instance(),
                  v.ts(),
                  v.source(),
                  v.text(0),
                  Kind.fromId(v.text(1)),
                  v.text(2)));

  public static final int MAX_MESSAGE = 512;

  /** Notice categories; SQL groups on them. */
  public enum Kind {
    PREEMPTION,
    OOM,
    ERROR,
    WARNING,
    STARTUP,
    CONFIG;

    @JsonValue
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Kind fromId(String id) {
      return valueOf(id.trim().toUpperCase(Locale.ROOT));
    }
  }

  public ServerNotice {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(source, "source is null");
    requireNonNull(level, "level is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(message, "message is null");
    message = EventChecks.cap(Redaction.apply(message), MAX_MESSAGE);
  }

  @Override
  public String type() {
    return TYPE;
  }
}
