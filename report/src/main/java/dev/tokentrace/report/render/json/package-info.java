/**
 * The report as one JSON document (docs/report-schema.json). Reads the model only (with Jackson);
 * never calls another renderer.
 */
@NullMarked
package dev.tokentrace.report.render.json;

import org.jspecify.annotations.NullMarked;
