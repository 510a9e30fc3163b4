package dev.tokentrace.event;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.table.Column;
import dev.tokentrace.table.ColumnType;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The event tables are the one list of event columns: they must follow the records (names, order,
 * types, nullability) and the JSON, and their factories must rebuild every event exactly.
 */
final class EventTablesTest {
  private static final SourcePosition SOURCE = new SourcePosition("logs/server.log", 7, 512);
  private static final Instant TS = Instant.parse("2026-02-13T11:33:33.250Z");

  /** One event per type with every field set, each to a different value. */
  static Stream<EngineEvent> full() {
    return Stream.of(
        new RequestArrived(Engine.VLLM, "i", TS, SOURCE, "chatcmpl-a", "a", 38, 100),
        new RequestTiming(
            Engine.TRTLLM,
            "i",
            TS,
            SOURCE,
            "7",
            "7",
            TS.minusMillis(5),
            1.5,
            2.5,
            3.5,
            4.5,
            5.5,
            11,
            12,
            13,
            "stop",
            "perf_metrics",
            123.25),
        new RequestFinished(Engine.SGLANG, "i", TS, SOURCE, "r1", "r1", 64, "length"),
        new RequestAborted(Engine.VLLM, "i", TS, SOURCE, "r2", "r2", "client disconnected"),
        new EngineStats(
            Engine.VLLM, "i", TS, SOURCE, "Engine 001", 10.0, 612.4, 95.0, 8, 3, 1, 41.5, 7.5, 2),
        new BatchStep(
            Engine.SGLANG,
            "i",
            TS,
            SOURCE,
            "DP1 TP0",
            99L,
            Phase.MIXED,
            4,
            1,
            256,
            128,
            2,
            0.25,
            1500.5,
            12.5,
            true,
            3,
            5),
        new ServerNotice(
            Engine.VLLM, "i", TS, SOURCE, "WARNING", ServerNotice.Kind.PREEMPTION, "preempted"),
        new ServerConfig(Engine.VLLM, "i", TS, SOURCE, "args", "max_num_seqs", "256"),
        new GpuSample(
            Engine.GPU,
            "i",
            TS,
            SOURCE,
            "dcgm",
            "h",
            0,
            "GPU-1",
            1.0,
            2.0,
            3.0,
            4.0,
            5.0,
            6.0,
            -7.0,
            8.0,
            "power.draw=[N/A]"),
        new GpuProcess(
            Engine.GPU, "i", TS, SOURCE, "pmon", 1, "GPU-1", 42L, "python3", "C", 1.0, 2.0, 3.0),
        new ServerHistogram(
            Engine.SGLANG,
            "i",
            TS,
            SOURCE,
            "e2e",
            "sglang:e2e_request_latency_seconds",
            2.0,
            4L,
            1.5,
            1.0,
            2.0,
            3.0,
            "1:3,+Inf:4"),
        new KvTransfer(
            Engine.VLLM,
            "i",
            TS,
            SOURCE,
            "cmpl-a-0",
            "a",
            "decode",
            "prefill-0",
            10.0,
            3L,
            12.5,
            20.5,
            64.5,
            5160.0,
            1L,
            2L,
            KvTransfer.NIXL_INTERVAL),
        new ProxyRequest(
            Engine.VLLM,
            "i",
            TS,
            SOURCE,
            "c-a",
            "c-a",
            "u-a",
            "u-a",
            "prefill-0",
            "decode-0",
            200));
  }

  @Test
  void everyEventTypeHasATableInPermitsOrder() {
    List<Class<?>> permitted = Arrays.asList(EngineEvent.class.getPermittedSubclasses());
    List<Class<?>> tables = new ArrayList<>();
    for (EventTable<?> table : EventTables.ALL) {
      tables.add(table.eventType());
    }
    assertThat(tables).isEqualTo(permitted);
    assertThat(full().map(EngineEvent::getClass).toList()).isEqualTo(permitted);
  }

