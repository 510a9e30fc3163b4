/**
 * The engines' own Prometheus {@code /metrics}, scraped live or saved to a file: vLLM, SGLang and
 * trtllm-serve gauges become {@code engine_stats} snapshots, their latency histograms per-interval
 * {@code server_histogram} deltas (docs/formats/metrics.md). Pure, like every parser.
 */
@NullMarked
package dev.tokentrace.parse.metrics;

import org.jspecify.annotations.NullMarked;
