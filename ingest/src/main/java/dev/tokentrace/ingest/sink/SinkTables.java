package dev.tokentrace.ingest.sink;

import dev.tokentrace.clients.ClientRowJson;
import dev.tokentrace.event.EventTable;
import dev.tokentrace.event.EventTables;
import dev.tokentrace.parse.RejectRow;
import dev.tokentrace.table.TableSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables the sink appends to: every event table, then {@code rejects}, then {@code
 * client_timing} (streamed client rows).
 */
final class SinkTables {
  static final List<TableSchema<?>> ALL = all();

  private SinkTables() {}

  static boolean isEventTable(TableSchema<?> table) {
    return table instanceof EventTable;
  }

  private static List<TableSchema<?>> all() {
    List<TableSchema<?>> tables = new ArrayList<>(EventTables.ALL);
    tables.add(RejectRow.TABLE);
    tables.add(ClientRowJson.TABLE);
    return List.copyOf(tables);
  }
}
