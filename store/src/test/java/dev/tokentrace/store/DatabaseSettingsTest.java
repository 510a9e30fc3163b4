package dev.tokentrace.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

final class DatabaseSettingsTest {
  @Test
  void defaults() {
    DatabaseSettings settings = DatabaseSettings.from(null, null, null);
    assertThat(settings.file()).isNull();
    assertThat(settings.memoryLimit()).isEqualTo("1GB");
    assertThat(settings.threads()).isEqualTo(2);
    assertThat(DatabaseSettings.inMemory()).isEqualTo(settings);
  }

  @Test
  void explicitMapping() {
    DatabaseSettings settings = DatabaseSettings.from(Path.of("a.duckdb"), " 512MB ", 4);
    assertThat(settings.file()).isEqualTo(Path.of("a.duckdb"));
    assertThat(settings.memoryLimit()).isEqualTo("512MB");
    assertThat(settings.threads()).isEqualTo(4);
  }

  @Test
  void rejectsBadValuesNamingTheField() {
    assertThatThrownBy(() -> DatabaseSettings.from(null, "lots", null))
        .hasMessageContaining("--duckdb-memory-limit must be a size");
    assertThatThrownBy(() -> DatabaseSettings.from(null, null, 0))
        .hasMessage("--duckdb-threads must be >= 1: 0");
  }
}
