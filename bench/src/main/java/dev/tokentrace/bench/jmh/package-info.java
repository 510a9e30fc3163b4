/**
 * JMH benchmarks (run by {@code bench/parsers.sh}): parser throughput per engine and line kind
 * against the cost of only splitting the same bytes into lines.
 */
@NullMarked
package dev.tokentrace.bench.jmh;

import org.jspecify.annotations.NullMarked;
