package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs {@code tokentrace sql} in process and reads its JSON output. */
final class SqlRuns {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SqlRuns() {}

  /** The rows of {@code tokentrace sql --db DB NAME --format json -p k=v ...}; exit code 0. */
  static List<Map<String, Object>> rows(Path db, String name, String... params) {
    List<String> args = new ArrayList<>(List.of("sql", "--db", db.toString(), name));
    args.add("--format");
    args.add("json");
    for (String param : params) {
      args.add("--param");
      args.add(param);
    }
    Result result = run(args.toArray(String[]::new));
    assertThat(result.code()).as(result.err()).isZero();
    try {
      return JSON.readValue(result.out(), new TypeReference<List<Map<String, Object>>>() {});
    } catch (java.io.IOException e) {
      throw new AssertionError("not JSON: " + result.out(), e);
    }
  }

  static Result run(String... args) {
    var commandLine = TokentraceMain.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    commandLine.setOut(new PrintWriter(out));
    commandLine.setErr(new PrintWriter(err));
    int code = commandLine.execute(args);
    return new Result(code, out.toString(), err.toString());
  }

  static double number(Map<String, Object> row, String column) {
    Object value = row.get(column);
    assertThat(value).as(column + " in " + row).isInstanceOf(Number.class);
    return ((Number) value).doubleValue();
  }

  record Result(int code, String out, String err) {}
}
