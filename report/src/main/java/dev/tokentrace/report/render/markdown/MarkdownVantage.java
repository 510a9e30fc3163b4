package dev.tokentrace.report.render.markdown;

import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.store.query.MarkdownTable;
import java.util.List;

/**
 * The "Vantage" part of the attribution section: which view each run was attributed from and, where
 * a gateway logged the requests, network split into its two legs
 * (docs/formats/gateways.md#three-vantage-points). Written only when some run was not attributed
 * from a client with first-token times alone, so ordinary reports do not change.
 */
final class MarkdownVantage {
  static final String PLAIN = "client+engine";

  private MarkdownVantage() {}

  static String section(ReportEvidence evidence) {
    List<ReportEvidence.RunOverview> runs =
        evidence.clientRuns().stream()
            .filter(run -> run.vantage() != null && !run.vantage().equals(PLAIN))
            .toList();
    if (runs.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("### Vantage\n\n");
    out.append(
        Prose.paragraph(
            "Where each run's requests were seen from. client+gateway+engine: network is split"
                + " into client ↔ gateway (transport to the proxy) and gateway ↔ engine (the"
                + " proxy's own work and retries, transport to the engine, its pre- and"
                + " post-processing). gateway+engine: no client file, the gateway's log stands"
                + " in for the client, so the attribution is from the gateway's view and nothing"
                + " between the users and the gateway is in it. end-to-end only: the tool saw no"
                + " first token (wrk, JMeter, gateways), so network = E2E − queueing − prefill −"
                + " decode."));
    MarkdownTable table =
        new MarkdownTable(
            "run",
            "vantage",
            ">attributed",
            ">client↔gateway P50 ms",
            ">P95 ms",
            ">gateway↔engine P50 ms",
            ">P95 ms");
    for (ReportEvidence.RunOverview run : runs) {
      table.row(
          run.runId(),
          run.vantage(),
          Long.toString(run.attributedRequests()),
          Numbers.ms(run.clientGatewayP50Ms()),
          Numbers.ms(run.clientGatewayP95Ms()),
          Numbers.ms(run.gatewayEngineP50Ms()),
          Numbers.ms(run.gatewayEngineP95Ms()));
    }
    return out.append(table.render()).append('\n').toString();
  }
}
