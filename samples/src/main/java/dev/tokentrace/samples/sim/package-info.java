/**
 * A deterministic discrete-event model of a continuous-batching LLM inference server and the
 * benchmark client that drives it: arrivals, client semaphore, network delays, FCFS scheduling with
 * chunked prefill, KV capacity with preemption, warm-up, timeouts and retries. It does no I/O;
 * writers in {@code dev.tokentrace.samples.sim.output} observe it through {@link
 * dev.tokentrace.samples.sim.SimObserver}. Same settings and seed give the same event sequence.
 */
@NullMarked
package dev.tokentrace.samples.sim;

import org.jspecify.annotations.NullMarked;
