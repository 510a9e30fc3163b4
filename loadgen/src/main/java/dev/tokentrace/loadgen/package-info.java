/**
 * {@code tokentrace loadgen}: an OpenAI-compatible streaming load generator that names every
 * request ({@code X-Request-Id}, SGLang {@code rid}) and writes our client CSV, so its timings join
 * the server's events by ID. Uses only the JDK's HTTP client; never stores prompt or response text.
 */
@NullMarked
package dev.tokentrace.loadgen;

import org.jspecify.annotations.NullMarked;
