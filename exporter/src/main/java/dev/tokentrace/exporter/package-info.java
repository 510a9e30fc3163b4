/**
 * {@code tokentrace serve}: Prometheus metrics read from the store (docs/live.md#metrics). A {@link
 * dev.tokentrace.exporter.StoreReader} opens the store read-only for each poll; the {@link
 * dev.tokentrace.exporter.MetricsExporter} turns each newly attributed request into one observation
 * per histogram and keeps the latest engine snapshot and pipeline health for its gauges.
 */
@NullMarked
package dev.tokentrace.exporter;

import org.jspecify.annotations.NullMarked;
