package dev.tokentrace.parse.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The header line of {@code nvidia-smi --query-gpu=… --format=csv} or {@code --query-compute-apps=…
 * --format=csv}: the fields asked for, in order, each with its unit in brackets unless {@code
 * nounits} was given (docs/formats/gpu.md#query-csv). Any subset and order of fields is read;
 * fields tokentrace does not use are skipped.
 *
 * @param roles one role per column, null where the column is not used
 * @param processes whether this is a compute-apps table (it has a {@code pid} column)
 */
record QueryHeader(List<@Nullable Role> roles, List<String> names, boolean processes) {
  /** What a column means to tokentrace. */
  enum Role {
    TIMESTAMP,
    INDEX,
    UUID,
    PID,
    PROCESS_NAME,
    USED_MEMORY,
    UTIL_GPU,
    UTIL_MEM,
    MEM_USED,
    MEM_TOTAL,
    POWER,
    SM_CLOCK,
    TEMPERATURE
  }

  /** Field names as printed in headers, and the aliases nvidia-smi accepts in the query. */
  private static final Map<String, Role> FIELDS =
      Map.ofEntries(
          Map.entry("timestamp", Role.TIMESTAMP),
          Map.entry("index", Role.INDEX),
          Map.entry("uuid", Role.UUID),
          Map.entry("gpu_uuid", Role.UUID),
          Map.entry("pid", Role.PID),
          Map.entry("process_name", Role.PROCESS_NAME),
          Map.entry("used_gpu_memory", Role.USED_MEMORY),
          Map.entry("used_memory", Role.USED_MEMORY),
          Map.entry("utilization.gpu", Role.UTIL_GPU),
          Map.entry("utilization.memory", Role.UTIL_MEM),
          Map.entry("memory.used", Role.MEM_USED),
          Map.entry("memory.total", Role.MEM_TOTAL),
          Map.entry("power.draw", Role.POWER),
          Map.entry("power.draw.instant", Role.POWER),
          Map.entry("power.draw.average", Role.POWER),
          Map.entry("clocks.sm", Role.SM_CLOCK),
          Map.entry("clocks.current.sm", Role.SM_CLOCK),
          Map.entry("temperature.gpu", Role.TEMPERATURE));

  /** The header {@code cells} describe, or null when they are not a query header. */
  static @Nullable QueryHeader of(List<String> cells) {
    List<@Nullable Role> roles = new ArrayList<>();
    List<String> names = new ArrayList<>();
    boolean known = false;
    boolean pid = false;
    for (String cell : cells) {
      String name = withoutUnit(cell.strip()).toLowerCase(Locale.ROOT);
      if (!isFieldName(name)) {
        return null;
      }
      Role role = FIELDS.get(name);
      known |= role != null;
      pid |= role == Role.PID;
      roles.add(role);
      names.add(name);
    }
    if (!known) {
      return null;
    }
    return new QueryHeader(roles, names, pid);
  }

  private static String withoutUnit(String cell) {
    int bracket = cell.indexOf(" [");
    return bracket > 0 && cell.endsWith("]") ? cell.substring(0, bracket) : cell;
  }

  private static boolean isFieldName(String name) {
    if (name.isEmpty() || !(name.charAt(0) >= 'a' && name.charAt(0) <= 'z')) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.')) {
        return false;
      }
    }
    return true;
  }

  int columns() {
    return roles.size();
  }

  /** The column of {@code role}, or -1. */
  int column(Role role) {
    return roles.indexOf(role);
  }
}
