package dev.tokentrace.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.query.ColumnSelection;
import dev.tokentrace.store.query.NamedQueryRunner;
import dev.tokentrace.store.query.QueryOutputFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Formula injection in the CSV tokentrace prints (docs/privacy.md#csv-cells). */
final class CsvCellsTest {
  @Test
  void textStartingWithAFormulaTriggerGetsAQuoteNumbersDoNot() {
    assertThat(CsvCells.neutralise("=cmd|' /C calc'!A0")).isEqualTo("'=cmd|' /C calc'!A0");
    assertThat(CsvCells.neutralise("@SUM(A1)")).isEqualTo("'@SUM(A1)");
    assertThat(CsvCells.neutralise("+cmd")).isEqualTo("'+cmd");
    assertThat(CsvCells.neutralise("-2+3")).isEqualTo("'-2+3");
    assertThat(CsvCells.neutralise("\t=1")).isEqualTo("'\t=1");
    assertThat(CsvCells.neutralise("\r=1")).isEqualTo("'\r=1");
    assertThat(CsvCells.neutralise("-3.5")).isEqualTo("-3.5");
    assertThat(CsvCells.neutralise("+12")).isEqualTo("+12");
    assertThat(CsvCells.neutralise("-1e-3")).isEqualTo("-1e-3");
    assertThat(CsvCells.neutralise("chatcmpl-1")).isEqualTo("chatcmpl-1");
    assertThat(CsvCells.neutralise("")).isEmpty();
    assertThat(CsvCells.cell(-3.5)).isEqualTo("-3.5");
    assertThat(CsvCells.cell(null)).isEmpty();
  }

  @Test
  void sqlFormatCsvNeutralisesTextCellsAndHeadersNotNumbers() {
    try (Database database = Database.open(DatabaseSettings.inMemory())) {
      StringBuilder out = new StringBuilder();
      new NamedQueryRunner(database)
          .columns(new ColumnSelection(List.of(), List.of()))
          .runText(
              "-e",
              "SELECT '=cmd|'' /C calc''!A0' AS request_id, -3.5 AS network_ms, '@x' AS \"=h\"",
              Map.of(),
              QueryOutputFormat.CSV,
              out);

      assertThat(out.toString())
          .isEqualTo("request_id,network_ms,'=h\n'=cmd|' /C calc'!A0,-3.5,'@x\n");
    }
  }
}
