package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.event.Engine;
import dev.tokentrace.ingest.follow.FollowSettings;
import dev.tokentrace.ingest.follow.InstanceNaming;
import dev.tokentrace.ingest.follow.SourceSpec;
import dev.tokentrace.ingest.follow.StartAt;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

final class FollowOptionsTest {
  @Test
  void defaults() {
    ShipCommand ship = parse("--bootstrap-servers", "k:9092", "/logs/server.log");
    FollowSettings settings = ship.follow.settings(ship.files, ship.parse);

    assertThat(ship.follow.enabled()).isFalse();
    assertThat(settings.shipperId()).isEqualTo(FollowOptions.defaultShipperId());
    assertThat(settings.sources()).containsExactly(new SourceSpec("/logs/server.log", null));
    assertThat(settings.instance()).isEqualTo("default");
    assertThat(settings.naming()).isEqualTo(InstanceNaming.FIXED);
    assertThat(settings.engine()).isNull();
    assertThat(settings.startAt()).isEqualTo(StartAt.BEGINNING);
    assertThat(settings.once()).isFalse();
    assertThat(settings.timing()).isEqualTo(FollowSettings.Timing.defaults());
    assertThat(ship.follow.status).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void explicitMapping() {
    ShipCommand ship =
        parse(
            "--follow",
            "--once",
            "--shipper-id",
            "gpu-host-7",
            "--instance",
            "fallback",
            "--instance-from",
            "DIR",
            "--engine",
            "sglang",
            "--year",
            "2025",
            "--start-at",
            "end",
            "--poll-interval",
            "50ms",
            "--commit-interval",
            "1s",
            "--detect-timeout",
            "2m",
            "--rotated-grace",
            "3s",
            "--max-pending-records",
            "500",
            "--status-interval",
            "0s",
            "vllm-0=/logs/a.log",
            "/logs/*/server.log");
    FollowSettings settings = ship.follow.settings(ship.files, ship.parse);

    assertThat(ship.follow.enabled()).isTrue();
    assertThat(settings.shipperId()).isEqualTo("gpu-host-7");
    assertThat(settings.sources())
        .containsExactly(
            new SourceSpec("/logs/a.log", "vllm-0"), new SourceSpec("/logs/*/server.log", null));
    assertThat(settings.instance()).isEqualTo("fallback");
    assertThat(settings.naming()).isEqualTo(InstanceNaming.DIR);
    assertThat(settings.engine()).isEqualTo(Engine.SGLANG);
    assertThat(settings.year()).isEqualTo(2025);
    assertThat(settings.startAt()).isEqualTo(StartAt.END);
    assertThat(settings.once()).isTrue();
    assertThat(settings.timing())
        .isEqualTo(
            new FollowSettings.Timing(
                Duration.ofMillis(50),
                Duration.ofSeconds(1),
                FollowSettings.Timing.DEFAULT_RESCAN,
                Duration.ofMinutes(2),
                Duration.ofSeconds(3),
                500));
    assertThat(ship.follow.status).isZero();
  }

  @Test
  void badChoicesAreUsageErrorsListedTogether() {
    ShipCommand ship =
        parse("--instance-from", "host", "--start-at", "middle", "bad name=/a.log", "/b.log");

    assertThatThrownBy(() -> ship.follow.settings(ship.files, ship.parse))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("--instance-from 'host' is not one of fixed, dir, file")
        .hasMessageContaining("--start-at 'middle' is not one of beginning, end");
  }

  @Test
  void durationsReadAsPeopleWriteThem() {
    DurationConverter converter = new DurationConverter();

    assertThat(converter.convert("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(converter.convert(" 2s")).isEqualTo(Duration.ofSeconds(2));
    assertThat(converter.convert("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(converter.convert("1h")).isEqualTo(Duration.ofHours(1));
    assertThatThrownBy(() -> converter.convert("PT1S"))
        .hasMessage("'PT1S' is not a duration like 250ms, 2s, 5m or 1h");
  }

  private static ShipCommand parse(String... args) {
    ShipCommand ship = new ShipCommand();
    new CommandLine(ship).parseArgs(args);
    return ship;
  }
}
