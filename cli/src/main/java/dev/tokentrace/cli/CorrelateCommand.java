package dev.tokentrace.cli;

import dev.tokentrace.correlate.attribution.AttributionCsvWriter;
import dev.tokentrace.correlate.attribution.AttributionResult;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.store.Database;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tokentrace correlate}: joins client and server by request key and attributes latency. */
@Command(
    name = "correlate",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Join client timings with server records by request key and attribute each request's"
          + " latency:",
      "  network_ttft = client_ttft - client_queue - (queue + prefill)",
      "  network      = client_e2e  - client_queue - (queue + prefill + decode)",
      "Rows land in the request_attribution table; --out also writes them as CSV, one row per"
          + " client request (matched or not)."
    })
final class CorrelateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatabaseOptions database = new DatabaseOptions();

  @Mixin AttributionOptions rules = new AttributionOptions();

  @Option(
      names = "--out",
      paramLabel = "CSV",
      description = "also write the per-request attribution as CSV here")
  @Nullable Path out;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    try (Database db = Database.open(database.settings())) {
      Attributor attributor = new Attributor(db, Clock.systemUTC());
      AttributionResult result = attributor.run(rules.settings(), CommandLines.of(spec));
      if (out != null) {
        new AttributionCsvWriter(db).write(out);
        err.println("attribution: " + out);
      }
      err.println(result.dataQuality().summary());
      String vantage = attributor.vantageSummary();
      if (vantage != null) {
        err.println(vantage);
      }
      err.flush();
      return ExitCodes.OK;
    }
  }
}
