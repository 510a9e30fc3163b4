package dev.tokentrace.correlate.attribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Incremental attribution ({@link Attributor#incremental}, docs/design.md#incremental-attribution)
 * equals the batch attribution after every round, while rows arrive late on either side: client
 * rows after their server rows, server records and retried attempts after their client rows, a
 * client retry, a second run on a monotonic clock, clock offsets that move with every new pair. Two
 * databases get the same rows; one is attributed incrementally round after round, the other from
 * scratch each time.
 */
final class IncrementalAttributionTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private Database live;
  private Database batch;
  private Rows liveRows;
  private Rows batchRows;
  private Attributor incremental;
  private Attributor full;

  @BeforeEach
  void open() {
    live = Database.open(DatabaseSettings.inMemory());
    batch = Database.open(DatabaseSettings.inMemory());
    liveRows = new Rows(live);
    batchRows = new Rows(batch);
    incremental = new Attributor(live, HandComputedDataset.CLOCK).incremental();
    full = new Attributor(batch, HandComputedDataset.CLOCK);
  }

  @AfterEach
  void close() {
    live.close();
    batch.close();
  }

  @Test
  void everyRoundEqualsTheBatchResultWhileRowsArriveLateOnEitherSide() {
    // round 1: the server's rows of k0..k19 only (arrivals and spans), an aborted first attempt
    both(
        rows -> {
          for (int i = 0; i < 20; i++) {
            rows.arrival("k" + i, "gpu-0", arrival(i));
            rows.timing(Rows.Timing.span("k" + i, arrival(i), 40));
          }
          rows.arrival("server-retry", "gpu-0", T0.plusSeconds(40));
          rows.aborted("server-retry", "gpu-0");
          rows.timing(Rows.Timing.span("children", T0.plusSeconds(41), 40));
        });
    round();
    assertThat(incremental.lastRound()).contains("every request").contains("no incremental");

    // round 2: late client rows for half of them, and for the retried and the n > 1 request
    both(
        rows -> {
          for (int i = 0; i < 10; i++) {
            rows.client(Rows.Client.sent("run", "k" + i, start(i), 300, 1200, 40));
          }
          rows.client(Rows.Client.sent("run", "server-retry", T0.plusSeconds(40), 300, 1200, 40));
          rows.client(Rows.Client.sent("run", "children", T0.plusSeconds(41), 300, 1200, 40));
        });
    round();
    assertThat(incremental.lastRound()).contains("12 with new or changed rows");

    // round 3: late server rows (the retry's second attempt, the second child, new requests)
    // and the other half's client rows: the run's clock offset moves
    both(
        rows -> {
          rows.arrival("server-retry", "gpu-0", T0.plusSeconds(70));
          rows.timing(Rows.Timing.span("server-retry", T0.plusSeconds(70), 40));
          rows.timing(Rows.Timing.span("children", T0.plusSeconds(41), 40));
          for (int i = 20; i < 25; i++) {
            rows.timing(Rows.Timing.span("k" + i, arrival(i), 40));
          }
          for (int i = 10; i < 20; i++) {
            rows.client(Rows.Client.sent("run", "k" + i, start(i), 300, 1200, 40));
          }
        });
    round();
    assertThat(incremental.lastRound()).contains("new clock offsets").doesNotContain("every");

    // round 4: the clients of the new requests, a client retry of k3 (a second row), an ID the
    // server never saw, and a second run on a monotonic clock whose server rows came earlier
    both(
        rows -> {
          for (int i = 20; i < 25; i++) {
            rows.client(Rows.Client.sent("run", "k" + i, start(i), 300, 1200, 40));
          }
          rows.client(Rows.Client.sent("run", "k3", start(3).plusSeconds(30), 300, 1200, 40));
          rows.client(Rows.Client.local("run", "local-1", 300, 1200, 100, 40));
          for (int i = 0; i < 6; i++) {
            rows.client(
                Rows.Client.sent("run-b", "m" + i, null, 300, 1200, 40).withMono(100.0 + i, 0.5));
          }
        });
    round();
    both(
        rows -> {
          for (int i = 0; i < 6; i++) {
            rows.timing(Rows.Timing.span("m" + i, T0.plusSeconds(200 + i).plusMillis(9 + i), 40));
          }
        });
    round();

    // round 6: nothing new: nothing attributed again
    round();
    assertThat(incremental.lastRound()).startsWith("attributed 0 request key(s) again");

    // round 7: two new pairs, one on each side of the run's median: its offset stays and only its
    // pair count grows, which no attributed row reads, so no other row is realigned
    both(
        rows -> {
          for (int i : new int[] {28, 34}) {
            rows.arrival("k" + i, "gpu-0", arrival(i));
            rows.timing(Rows.Timing.span("k" + i, arrival(i), 40));
            rows.client(Rows.Client.sent("run", "k" + i, start(i), 300, 1200, 40));
          }
        });
    round();
    assertThat(incremental.lastRound())
        .startsWith("attributed 2 request key(s) again")
        .doesNotContain("clock offsets");
  }

  @Test
  void aBatchRunInBetweenMakesTheNextRoundRecomputeEverything() {
    both(
        rows -> {
          rows.client(Rows.Client.sent("run", "k0", start(0), 300, 1200, 40));
          rows.timing(Rows.Timing.span("k0", arrival(0), 40));
        });
    round();
    new Attributor(live, HandComputedDataset.CLOCK).run(AttributionSettings.defaults(), "batch");
    both(rows -> rows.timing(Rows.Timing.span("k1", arrival(1), 40)));
    round();
    assertThat(incremental.lastRound()).contains("every request").contains("no incremental");
    round();
    assertThat(incremental.lastRound()).startsWith("attributed 0 request key(s) again");
  }

  private void both(Consumer<Rows> rows) {
    rows.accept(liveRows);
    rows.accept(batchRows);
  }

  /** One round on each side; the two attributions, offsets and counts must be equal. */
  private void round() {
    incremental.run(AttributionSettings.defaults(), "test --follow");
    full.run(AttributionSettings.defaults(), "test");
    List<RequestAttribution> expected = full.requests();
    assertThat(incremental.requests()).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(incremental.clockOffsets()).isEqualTo(full.clockOffsets());
    assertThat(incremental.dataQuality()).isEqualTo(full.dataQuality());
  }

  private static Instant start(int i) {
    return T0.plusSeconds(i);
  }

  /** The server saw request i 5 to 11 ms after the client's start: the median moves per round. */
  private static Instant arrival(int i) {
    return start(i).plusMillis(5 + i % 7);
  }
}
