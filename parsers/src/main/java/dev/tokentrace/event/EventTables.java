package dev.tokentrace.event;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Every event table, in the order of {@link EngineEvent}'s permitted types. */
public final class EventTables {
  /** A new event type adds its record's {@code TABLE} here (a test checks none is missing). */
  public static final List<EventTable<?>> ALL =
      List.of(
          RequestArrived.TABLE,
          RequestTiming.TABLE,
          RequestFinished.TABLE,
          RequestAborted.TABLE,
          EngineStats.TABLE,
          BatchStep.TABLE,
          ServerNotice.TABLE,
          ServerConfig.TABLE,
          GpuSample.TABLE,
          GpuProcess.TABLE,
          ServerHistogram.TABLE,
          KvTransfer.TABLE,
          ProxyRequest.TABLE);

  private static final Map<Class<?>, EventTable<?>> BY_CLASS = new HashMap<>();
  private static final Map<String, EventTable<?>> BY_NAME = new HashMap<>();

  static {
    for (EventTable<?> table : ALL) {
      BY_CLASS.put(table.eventType(), table);
      BY_NAME.put(table.name(), table);
    }
  }

  private EventTables() {}

  /** The table of {@code event}'s type. */
  @SuppressWarnings("unchecked")
  public static <E extends EngineEvent> EventTable<E> of(E event) {
    EventTable<?> table = BY_CLASS.get(event.getClass());
    if (table == null) {
      throw new IllegalStateException("no table for " + event.getClass().getName());
    }
    return (EventTable<E>) table;
  }

  /** The table named {@code type} (an event's JSON type name), or null. */
  public static @Nullable EventTable<?> named(String type) {
    return BY_NAME.get(type);
  }
}
