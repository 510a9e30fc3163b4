package dev.tokentrace.correlate.attribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * vLLM's API server log ({@code Received request}) and its engine log ({@code Added request})
 * ingested as two files of one instance give the same arrival twice: it counts once, while a real
 * retry (a second arrival in the same file, or much later) stays a duplicate
 * (docs/formats/vllm-wild.md#added-request).
 */
final class ArrivalEchoTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private Database database;
  private Attributor attributor;

  @BeforeEach
  void open() {
    database = Database.open(DatabaseSettings.inMemory());
    attributor = new Attributor(database, HandComputedDataset.CLOCK);
    Rows rows = new Rows(database);
    // the API server's Received line and, a second later (1 s timestamps), the engine's Added line
    rows.client(Rows.Client.sent("run", "echoed", T0, 300, 1200, 40));
    rows.arrival("echoed", "gpu-0", T0, "api-server.log");
    rows.arrival("echoed", "gpu-0", T0.plusSeconds(1), "engine-core.log");
    // the engine log alone (an excerpt): its Added line is the arrival
    rows.client(Rows.Client.sent("run", "added-only", T0.plusSeconds(2), 300, 1200, 40));
    rows.arrival("added-only", "gpu-0", T0.plusSeconds(2), "engine-core.log");
    // a real retry: the same key arrives again 30 s later
    rows.client(Rows.Client.sent("run", "retried", T0.plusSeconds(3), 300, 1200, 40));
    rows.arrival("retried", "gpu-0", T0.plusSeconds(3), "api-server.log");
    rows.arrival("retried", "gpu-0", T0.plusSeconds(33), "engine-core.log");
    // two arrivals in one file at once are two arrivals, never merged
    rows.client(Rows.Client.sent("run", "twice", T0.plusSeconds(4), 300, 1200, 40));
    rows.arrival("twice", "gpu-0", T0.plusSeconds(4), "api-server.log");
    rows.arrival("twice", "gpu-0", T0.plusSeconds(4), "api-server.log");
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void anArrivalLoggedByTwoFilesOfOneInstanceCountsOnce() {
    attributor.run(AttributionSettings.defaults(), "test");

    assertThat(attributor.requests())
        .extracting(RequestAttribution::requestId, RequestAttribution::joinStatus)
        .containsExactly(
            tuple("echoed", "arrival_only"),
            tuple("added-only", "arrival_only"),
            tuple("retried", "duplicate"),
            tuple("twice", "duplicate"));
    assertThat(attributor.dataQuality().serverRetriedKeys()).isEqualTo(2);
  }
}
