/**
 * Reads the report's rows from the store with the named SQL of {@code sql/} (and a baseline
 * database attached read-only) into the model. Never imports a renderer.
 */
@NullMarked
package dev.tokentrace.report.load;

import org.jspecify.annotations.NullMarked;
