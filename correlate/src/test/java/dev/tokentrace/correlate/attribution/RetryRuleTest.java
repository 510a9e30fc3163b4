package dev.tokentrace.correlate.attribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A request the client retried with the same ID: the server saw several attempts, the client file
 * has one row, the final attempt's. One rule for every engine (per_request.sql "retries"): the
 * record that attempt left is attributed, marked retried, when it can be told apart (the only
 * completed one, or the last to arrive by the client's send + the window); otherwise the key stays
 * a duplicate.
 */
final class RetryRuleTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private Database database;
  private Rows rows;
  private Attributor attributor;

  @BeforeEach
  void open() {
    database = Database.open(DatabaseSettings.inMemory());
    rows = new Rows(database);
    attributor = new Attributor(database, HandComputedDataset.CLOCK);
    // five clean requests give the run its clock offset (3 ms: the uplink)
    for (int i = 0; i < 5; i++) {
      rows.client(Rows.Client.sent("run", "clean-" + i, T0.plusSeconds(100 + i), 300, 1200, 40));
      rows.timing(Rows.Timing.span("clean-" + i, T0.plusSeconds(100 + i).plusMillis(3), 40));
    }
  }

  @AfterEach
  void close() {
    database.close();
  }

  private Map<String, RequestAttribution> attribute() {
    attributor.run(AttributionSettings.defaults(), "test");
    return attributor.requests().stream()
        .collect(Collectors.toMap(RequestAttribution::requestId, request -> request));
  }

  @Test
  void attributesSglangsCompletedAttemptAndPassesOverTheAbortedOnesFinish() {
    // SGLang logs Finish for the attempt the client gave up on (finish_reason abort, e2e only),
    // then Receive and Finish of the retry; the metrics export has the retry only
    rows.client(Rows.Client.sent("run", "sg", T0.plusSeconds(11), 300, 1200, 40));
    rows.arrival("sg", "gpu-0", T0);
    rows.abortedFinish("sg", "gpu-0", 11_007.0);
    rows.aborted("sg", "gpu-0");
    rows.arrival("sg", "gpu-0", T0.plusSeconds(11));
    rows.timing(Rows.Timing.span("sg", T0.plusSeconds(11).plusMillis(3), 40).kind("meta_info"));
    rows.timing(Rows.Timing.span("sg", T0.plusSeconds(11).plusMillis(3), 40).kind("metrics"));

    RequestAttribution retried = attribute().get("sg");
    assertThat(retried.joinStatus()).isEqualTo("matched");
    assertThat(retried.retried()).isTrue();
    assertThat(retried.attemptRule()).isEqualTo("only_completed");
    assertThat(retried.duplicateReason()).isNull();
    assertThat(retried.included()).isTrue();
    assertThat(retried.networkMs()).as("1200 - (2 + 20 + 100)").isEqualTo(1078.0);
    assertThat(attributor.dataQuality().retriedAttributedRows()).isEqualTo(1);
    assertThat(attributor.dataQuality().duplicateServerKeys())
        .as("the aborted Finish is not a second record")
        .isZero();
  }

  @Test
  void attributesVllmsOnlySpanWhenTheServerSawTheIdArriveTwice() {
    // vLLM: Received twice, Aborted once, one span (the completed attempt's)
    rows.client(Rows.Client.sent("run", "vl", T0.plusSeconds(12), 300, 1200, 40));
    rows.arrival("vl", "gpu-0", T0);
    rows.aborted("vl", "gpu-0");
    rows.arrival("vl", "gpu-0", T0.plusSeconds(12));
    rows.timing(Rows.Timing.span("vl", T0.plusSeconds(12).plusMillis(3), 40));

    RequestAttribution retried = attribute().get("vl");
    assertThat(retried.joinStatus()).isEqualTo("matched");
    assertThat(retried.retried()).isTrue();
    assertThat(retried.attemptRule()).isEqualTo("only_completed");
    assertThat(retried.included()).isTrue();
  }

  @Test
  void takesTheLastAttemptToArriveByTheClientsSendWhenSeveralCompleted() {
    // the first attempt completed on the server after the client had given up
    rows.client(Rows.Client.sent("run", "twice", T0.plusSeconds(30), 300, 1200, 40));
    rows.arrival("twice", "gpu-0", T0);
    rows.arrival("twice", "gpu-0", T0.plusSeconds(30));
    rows.timing(
        new Rows.Timing("twice", "gpu-0", T0.plusMillis(3), 50.0, 20.0, 100.0, 100, 40, "otlp"));
    rows.timing(Rows.Timing.span("twice", T0.plusSeconds(30).plusMillis(3), 40));

    RequestAttribution retried = attribute().get("twice");
    assertThat(retried.joinStatus()).isEqualTo("matched");
    assertThat(retried.attemptRule()).isEqualTo("latest_arrival");
    assertThat(retried.queueMs()).as("the second attempt's").isEqualTo(2.0);
    assertThat(retried.serverRows()).isEqualTo(2);
  }

  @Test
  void keepsADuplicateWhenNoRecordCanBeShownToBeTheFinalAttempts() {
    // two completed attempts without arrival times
    rows.client(Rows.Client.sent("run", "untimed", T0.plusSeconds(30), 300, 1200, 40));
    rows.arrival("untimed", "gpu-0", T0);
    rows.arrival("untimed", "gpu-0", T0.plusSeconds(30));
    rows.timing(Rows.Timing.span("untimed", null, 40));
    rows.timing(Rows.Timing.span("untimed", null, 40));
    // the one completed record arrived long before the client's final send: the final attempt left
    // none
    rows.client(Rows.Client.sent("run", "stale", T0.plusSeconds(60), 300, 1200, 40));
    rows.arrival("stale", "gpu-0", T0.plusSeconds(45));
    rows.arrival("stale", "gpu-0", T0.plusSeconds(60));
    rows.timing(Rows.Timing.span("stale", T0.plusSeconds(45), 40));

    Map<String, RequestAttribution> byId = attribute();
    assertThat(byId.values())
        .filteredOn(request -> !request.requestId().startsWith("clean"))
        .extracting(
            RequestAttribution::requestId,
            RequestAttribution::joinStatus,
            RequestAttribution::duplicateReason,
            RequestAttribution::retried,
            RequestAttribution::attemptRule,
            RequestAttribution::included)
        .containsExactlyInAnyOrder(
            tuple("untimed", "duplicate", "server records, server arrivals", true, null, false),
            tuple("stale", "duplicate", "server arrivals", true, null, false));
  }

  @Test
  void marksNothingRetriedWithoutASecondAttempt() {
    // n = 2 children: two spans, one arrival, nothing aborted
    rows.client(Rows.Client.sent("run", "children", T0.plusSeconds(5), 300, 1200, 40));
    rows.arrival("children", "gpu-0", T0.plusSeconds(5));
    rows.timing(Rows.Timing.span("children", T0.plusSeconds(5).plusMillis(3), 40));
    rows.timing(Rows.Timing.span("children", T0.plusSeconds(5).plusMillis(4), 40));
    // one attempt, aborted: no completed record to call a retry
    rows.client(Rows.Client.sent("run", "gave-up", T0.plusSeconds(6), 300, 1200, 40));
    rows.abortedFinish("gave-up", "gpu-0", 800.0);

    Map<String, RequestAttribution> byId = attribute();
    assertThat(byId.get("children").joinStatus()).isEqualTo("duplicate");
    assertThat(byId.get("children").duplicateReason()).isEqualTo("server records");
    assertThat(byId.get("children").retried()).isFalse();
    assertThat(byId.get("gave-up").joinStatus()).isEqualTo("matched");
    assertThat(byId.get("gave-up").retried()).isFalse();
    assertThat(byId.get("clean-0").retried()).isFalse();
  }
}
