package dev.tokentrace.report.render.markdown;

import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.PdSection;
import dev.tokentrace.store.query.MarkdownTable;

/**
 * The "Prefill/decode pairs" part of the attribution section (docs/formats/pd.md#attribution):
 * written only when the attribution has P/D requests, so single-server reports do not change.
 */
final class MarkdownPd {
  private MarkdownPd() {}

  static String section(PdSection pd) {
    if (!pd.present()) {
      return "";
    }
    StringBuilder out = new StringBuilder("### Prefill/decode pairs\n\n");
    out.append(Prose.paragraph(PdSection.INTRO));
    String note = pd.estimateNote();
    if (note != null) {
      out.append(Prose.paragraph(note));
    }
    MarkdownTable table =
        new MarkdownTable(
            "prefill",
            "decode",
            ">requests",
            ">kv P50 ms",
            ">kv P95 ms",
            ">decode q P50 ms",
            ">estimated",
            ">failed",
            ">expired");
    for (PdSection.Pair pair : pd.pairs()) {
      table.row(
          pair.prefillInstance(),
          pair.decodeInstance(),
          Long.toString(pair.requests()),
          Numbers.ms(pair.kvP50Ms()),
          Numbers.ms(pair.kvP95Ms()),
          Numbers.ms(pair.decodeQueueP50Ms()),
          Long.toString(pair.estimated()),
          Long.toString(pair.failedTransfers()),
          Long.toString(pair.expiredTransfers()));
    }
    return out.append(table.render()).append('\n').toString();
  }
}
