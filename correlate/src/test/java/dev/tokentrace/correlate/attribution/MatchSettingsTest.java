package dev.tokentrace.correlate.attribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class MatchSettingsTest {
  @Test
  void defaults() {
    MatchSettings settings = MatchSettings.defaults();
    assertThat(settings.mode()).isEqualTo(MatchSettings.Mode.ID);
    assertThat(settings.heuristic()).isFalse();
    assertThat(settings.windowMs()).isEqualTo(1000.0);
    assertThat(settings.outputTokenTolerance()).isEqualTo(1);
    assertThat(settings.promptTokenTolerance()).isEqualTo(32);
    assertThat(AttributionSettings.defaults().match()).isEqualTo(settings);
  }

  @Test
  void explicitMapping() {
    MatchSettings settings = MatchSettings.from(" Heuristic ", 250.0, 3, 64);
    assertThat(settings).isEqualTo(new MatchSettings(MatchSettings.Mode.HEURISTIC, 250.0, 3, 64));
    assertThat(AttributionSettings.defaults().withMatch(settings).match().heuristic()).isTrue();
    assertThatThrownBy(() -> MatchSettings.from("fuzzy", null, null, null))
        .hasMessage("unknown --match 'fuzzy' (known: id, heuristic)");
    assertThatThrownBy(() -> MatchSettings.from(null, 0.0, null, null))
        .hasMessage("--match-window-ms must be finite and > 0: 0.0");
    assertThatThrownBy(() -> MatchSettings.from(null, null, -1, null))
        .hasMessage("--match-output-tokens must be >= 0: -1");
    assertThatThrownBy(() -> MatchSettings.from(null, null, null, -2))
        .hasMessage("--match-prompt-tokens must be >= 0: -2");
  }
}
