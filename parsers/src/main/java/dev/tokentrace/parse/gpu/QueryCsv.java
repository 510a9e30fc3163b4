package dev.tokentrace.parse.gpu;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.GpuProcess;
import dev.tokentrace.event.GpuSample;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.gpu.QueryHeader.Role;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Rows of {@code nvidia-smi --query-gpu} / {@code --query-compute-apps} CSV under the last header
 * seen (docs/formats/gpu.md#query-csv). A loop restarted with other fields prints a new header
 * mid-file: the rows after it are read by it. Not thread-safe.
 */
final class QueryCsv {
  private final String instance;
  private final ZoneId zone;
  private @Nullable QueryHeader header;
  private @Nullable String headerLine;

  QueryCsv(String instance, ZoneId zone) {
    this.instance = instance;
    this.zone = zone;
  }

  /**
   * Splits a CSV line on nvidia-smi's {@code ", "} separators. A comma with no blank after it,
   * between digits, is a locale's decimal comma and stays in its cell
   * (docs/formats/gpu.md#decimal-commas).
   */
  static List<String> cells(String line) {
    List<String> cells = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < line.length(); i++) {
      if (line.charAt(i) != ',') {
        continue;
      }
      boolean decimal =
          i > 0
              && i + 1 < line.length()
              && Character.isDigit(line.charAt(i - 1))
              && Character.isDigit(line.charAt(i + 1))
              && line.indexOf(", ") >= 0;
      if (!decimal) {
        cells.add(line.substring(start, i));
        start = i + 1;
      }
    }
    cells.add(line.substring(start));
    return cells;
  }

  /** Whether {@code line} is a query header; if so it becomes the current one. */
  boolean header(String line) {
    QueryHeader parsed = QueryHeader.of(cells(line));
    if (parsed == null) {
      return false;
    }
    header = parsed;
    headerLine = line;
    return true;
  }

  /** The current header's line, as given to {@link #header}, or null before any. */
  @Nullable String headerLine() {
    return headerLine;
  }

  boolean hasHeader() {
    return header != null;
  }

  /** The row's event, or a rejection reason in {@code problems}. */
  @Nullable EngineEvent row(String line, SourcePosition position, List<String> problems) {
    QueryHeader columns = header;
    if (columns == null) {
      problems.add("csv row before any header (noheader output: keep the header line)");
      return null;
    }
    List<String> cells = cells(line);
    if (cells.size() != columns.columns()) {
      problems.add(cells.size() + " fields, the header has " + columns.columns());
      return null;
    }
    Instant ts = null;
    int tsColumn = columns.column(Role.TIMESTAMP);
    if (tsColumn >= 0) {
      ts = SmiTimes.query(cells.get(tsColumn), zone);
      if (ts == null) {
        problems.add("bad timestamp '" + cells.get(tsColumn).strip() + "'");
        return null;
      }
    }
    Cells values = new Cells(columns, cells, problems);
    return columns.processes() ? process(values, ts, position) : sample(values, ts, position);
  }

  private @Nullable EngineEvent sample(Cells values, @Nullable Instant ts, SourcePosition at) {
    Integer index = values.integer(Role.INDEX);
    String uuid = values.text(Role.UUID);
    Double utilGpu = values.number(Role.UTIL_GPU);
    Double utilMem = values.number(Role.UTIL_MEM);
    Double memUsed = values.number(Role.MEM_USED);
    Double memTotal = values.number(Role.MEM_TOTAL);
    Double power = values.number(Role.POWER);
    Double clock = values.number(Role.SM_CLOCK);
    Double temperature = values.signed(Role.TEMPERATURE);
    if (values.failed()) {
      return null;
    }
    return new GpuSample(
        Engine.GPU,
        instance,
        ts,
        at,
        "query-gpu",
        null,
        index,
        uuid,
        utilGpu,
        utilMem,
        memUsed,
        memTotal,
        power,
        clock,
        temperature,
        null,
        values.unavailable());
  }

  private @Nullable EngineEvent process(Cells values, @Nullable Instant ts, SourcePosition at) {
    Integer pid = values.integer(Role.PID);
    String uuid = values.text(Role.UUID);
    Integer index = values.integer(Role.INDEX);
    String name = values.text(Role.PROCESS_NAME);
    Double used = values.number(Role.USED_MEMORY);
    if (values.failed()) {
      return null;
    }
    if (pid == null) {
      values.problems.add("no pid");
      return null;
    }
    return new GpuProcess(
        Engine.GPU,
        instance,
        ts,
        at,
        "compute-apps",
        index,
        uuid,
        pid,
        name,
        null,
        used,
        null,
        null);
  }

  /** Reads cells by role, collecting placeholders and problems. */
  private static final class Cells {
    private final QueryHeader header;
    private final List<String> cells;
    private final List<String> problems;
    private final StringBuilder unavailable = new StringBuilder();

    Cells(QueryHeader header, List<String> cells, List<String> problems) {
      this.header = header;
      this.cells = cells;
      this.problems = problems;
    }

    @Nullable String text(Role role) {
      int column = header.column(role);
      if (column < 0) {
        return null;
      }
      String text = cells.get(column).strip();
      if (text.isEmpty() || (text.startsWith("[") && text.endsWith("]")) || text.equals("N/A")) {
        note(column, text);
        return null;
      }
      return text;
    }

    @Nullable Double number(Role role) {
      Double value = signed(role);
      if (value != null && value < 0) {
        problems.add(header.names().get(header.column(role)) + " is negative: " + value);
        return null;
      }
      return value;
    }

    @Nullable Double signed(Role role) {
      int column = header.column(role);
      if (column < 0) {
        return null;
      }
      SmiValue value = SmiValue.of(cells.get(column));
      if (value.bad() != null) {
        problems.add(header.names().get(column) + ": " + value.bad());
      } else if (value.unavailable() != null) {
        note(column, value.unavailable());
      }
      return value.number();
    }

    @Nullable Integer integer(Role role) {
      Double value = number(role);
      if (value == null) {
        return null;
      }
      if (value != Math.rint(value) || value > Integer.MAX_VALUE) {
        problems.add(header.names().get(header.column(role)) + " is not a whole number");
        return null;
      }
      return value.intValue();
    }

    private void note(int column, String placeholder) {
      if (unavailable.length() > 0) {
        unavailable.append(' ');
      }
      unavailable.append(header.names().get(column)).append('=').append(placeholder);
    }

    boolean failed() {
      return !problems.isEmpty();
    }

    @Nullable String unavailable() {
      return unavailable.length() == 0 ? null : unavailable.toString();
    }
  }
}
