package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.ComponentKind;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportData;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Where the time goes, as inline SVG: a stacked bar per percentile (each segment a component's
 * value at that percentile, with the total's percentile marked); the shared colours, legend, frame
 * and labels of the report's charts ({@link SvgShares}, {@link SvgCdf}, {@link SvgTimeline}).
 */
final class SvgComponentBars {
  static final int WIDTH = 1000;
  private static final int ROW = 30;

  private SvgComponentBars() {}

  static String color(ComponentKind component) {
    switch (component) {
      case NETWORK:
        return "#8e6cc0";
      case CLIENT_QUEUE:
        return "#f2b04c";
      case QUEUE:
        return "#e4572e";
      case PREFILL:
        return "#2f7fc1";
      default:
        return "#3aa655";
    }
  }

  static String legend(int x, int y) {
    StringBuilder out = new StringBuilder();
    int at = x;
    for (ComponentKind component : ComponentKind.values()) {
      out.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" rx=\"2\" fill=\"%s\"/>"
                  + "<text x=\"%d\" y=\"%d\" class=\"lg\">%s</text>",
              at,
              y,
              color(component),
              at + 17,
              y + 10,
              Html.text(component.label())));
      at += 30 + component.label().length() * 7;
    }
    return out.toString();
  }

  /** Stacked component values at P50, P90, P95 and P99 of the given component rows. */
  static String percentiles(List<ReportData.Component> rows) {
    List<String> labels = List.of("P50", "P90", "P95", "P99");
    List<Function<ReportData.Component, @Nullable Double>> values =
        List.of(
            ReportData.Component::p50Ms,
            ReportData.Component::p90Ms,
            ReportData.Component::p95Ms,
            ReportData.Component::p99Ms);
    double max = 0;
    List<String> overshoot = new java.util.ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      double stacked = stacked(rows, values.get(i));
      double total = value(total(rows), values.get(i));
      max = Math.max(max, stacked);
      max = Math.max(max, total);
      if (total > 0 && stacked > total) {
        overshoot.add(labels.get(i));
      }
    }
    int left = 60;
    int top = 34;
    int axis = top + labels.size() * (ROW + 12) + 6;
    int height = axis + 30 + (overshoot.isEmpty() ? 0 : 22);
    SvgAxis.Scale x = SvgAxis.linear(0, max, left, WIDTH - 30);
    StringBuilder svg = open(height, "Component values at each percentile");
    svg.append(legend(left, 8));
    grid(svg, x, top, axis);
    for (int i = 0; i < labels.size(); i++) {
      int y = top + i * (ROW + 12);
      svg.append(label(left - 10, y + ROW / 2 + 5, labels.get(i), "end"));
      double at = 0;
      for (ComponentKind component : ComponentKind.values()) {
        Double ms = row(rows, component).map(values.get(i)::apply).orElse(null);
        if (ms == null || ms <= 0) {
          continue;
        }
        svg.append(
            segment(
                x.at(at),
                y,
                x.at(at + ms) - x.at(at),
                color(component),
                component.label() + " " + labels.get(i) + ": " + Numbers.ms(ms) + " ms"));
        at += ms;
      }
      double total = value(total(rows), values.get(i));
      if (total > 0) {
        svg.append(
            String.format(
                Locale.ROOT,
                "<path d=\"M%s %d l6 -7 l-12 0 z\" fill=\"#222\"><title>total (client) %s: %s"
                    + " ms</title></path>",
                Html.num(x.at(total)),
                y,
                labels.get(i),
                Numbers.ms(total)));
      }
    }
    if (!overshoot.isEmpty()) {
      svg.append(label(left, height - 6, overshootNote(overshoot), "start"));
    }
    return svg.append("</svg>").toString();
  }

  /**
   * Why a bar passes its total marker: the parts' percentiles come from different requests, so they
   * need not add up to the total's percentile (docs/reports.md#percentiles-do-not-add).
   */
  static String overshootNote(List<String> labels) {
    String which = String.join(", ", labels);
    return "At "
        + which
        + " the parts add up to more than the total ▼: percentiles do not add (each part's"
        + " percentile comes from different requests).";
  }

  static StringBuilder open(int height, String title) {
    return open(WIDTH, height, title);
  }

  static StringBuilder open(int width, int height, String title) {
    return new StringBuilder(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" class=\"%s\""
                + " role=\"img\" aria-label=%s>",
            width,
            height,
            // charts keep about their drawn size: scaled up to a wide page, their text would be
            // huge (HtmlStyle: svg.cdf, svg.wide)
            width < WIDTH ? "cdf" : "wide",
            Html.attr(title)));
  }

  private static void grid(StringBuilder svg, SvgAxis.Scale x, int top, int bottom) {
    for (double tick : SvgAxis.ticks(x, 6)) {
      String at = Html.num(x.at(tick));
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\" class=\"gr\"/>",
              at,
              top - 4,
              at,
              bottom));
      svg.append(label((int) x.at(tick), bottom + 16, SvgAxis.ms(tick), "middle"));
    }
  }

  static String label(int x, int y, String text, String anchor) {
    return String.format(
        Locale.ROOT,
        "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\" class=\"tk\">%s</text>",
        x,
        y,
        anchor,
        Html.text(text));
  }

  private static String segment(double x, int y, double width, String color, String title) {
    return segmentOfHeight(x, y, width, ROW, color, title);
  }

  static String segmentOfHeight(
      double x, int y, double width, int height, String color, String title) {
    return String.format(
        Locale.ROOT,
        "<rect x=\"%s\" y=\"%d\" width=\"%s\" height=\"%d\" fill=\"%s\"><title>%s</title></rect>",
        Html.num(x),
        y,
        Html.num(Math.max(width, 0.5)),
        height,
        color,
        Html.text(title));
  }

  private static java.util.Optional<ReportData.Component> row(
      List<ReportData.Component> rows, ComponentKind component) {
    return rows.stream().filter(r -> r.component().equals(component.id())).findFirst();
  }

  private static ReportData.@Nullable Component total(List<ReportData.Component> rows) {
    return rows.stream().filter(r -> r.component().equals("total")).findFirst().orElse(null);
  }

  private static double stacked(
      List<ReportData.Component> rows, Function<ReportData.Component, @Nullable Double> value) {
    double sum = 0;
    for (ComponentKind component : ComponentKind.values()) {
      sum += row(rows, component).map(value::apply).map(v -> Math.max(v, 0)).orElse(0.0);
    }
    return sum;
  }

  private static double value(
      ReportData.@Nullable Component row, Function<ReportData.Component, @Nullable Double> value) {
    if (row == null) {
      return 0;
    }
    Double ms = value.apply(row);
    return ms == null ? 0 : ms;
  }
}
