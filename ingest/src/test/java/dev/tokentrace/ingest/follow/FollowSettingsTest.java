package dev.tokentrace.ingest.follow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.parse.LineSplitter;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

final class FollowSettingsTest {
  @Test
  void defaults() {
    FollowSettings.Timing timing = FollowSettings.Timing.defaults();

    assertThat(timing.poll()).isEqualTo(Duration.ofMillis(100));
    assertThat(timing.commit()).isEqualTo(Duration.ofMillis(200));
    assertThat(timing.rescan()).isEqualTo(Duration.ofSeconds(1));
    assertThat(timing.detect()).isEqualTo(Duration.ofSeconds(10));
    assertThat(timing.rotatedGrace()).isEqualTo(Duration.ofSeconds(5));
    assertThat(timing.maxPendingRecords()).isEqualTo(20_000);
  }

  @Test
  void explicitMapping() {
    FollowSettings settings =
        new FollowSettings(
            "host-1",
            List.of(SourceSpec.parse("a=/logs/a.log")),
            "vllm-0",
            InstanceNaming.DIR,
            null,
            ZoneOffset.UTC,
            2026,
            LineSplitter.DEFAULT_MAX_LINE_BYTES,
            StartAt.END,
            true,
            FollowSettings.Timing.defaults());

    assertThat(settings.transactionalId()).isEqualTo("tokentrace-ship-host-1");
    assertThat(settings.sources()).containsExactly(new SourceSpec("/logs/a.log", "a"));
    assertThat(settings.naming()).isEqualTo(InstanceNaming.DIR);
    assertThat(settings.startAt()).isEqualTo(StartAt.END);
    assertThat(settings.once()).isTrue();
  }

  @Test
  void validatesItsValues() {
    assertThatThrownBy(
            () ->
                new FollowSettings(
                    "has space",
                    List.of(SourceSpec.parse("/a.log")),
                    "i",
                    InstanceNaming.FIXED,
                    null,
                    ZoneOffset.UTC,
                    null,
                    1,
                    StartAt.BEGINNING,
                    false,
                    FollowSettings.Timing.defaults()))
        .hasMessage("shipperId must match [A-Za-z0-9._-]+: 'has space'");
    assertThatThrownBy(
            () ->
                new FollowSettings.Timing(
                    Duration.ZERO,
                    Duration.ofMillis(1),
                    Duration.ZERO,
                    Duration.ZERO,
                    Duration.ZERO,
                    1))
        .hasMessage("poll and commit intervals must be > 0");
  }
}
