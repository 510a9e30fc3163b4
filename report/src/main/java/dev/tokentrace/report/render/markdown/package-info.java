/**
 * The report as Markdown that reads well in a terminal. Reads the model only (and the pipe-table
 * formatter it shares with {@code tokentrace sql}); never calls another renderer.
 */
@NullMarked
package dev.tokentrace.report.render.markdown;

import org.jspecify.annotations.NullMarked;
