/**
 * The report as one self-contained HTML page with inline SVG charts. Reads the model only; never
 * calls another renderer. Everything that came from a log is data to escape ({@code Html}), never
 * markup.
 */
@NullMarked
package dev.tokentrace.report.render.html;

import org.jspecify.annotations.NullMarked;
