package dev.tokentrace.event;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.table.Column;
import dev.tokentrace.table.ColumnType;
import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The table of one event type: the flattened {@link #ENVELOPE} followed by the event's own columns,
 * named like its JSON fields (snake_case of the record components, in component order), and a
 * factory that builds the event back from its own column values (the sink's JSON decoder). Each
 * event record declares its table as {@code TABLE}; {@link EventTables} lists them all.
 *
 * @param <E> the event record
 */
public final class EventTable<E extends EngineEvent> extends TableSchema<E> {
  /** The event envelope, flattened, in front of every event table's own columns. */
  public static final List<Column<EngineEvent>> ENVELOPE =
      TableSchema.columns(EngineEvent.class)
          .required("engine", ColumnType.VARCHAR, e -> e.engine().id())
          .required("instance", ColumnType.VARCHAR, EngineEvent::instance)
          .optional("ts", ColumnType.TIMESTAMP, EngineEvent::ts)
          .required("source_path", ColumnType.VARCHAR, e -> e.source().path())
          .required("source_line", ColumnType.BIGINT, e -> e.source().line())
          .required("source_offset", ColumnType.BIGINT, e -> e.source().offset())
          .list();

  private final Class<E> eventType;
  private final List<Column<E>> own;
  private final Function<Values, E> factory;

  /**
   * @param type the event's JSON type name, also the table name
   * @param own the event's own columns, in record component order
   * @param factory builds the event from the envelope and its own columns' values, by position in
   *     {@code own}; it runs the record's constructor, so its checks apply
   */
  public EventTable(
      String type, Class<E> eventType, List<Column<E>> own, Function<Values, E> factory) {
    super(type, concat(own));
    this.eventType = requireNonNull(eventType, "eventType is null");
    this.own = List.copyOf(own);
    this.factory = requireNonNull(factory, "factory is null");
  }

  private static <E extends EngineEvent> List<Column<? super E>> concat(List<Column<E>> own) {
    List<Column<? super E>> all = new ArrayList<>(ENVELOPE);
    all.addAll(own);
    return all;
  }

  public Class<E> eventType() {
    return eventType;
  }

  /** The event's own columns (after the envelope), in table order. */
  public List<Column<E>> ownColumns() {
    return own;
  }

  /**
   * Builds the event from {@code values}.
   *
   * @throws RuntimeException whatever the record's constructor throws for invalid values, or a
   *     {@link NullPointerException} / {@link ClassCastException} where a value is missing or of
   *     another type
   */
  public E create(Values values) {
    return factory.apply(values);
  }

  /**
   * The values an event is built from: the envelope, and the own columns by position, typed as the
   * column's {@link ColumnType#javaType()}. Null where absent.
   */
  public interface Values {
    Engine engine();

    String instance();

    @Nullable Instant ts();

    SourcePosition source();

    @Nullable String text(int column);

    @Nullable Integer int32(int column);

    @Nullable Long int64(int column);

    @Nullable Double float64(int column);

    /** A BOOLEAN column that is never null: throws {@link NullPointerException} when absent. */
    boolean bool(int column);

    @Nullable Instant instant(int column);
  }
}
