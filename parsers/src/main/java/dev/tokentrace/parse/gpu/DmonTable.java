package dev.tokentrace.parse.gpu;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.GpuProcess;
import dev.tokentrace.event.GpuSample;
import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code nvidia-smi dmon} and {@code pmon} tables (docs/formats/gpu.md#dmon-and-pmon): a {@code #}
 * line naming the columns ({@code # gpu pwr gtemp …}, {@code #Date Time gpu …} with {@code -o DT};
 * pmon's has {@code pid}), a {@code #} line of units, then whitespace-separated rows. Any {@code
 * -s} selection is read by column name; {@code -} is a value the GPU does not give. The header
 * repeats every few rows and after a restart; each one replaces the last. Not thread-safe.
 */
final class DmonTable {
  private final String instance;
  private final ZoneId zone;
  private @Nullable List<String> columns;
  private boolean pmon;
  private @Nullable String columnLine;

  DmonTable(String instance, ZoneId zone) {
    this.instance = instance;
    this.zone = zone;
  }

  /**
   * Whether {@code line} (starting with {@code #}) is a dmon/pmon header; a column line becomes the
   * current columns, a unit line is recognised and left alone.
   */
  boolean header(String line) {
    List<String> tokens = Arrays.asList(line.substring(1).strip().split("\\s+"));
    if (tokens.contains("gpu")) {
      columns = tokens;
      pmon = tokens.contains("pid");
      columnLine = line;
      return true;
    }
    return tokens.contains("Idx");
  }

  /** The current column line, as given to {@link #header}, or null before any. */
  @Nullable String columnLine() {
    return columnLine;
  }

  boolean active() {
    return columns != null;
  }

  /** The row's event, null for pmon's no-process rows, or a reason in {@code problems}. */
  @Nullable EngineEvent row(String line, SourcePosition position, List<String> problems) {
    List<String> names = columns;
    if (names == null) {
      problems.add("dmon row before its header");
      return null;
    }
    String[] cells = line.strip().split("\\s+");
    if (cells.length != names.size()) {
      problems.add(cells.length + " fields, the header has " + names.size());
      return null;
    }
    Row row = new Row(names, cells, problems);
    Instant ts = null;
    if (names.contains("Date") && names.contains("Time")) {
      ts = SmiTimes.dmon(row.raw("Date"), row.raw("Time"), zone);
      if (ts == null) {
        problems.add("bad date/time '" + row.raw("Date") + " " + row.raw("Time") + "'");
        return null;
      }
    }
    return pmon ? process(row, ts, position) : sample(row, ts, position);
  }

  private @Nullable EngineEvent sample(Row row, @Nullable Instant ts, SourcePosition at) {
    Double index = row.number("gpu");
    Double power = row.number("pwr");
    Double temperature = row.number("gtemp");
    Double sm = row.number("sm");
    Double mem = row.number("mem");
    Double clock = row.number("pclk");
    Double fb = row.number("fb");
    if (!row.problems.isEmpty()) {
      return null;
    }
    return new GpuSample(
        Engine.GPU,
        instance,
        ts,
        at,
        "dmon",
        null,
        index == null ? null : index.intValue(),
        null,
        sm,
        mem,
        fb,
        null,
        power,
        clock,
        temperature,
        null,
        row.unavailable());
  }

  private @Nullable EngineEvent process(Row row, @Nullable Instant ts, SourcePosition at) {
    if ("-".equals(row.raw("pid"))) {
      return null; // pmon prints a row of dashes for a GPU with no process
    }
    Double index = row.number("gpu");
    Double pid = row.number("pid");
    Double sm = row.number("sm");
    Double mem = row.number("mem");
    Double fb = row.number("fb");
    if (!row.problems.isEmpty()) {
      return null;
    }
    if (pid == null) {
      row.problems.add("no pid");
      return null;
    }
    String type = row.raw("type");
    String command = row.raw("command");
    return new GpuProcess(
        Engine.GPU,
        instance,
        ts,
        at,
        "pmon",
        index == null ? null : index.intValue(),
        null,
        pid.longValue(),
        command == null || command.equals("-") ? null : command,
        type == null || type.equals("-") ? null : type,
        fb,
        sm,
        mem);
  }

  /** One row's cells by column name. */
  private static final class Row {
    private final List<String> names;
    private final String[] cells;
    private final List<String> problems;
    private final StringBuilder unavailable = new StringBuilder();

    Row(List<String> names, String[] cells, List<String> problems) {
      this.names = names;
      this.cells = cells;
      this.problems = problems;
    }

    @Nullable String raw(String name) {
      int column = names.indexOf(name);
      return column < 0 ? null : cells[column];
    }

    @Nullable Double number(String name) {
      String cell = raw(name);
      if (cell == null) {
        return null;
      }
      SmiValue value = SmiValue.of(cell);
      if (value.bad() != null) {
        problems.add(name + ": " + value.bad());
        return null;
      }
      if (value.unavailable() != null) {
        if (unavailable.length() > 0) {
          unavailable.append(' ');
        }
        unavailable.append(name).append('=').append(value.unavailable());
        return null;
      }
      Double number = value.number();
      if (number != null && number < 0) {
        problems.add(name + " is negative: " + number);
        return null;
      }
      return number;
    }

    @Nullable String unavailable() {
      return unavailable.length() == 0 ? null : unavailable.toString();
    }
  }
}
