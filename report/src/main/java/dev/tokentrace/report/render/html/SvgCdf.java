package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportEvidence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A TTFT CDF chart as inline SVG: one line per series (a concurrency level of one run) over a log
 * time axis, the fraction of requests with a TTFT at or below x on the vertical axis.
 */
final class SvgCdf {
  static final List<String> PALETTE =
      List.of(
          "#2f7fc1", "#3aa655", "#f2b04c", "#e4572e", "#8e6cc0", "#17a2b8", "#6c757d", "#c2185b");
  private static final int WIDTH = 720;
  private static final int HEIGHT = 330;

  private SvgCdf() {}

  /** The series of {@code points} keyed by their label, in order. */
  static Map<String, List<ReportEvidence.CdfPoint>> series(
      List<ReportEvidence.CdfPoint> points, boolean labelWithRun) {
    Map<String, List<ReportEvidence.CdfPoint>> series = new LinkedHashMap<>();
    for (ReportEvidence.CdfPoint point : points) {
      String level = point.concurrency() == null ? "?" : point.concurrency().toString();
      String label = labelWithRun ? point.runId() + " @ " + level : "concurrency " + level;
      series.computeIfAbsent(label, key -> new ArrayList<>()).add(point);
    }
    return series;
  }

  static String chart(String title, Map<String, List<ReportEvidence.CdfPoint>> series) {
    double min = Double.MAX_VALUE;
    double max = 0;
    for (List<ReportEvidence.CdfPoint> points : series.values()) {
      for (ReportEvidence.CdfPoint point : points) {
        min = Math.min(min, Math.max(point.ftlMs(), 0.1));
        max = Math.max(max, point.ftlMs());
      }
    }
    int left = 56;
    // the legend right of the plot: 22 characters of 12 px text fit in 190 units
    int right = WIDTH - 190;
    int top = 16;
    int bottom = HEIGHT - 34;
    SvgAxis.Scale x = SvgAxis.log(min, max, left, right);
    double decades = Math.log10(x.max() / x.min());
    SvgAxis.Scale y = new SvgAxis.Scale(0, 1, bottom, top, false);
    StringBuilder svg = SvgComponentBars.open(WIDTH, HEIGHT, title);
    for (double tick : SvgAxis.ticks(x, 0)) {
      String at = Html.num(x.at(tick));
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\" class=\"gr\"/>",
              at,
              top,
              at,
              bottom));
      // over more than 3 decades only the powers of ten are labelled, or the labels collide
      boolean decade = Math.abs(Math.log10(tick) - Math.rint(Math.log10(tick))) < 1e-9;
      if (decades <= 3 || decade) {
        svg.append(
            SvgComponentBars.label((int) x.at(tick), bottom + 16, SvgAxis.ms(tick), "middle"));
      }
    }
    for (double tick : new double[] {0, 0.25, 0.5, 0.75, 0.9, 1}) {
      SvgAxis.horizontalGrid(
          svg, y, tick, left, right, String.format(Locale.ROOT, "%.0f%%", tick * 100));
    }
    int index = 0;
    for (Map.Entry<String, List<ReportEvidence.CdfPoint>> entry : series.entrySet()) {
      String color = PALETTE.get(index % PALETTE.size());
      StringBuilder path = new StringBuilder();
      for (ReportEvidence.CdfPoint point : entry.getValue()) {
        path.append(path.length() == 0 ? "M" : " L")
            .append(Html.num(x.at(Math.max(point.ftlMs(), 0.1))))
            .append(' ')
            .append(Html.num(y.at(point.fraction())));
      }
      long requests = entry.getValue().get(0).requests();
      svg.append(
          String.format(
              Locale.ROOT,
              "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.2\"><title>%s (%s)"
                  + "</title></path>",
              path,
              color,
              Html.text(entry.getKey()),
              Numbers.count(requests, "request")));
      int legendY = top + 8 + index * 20;
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>",
              right + 16,
              legendY,
              right + 36,
              legendY,
              color));
      String shown =
          entry.getKey().length() > 22 ? entry.getKey().substring(0, 21) + "…" : entry.getKey();
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\" class=\"lg\">%s<title>%s</title></text>",
              right + 42,
              legendY + 4,
              Html.text(shown),
              Html.text(entry.getKey())));
      index++;
    }
    svg.append(
        SvgComponentBars.label((left + right) / 2, HEIGHT - 2, "TTFT (log scale)", "middle"));
    return svg.append("</svg>").toString();
  }
}
