/**
 * {@code tokentrace report}: {@link dev.tokentrace.report.ReportService} recomputes the attribution
 * (unless the current one is by the same rules from the same inputs), reads the rows ({@code load})
 * into the model ({@code model}), draws the conclusions ({@code analysis}) and hands the {@link
 * dev.tokentrace.report.model.Report} to one renderer per format ({@code render.markdown}, {@code
 * render.html}, {@code render.json}), which read the model only. Layers are checked by
 * ReportArchitectureTest. Must not import ingest or Kafka.
 *
 * <p>Adding a section: a record in {@code model} for its rows (read in {@code load}) or its
 * conclusions (a field of {@code Report} filled in {@code analysis}, as {@code Text}), then one
 * method per renderer that writes it; a renderer never calls another or the analysis.
 */
@NullMarked
package dev.tokentrace.report;

import org.jspecify.annotations.NullMarked;
