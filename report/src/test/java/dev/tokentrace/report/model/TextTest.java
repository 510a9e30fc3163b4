package dev.tokentrace.report.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

final class TextTest {
  @Test
  void formatsNumbersIntoProseAndKeepsCodeAsCode() {
    Text text =
        Text.format(
            "Run %s: %d of %s, %.1f%% (%s).",
            Inline.code("bench<1>"), 3, "4 requests", 75.0, Text.of("see ", Inline.whole("sql")));

    assertThat(text.parts())
        .containsExactly(
            new Inline.Plain("Run "),
            new Inline.Code("bench<1>"),
            new Inline.Plain(": 3 of 4 requests, 75.0% (see "),
            new Inline.Code("sql"),
            new Inline.Plain(")."));
    assertThat(text.plain()).isEqualTo("Run bench<1>: 3 of 4 requests, 75.0% (see sql).");
  }

  @Test
  void formatsWithTheRootLocaleAndSigns() {
    assertThat(Text.format("%+.1f ms, %s", 1234.56, null).plain()).isEqualTo("+1234.6 ms, null");
  }

  @Test
  void rejectsArgumentsWithoutASpecifier() {
    assertThatThrownBy(() -> Text.format("no specifier", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no specifier");
  }

  @Test
  void cutsLongCodeInProseButNotWholeCode() {
    String log = "x".repeat(200);

    assertThat(Inline.code(log).text()).hasSize(Inline.MAX_PROSE).endsWith("…");
    assertThat(Inline.whole(log).text()).isEqualTo(log);
  }

  @Test
  void joinsTextsWithAPlainSeparator() {
    Text joined = Text.join(" ", List.of(Text.of("a", Inline.code("b")), Text.of("c")));

    assertThat(joined.parts())
        .containsExactly(new Inline.Plain("a"), new Inline.Code("b"), new Inline.Plain(" c"));
  }
}
