package dev.tokentrace.cli;

import dev.tokentrace.correlate.db.Database;
import dev.tokentrace.correlate.db.SqlHeader;
import dev.tokentrace.correlate.report.NamedQueryRunner;
import dev.tokentrace.correlate.report.QueryOutputFormat;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tokentrace sql}: runs a named root-cause query of {@code sql/queries/}. */
@Command(
    name = "sql",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Run a named root-cause query against the analysis database. 'sql --list' shows the"
          + " library with the question each query answers."
    })
final class SqlCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatabaseOptions database = new DatabaseOptions();

  @Parameters(
      paramLabel = "NAME",
      arity = "0..1",
      description = "query name, e.g. slowest_requests (see --list)")
  @Nullable String name;

  @Option(names = "--list", description = "list the named queries with their questions and params")
  boolean list;

  @Option(
      names = {"-p", "--param"},
      paramLabel = "KEY=VALUE",
      description = "a query parameter (repeatable)")
  List<String> params = new ArrayList<>();

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "table, csv or json",
      defaultValue = "table")
  String format = "table";

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (list) {
      for (SqlHeader header : NamedQueryRunner.list()) {
        out.println(header.name() + ": " + header.description());
      }
      out.flush();
      return ExitCodes.OK;
    }
    if (name == null) {
      throw new UsageException("give a query NAME or --list");
    }
    QueryOutputFormat outputFormat = QueryOutputFormat.fromId(format);
    try (Database db = Database.open(database.settings())) {
      new NamedQueryRunner(db).run(name, NamedQueryRunner.parseParams(params), outputFormat, out);
      out.flush();
      return ExitCodes.OK;
    }
  }
}
