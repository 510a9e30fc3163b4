package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.Numbers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * An HTML table of escaped cells; a header starting with {@code >} is a number column (right
 * aligned, sorted numerically), one starting with {@code ~} a text column that wraps (messages). A
 * sortable table carries each cell's sort value in {@code data-v} for the page's small script. Not
 * thread-safe.
 */
final class HtmlTable {
  /** One cell: the text shown and the value it sorts by. */
  record Cell(String shown, String sortValue) {
    static Cell text(@Nullable String value) {
      return new Cell(value == null ? "n/a" : value, value == null ? "" : value);
    }

    static Cell ms(@Nullable Double value) {
      return number(value, Numbers.ms(value));
    }

    static Cell share(@Nullable Double value) {
      return number(value, Numbers.share(value));
    }

    static Cell rate(@Nullable Double value) {
      return number(value, Numbers.rate(value));
    }

    static Cell count(@Nullable Number value) {
      return value == null
          ? new Cell("n/a", "")
          : new Cell(value.toString(), Long.toString(value.longValue()));
    }

    static Cell number(@Nullable Double value, String shown) {
      return new Cell(shown, value == null ? "" : String.format(Locale.ROOT, "%.6f", value));
    }
  }

  private final List<String> headers = new ArrayList<>();
  private final List<Boolean> numeric = new ArrayList<>();
  private final List<Boolean> wrapping = new ArrayList<>();
  private final List<List<Cell>> rows = new ArrayList<>();
  private final boolean sortable;
  private final String css;

  HtmlTable(String css, boolean sortable, String... headers) {
    this.css = css;
    this.sortable = sortable;
    for (String header : headers) {
      boolean number = header.startsWith(">");
      boolean wrap = header.startsWith("~");
      this.headers.add(number || wrap ? header.substring(1) : header);
      this.numeric.add(number);
      this.wrapping.add(wrap);
    }
  }

  HtmlTable row(Cell... cells) {
    if (cells.length != headers.size()) {
      throw new IllegalArgumentException(
          "row has " + cells.length + " cells, the table " + headers.size() + " columns");
    }
    rows.add(List.of(cells));
    return this;
  }

  /** A row of text cells. */
  HtmlTable row(String... cells) {
    return row(java.util.Arrays.stream(cells).map(Cell::text).toArray(Cell[]::new));
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  String render() {
    StringBuilder out =
        new StringBuilder("<div class=\"tw\"><table class=")
            .append(Html.attr(css + (sortable ? " sortable" : "")))
            .append("><thead><tr>");
    for (int column = 0; column < headers.size(); column++) {
      out.append("<th")
          .append(numeric.get(column) ? " class=\"n\" data-type=\"num\"" : "")
          .append(sortable ? " title=\"sort\"" : "")
          .append('>')
          .append(Html.text(headers.get(column)))
          .append("</th>");
    }
    out.append("</tr></thead><tbody>\n");
    for (List<Cell> row : rows) {
      out.append("<tr>");
      for (int column = 0; column < row.size(); column++) {
        Cell cell = row.get(column);
        out.append("<td");
        if (numeric.get(column)) {
          out.append(" class=\"n\"");
        } else if (wrapping.get(column)) {
          out.append(" class=\"w\"");
        }
        if (sortable) {
          out.append(" data-v=").append(Html.attr(cell.sortValue()));
        }
        out.append('>').append(Html.text(cell.shown())).append("</td>");
      }
      out.append("</tr>\n");
    }
    return out.append("</tbody></table></div>\n").toString();
  }
}
