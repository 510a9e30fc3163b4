package dev.tokentrace.simulator;

/** How the benchmark client issues requests. */
public enum ArrivalMode {
  /** C workers, each sending its next request as soon as the previous one finished. */
  CLOSED,
  /** Poisson arrivals at a rate, waiting for a client semaphore of size C (0 = none). */
  POISSON
}
