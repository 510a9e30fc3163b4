/**
 * A deterministic discrete-event model of a continuous-batching LLM inference server and the
 * benchmark client that drives it: arrivals, client semaphore, network delays, FCFS scheduling with
 * chunked prefill, KV capacity with preemption, warm-up, timeouts and retries. It does no I/O;
 * writers in {@code dev.tokentrace.simulator.output} observe it through {@link
 * dev.tokentrace.simulator.SimObserver}. Same settings and seed give the same event sequence.
 * {@link dev.tokentrace.simulator.LiveEngine} drives the same scheduler in real time instead, for
 * the live server; it is neither deterministic nor free of threads, and still does no I/O.
 */
@NullMarked
package dev.tokentrace.simulator;

import org.jspecify.annotations.NullMarked;
