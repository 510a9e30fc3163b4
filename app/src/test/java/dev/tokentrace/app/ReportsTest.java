package dev.tokentrace.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.HandComputedDataset;
import dev.tokentrace.report.ReportService;
import dev.tokentrace.report.ReportSettings;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report use case gives the report the report service gives, whether it attributes first (no
 * attribution stored) or reuses the stored one with the results {@code correlate} stored
 * (docs/design.md#application-layer, docs/design.md#stored-report-results).
 */
final class ReportsTest {
  private static final ReportSettings SETTINGS =
      ReportSettings.from("md", AttributionSettings.defaults());

  @TempDir Path dir;

  @Test
  void attributesFirstWhenNothingIsStored() throws Exception {
    try (Database app = Database.open(DatabaseSettings.inMemory());
        Database service = Database.open(DatabaseSettings.inMemory())) {
      HandComputedDataset.load(app, dir);
      HandComputedDataset.load(service, dir);
      String viaApp = markdown(reports(app));
      String viaService = markdown(service);
      assertThat(viaApp).isNotEmpty().isEqualTo(viaService);
    }
  }

  @Test
  void reusesAStoredAttributionAndItsResults() throws Exception {
    try (Database db = Database.open(DatabaseSettings.inMemory())) {
      HandComputedDataset.load(db, dir);
      Correlation correlation =
          new Correlation(db, HandComputedDataset.CLOCK, CorrelateEngines.standard());
      String run =
          correlation.run(CorrelateRequest.batch(SETTINGS.attribution(), "test")).result().runId();
      String fromStored = markdown(reports(db));
      assertThat(correlation.current(SETTINGS.attribution())).isEqualTo(run);
      assertThat(fromStored).isEqualTo(markdown(db));
    }
  }

  private static Reports reports(Database db) {
    return new Reports(db, HandComputedDataset.CLOCK, CorrelateEngines.standard());
  }

  private static String markdown(Reports reports) throws Exception {
    StringBuilder out = new StringBuilder();
    reports.write(SETTINGS, "test", out);
    return out.toString();
  }

  private static String markdown(Database db) throws Exception {
    StringBuilder out = new StringBuilder();
    new ReportService(db, HandComputedDataset.CLOCK).write(SETTINGS, "test", out);
    return out.toString();
  }
}
