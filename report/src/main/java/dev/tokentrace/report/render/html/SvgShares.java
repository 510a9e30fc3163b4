package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.ComponentKind;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportData;
import java.util.List;
import java.util.Locale;

/** One 100% bar per run, as inline SVG: each component's share of the run's end-to-end time. */
final class SvgShares {
  private SvgShares() {}

  /** One 100% bar per group (run) with each component's share. */
  static String chart(List<ReportData.Component> rows, List<String> groups) {
    int left = 250;
    int top = 34;
    int row = 22;
    int height = top + groups.size() * (row + 6) + 30;
    SvgAxis.Scale x = SvgAxis.linear(0, 1, left, SvgComponentBars.WIDTH - 30);
    StringBuilder svg = SvgComponentBars.open(height, "Share of end-to-end time per run");
    svg.append(SvgComponentBars.legend(left, 8));
    for (int i = 0; i < groups.size(); i++) {
      String group = groups.get(i);
      int y = top + i * (row + 6);
      String shown = group.length() > 34 ? group.substring(0, 33) + "…" : group;
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"tk\">%s<title>%s</title></text>",
              left - 8,
              y + row / 2 + 4,
              Html.text(shown),
              Html.text(group)));
      double at = 0;
      for (ComponentKind component : ComponentKind.values()) {
        Double share =
            rows.stream()
                .filter(r -> group.equals(r.groupValue()) && r.component().equals(component.id()))
                .map(ReportData.Component::share)
                .findFirst()
                .orElse(null);
        if (share == null || share <= 0) {
          continue;
        }
        double width = x.at(at + share) - x.at(at);
        svg.append(
            SvgComponentBars.segmentOfHeight(
                x.at(at),
                y,
                width,
                row,
                SvgComponentBars.color(component),
                group + ": " + component.label() + " " + Numbers.share(share)));
        at += share;
      }
    }
    for (double tick : new double[] {0, 0.25, 0.5, 0.75, 1}) {
      svg.append(
          SvgComponentBars.label((int) x.at(tick), height - 10, Numbers.share(tick), "middle"));
    }
    return svg.append("</svg>").toString();
  }
}
