package dev.tokentrace.store.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class MarkdownTableTest {
  @Test
  void padsColumnsAndAlignsNumbersRight() {
    String table = new MarkdownTable("name", ">ms").row("decode", "250.0").row("q", "1.5").render();
    assertThat(table)
        .isEqualTo(
            "| name   |    ms |\n"
                + "| ------ | ----: |\n"
                + "| decode | 250.0 |\n"
                + "| q      |   1.5 |\n");
  }

  @Test
  void escapesCellText() {
    assertThat(MarkdownTable.escape("a|b\\c\r\nd")).isEqualTo("a\\|b\\\\c  d");
  }

  @Test
  void refusesRowsOfTheWrongWidth() {
    assertThatThrownBy(() -> new MarkdownTable("a", "b").row("only one"))
        .hasMessage("row has 1 cells, the table 2 columns");
  }
}
