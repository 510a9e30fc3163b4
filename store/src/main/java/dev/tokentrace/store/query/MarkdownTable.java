package dev.tokentrace.store.query;

import java.util.ArrayList;
import java.util.List;

/**
 * A Markdown pipe table padded so its columns line up in a terminal. A header starting with {@code
 * >} is right-aligned (numbers). Cells are escaped: {@code |} and line breaks from log-derived text
 * cannot break the table. Not thread-safe.
 */
public final class MarkdownTable {
  private final List<String> headers = new ArrayList<>();
  private final List<Boolean> right = new ArrayList<>();
  private final List<List<String>> rows = new ArrayList<>();

  public MarkdownTable(String... headers) {
    for (String header : headers) {
      boolean alignRight = header.startsWith(">");
      this.headers.add(alignRight ? header.substring(1) : header);
      this.right.add(alignRight);
    }
  }

  public MarkdownTable row(String... cells) {
    if (cells.length != headers.size()) {
      throw new IllegalArgumentException(
          "row has " + cells.length + " cells, the table " + headers.size() + " columns");
    }
    List<String> row = new ArrayList<>();
    for (String cell : cells) {
      row.add(escape(cell));
    }
    rows.add(row);
    return this;
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The width of a rendered line. */
  public int width() {
    int width = 1;
    for (int column : widths()) {
      width += column + 3;
    }
    return width;
  }

  public String render() {
    int[] widths = widths();
    StringBuilder out = new StringBuilder();
    line(out, headers, widths);
    out.append('|');
    for (int column = 0; column < widths.length; column++) {
      boolean alignRight = right.get(column);
      out.append(' ').append("-".repeat(widths[column] - (alignRight ? 1 : 0)));
      out.append(alignRight ? ": |" : " |");
    }
    out.append('\n');
    for (List<String> row : rows) {
      line(out, row, widths);
    }
    return out.toString();
  }

  private int[] widths() {
    int[] widths = new int[headers.size()];
    for (int column = 0; column < widths.length; column++) {
      widths[column] = Math.max(3, headers.get(column).length());
      for (List<String> row : rows) {
        widths[column] = Math.max(widths[column], row.get(column).length());
      }
    }
    return widths;
  }

  private void line(StringBuilder out, List<String> cells, int[] widths) {
    out.append('|');
    for (int column = 0; column < widths.length; column++) {
      String cell = cells.get(column);
      String padding = " ".repeat(widths[column] - cell.length());
      out.append(' ');
      out.append(right.get(column) ? padding + cell : cell + padding);
      out.append(" |");
    }
    out.append('\n');
  }

  /** A cell's text: no line break, no column break, no HTML tag (a renderer would run it). */
  public static String escape(String cell) {
    return cell.replace("\\", "\\\\")
        .replace("|", "\\|")
        .replace("<", "\\<")
        .replace(">", "\\>")
        .replace("\r", " ")
        .replace("\n", " ");
  }
}
