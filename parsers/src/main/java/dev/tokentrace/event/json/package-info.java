/**
 * The single JSON form of events used on Kafka, in {@code parse} output and in golden files. Only
 * {@link dev.tokentrace.event.json.EventJson} knows the mapper settings.
 */
@NullMarked
package dev.tokentrace.event.json;

import org.jspecify.annotations.NullMarked;
