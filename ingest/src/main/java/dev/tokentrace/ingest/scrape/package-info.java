/**
 * {@code tokentrace scrape}: {@link dev.tokentrace.ingest.scrape.MetricsScraper} polls an engine's
 * Prometheus endpoint and appends each whole scrape to a file, with a byte cap, a line cap and a
 * whole-request deadline (docs/live.md#limits-of-scrape).
 */
@NullMarked
package dev.tokentrace.ingest.scrape;

import org.jspecify.annotations.NullMarked;
