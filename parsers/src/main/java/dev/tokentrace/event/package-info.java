/**
 * The event contract between parsers, Kafka, DuckDB and tests: one immutable record per event type
 * under the sealed {@link dev.tokentrace.event.EngineEvent}, plus the request-ID normalization that
 * server and client sides share. Imports nothing but the JDK and Jackson annotations.
 */
@NullMarked
package dev.tokentrace.event;

import org.jspecify.annotations.NullMarked;
