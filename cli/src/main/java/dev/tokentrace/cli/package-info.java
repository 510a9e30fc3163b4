/**
 * The one {@code tokentrace} command: picocli wiring from options to settings records to the
 * services of ingest, correlate and samples. Commands stay thin; environment and CLI are read only
 * here.
 */
@NullMarked
package dev.tokentrace.cli;

import org.jspecify.annotations.NullMarked;
