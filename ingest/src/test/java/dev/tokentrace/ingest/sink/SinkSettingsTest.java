package dev.tokentrace.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

final class SinkSettingsTest {
  private static final Path DB = Path.of("analysis.duckdb");

  @Test
  void defaults() {
    SinkSettings settings = SinkSettings.defaults(DB);

    assertThat(settings.db()).isEqualTo(DB);
    assertThat(settings.memoryLimit()).isEqualTo("1GB");
    assertThat(settings.threads()).isEqualTo(2);
    assertThat(settings.pollTimeout()).isEqualTo(Duration.ofMillis(200));
    assertThat(settings.stallTimeout()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void explicitMapping() {
    SinkSettings settings =
        new SinkSettings(
            Path.of("/data/x.duckdb"), "512MiB", 4, Duration.ofMillis(50), Duration.ofSeconds(5));

    assertThat(settings.db()).isEqualTo(Path.of("/data/x.duckdb"));
    assertThat(settings.memoryLimit()).isEqualTo("512MiB");
    assertThat(settings.threads()).isEqualTo(4);
    assertThat(settings.pollTimeout()).isEqualTo(Duration.ofMillis(50));
    assertThat(settings.stallTimeout()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void rejectsBadValuesNamingTheField() {
    Duration poll = SinkSettings.DEFAULT_POLL_TIMEOUT;
    Duration stall = SinkSettings.DEFAULT_STALL_TIMEOUT;
    assertThatThrownBy(() -> new SinkSettings(DB, "lots", 2, poll, stall))
        .hasMessage("--duckdb-memory-limit must be a size like 512MB or 2GB: 'lots'");
    assertThatThrownBy(() -> new SinkSettings(DB, "1GB", 0, poll, stall))
        .hasMessage("--duckdb-threads must be >= 1: 0");
    assertThatThrownBy(() -> new SinkSettings(DB, "1GB", 2, Duration.ZERO, stall))
        .hasMessage("pollTimeout must be > 0: PT0S");
    assertThatThrownBy(() -> new SinkSettings(DB, "1GB", 2, poll, Duration.ofMillis(10)))
        .hasMessageStartingWith("stallTimeout must be >= pollTimeout");
  }
}
