package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** An idle follower's status: printed when it changed, else once a minute, in the log's layout. */
final class StatusLineTest {
  @Test
  void anUnchangedStatusIsPrintedOncePerMinuteAndAChangedOneAtOnce() {
    StatusLine.Throttle throttle = new StatusLine.Throttle(Duration.ofMinutes(1));
    String idle = "ship: 0 lines/s, 0 events/s, lag 0 B in 1 files, 10 records committed";

    assertThat(throttle.next(idle, 0)).isEqualTo(idle);
    assertThat(throttle.next(idle, 10_000)).isNull();
    assertThat(throttle.next(idle, 59_999)).isNull();
    assertThat(throttle.next(idle, 60_000)).isEqualTo(idle);
    String busy = "ship: 12 lines/s, 12 events/s, lag 0 B in 1 files, 130 records committed";
    assertThat(throttle.next(busy, 70_000)).isEqualTo(busy);
    assertThat(throttle.next(idle, 80_000)).as("back to idle is a change").isEqualTo(idle);
    assertThat(throttle.next(idle, 90_000)).isNull();
  }

  @Test
  void statusLinesUseTheFollowMessagesLayout() {
    Clock clock = Clock.fixed(Instant.parse("2026-01-02T12:00:04.512Z"), ZoneOffset.UTC);

    assertThat(StatusLine.format("sink: 19980 rows/s, lag 12 records, 412 batches", clock))
        .isEqualTo("12:00:04.512 INFO sink - 19980 rows/s, lag 12 records, 412 batches");
  }
}