  @ParameterizedTest
  @MethodSource("full")
  void tableIsNamedByTheTypeAndFollowsTheRecordComponents(EngineEvent event) {
    EventTable<EngineEvent> table = EventTables.of(event);
    assertThat(table.name()).isEqualTo(event.type());
    assertThat(EventTables.named(event.type())).isSameAs(table);

    RecordComponent[] components = event.getClass().getRecordComponents();
    assertThat(components[0].getName()).isEqualTo("engine");
    assertThat(components[3].getName()).isEqualTo("source");
    List<RecordComponent> own = Arrays.asList(components).subList(4, components.length);
    List<Column<EngineEvent>> columns = table.ownColumns();
    assertThat(columns.stream().map(Column::name).toList())
        .isEqualTo(own.stream().map(c -> snake(c.getName())).toList());
    for (int i = 0; i < own.size(); i++) {
      RecordComponent component = own.get(i);
      Column<EngineEvent> column = columns.get(i);
      boolean nullable = component.getAnnotatedType().isAnnotationPresent(Nullable.class);
      assertThat(column.nullable()).as(column.name() + " nullable").isEqualTo(nullable);
      Class<?> type = component.getType();
      if (type.isEnum()) {
        assertThat(column.type()).as(column.name()).isEqualTo(ColumnType.VARCHAR);
      } else {
        assertThat(column.type().javaType()).as(column.name()).isEqualTo(boxed(type));
      }
    }
  }

  @ParameterizedTest
  @MethodSource("full")
  void accessorsReturnTheColumnTypeAndTheFactoryRebuildsTheEvent(EngineEvent event) {
    EventTable<EngineEvent> table = EventTables.of(event);
    Object[] values = new Object[table.ownColumns().size()];
    for (int i = 0; i < values.length; i++) {
      Column<EngineEvent> column = table.ownColumns().get(i);
      values[i] = column.get(event);
      assertThat(values[i]).as(column.name()).isInstanceOf(column.type().javaType());
    }
    for (Column<? super EngineEvent> column : table.columns()) {
      Object value = column.get(event);
      assertThat(value).as(column.name()).isInstanceOf(column.type().javaType());
    }
    assertThat(table.create(new ArrayValues(event, values))).isEqualTo(event);
  }

  @ParameterizedTest
  @MethodSource("full")
  void jsonFieldsAreTheColumnNames(EngineEvent event) {
    JsonNode json = EventJson.mapper().valueToTree(event);
    List<String> fields = new ArrayList<>();
    for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
      fields.add(names.next());
    }
    List<String> expected = new ArrayList<>(List.of("type", "engine", "instance", "ts", "source"));
    EventTables.of(event).ownColumns().forEach(column -> expected.add(column.name()));
    assertThat(fields).isEqualTo(expected);
  }

  @Test
  void ddlListsEnvelopeThenOwnColumns() {
    assertThat(RequestAborted.TABLE.createTable())
        .isEqualTo(
            "CREATE TABLE IF NOT EXISTS request_aborted (\n"
                + "    engine VARCHAR NOT NULL,\n"
                + "    instance VARCHAR NOT NULL,\n"
                + "    ts TIMESTAMP,\n"
                + "    source_path VARCHAR NOT NULL,\n"
                + "    source_line BIGINT NOT NULL,\n"
                + "    source_offset BIGINT NOT NULL,\n"
                + "    request_id VARCHAR NOT NULL,\n"
                + "    request_key VARCHAR NOT NULL,\n"
                + "    reason VARCHAR\n"
                + ");\n");
  }

  private static String snake(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
  }

  private static Class<?> boxed(Class<?> type) {
    if (type == boolean.class) {
      return Boolean.class;
    } else if (type == long.class) {
      return Long.class;
    } else if (type == int.class) {
      return Integer.class;
    } else if (type == double.class) {
      return Double.class;
    }
    return type;
  }

  /** Values taken from an existing event's envelope and an array of own column values. */
  private record ArrayValues(EngineEvent event, @Nullable Object[] values)
      implements EventTable.Values {
    @Override
    public Engine engine() {
      return event.engine();
    }

    @Override
    public String instance() {
      return event.instance();
    }

    @Override
    public @Nullable Instant ts() {
      return event.ts();
    }

    @Override
    public SourcePosition source() {
      return event.source();
    }

    @Override
    public @Nullable String text(int column) {
      return (String) values[column];
    }

    @Override
    public @Nullable Integer int32(int column) {
      return (Integer) values[column];
    }

    @Override
    public @Nullable Long int64(int column) {
      return (Long) values[column];
    }

    @Override
    public @Nullable Double float64(int column) {
      return (Double) values[column];
    }

    @Override
    public boolean bool(int column) {
      return (Boolean) values[column];
    }

    @Override
    public @Nullable Instant instant(int column) {
      return (Instant) values[column];
    }
  }
}
