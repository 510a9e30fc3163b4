/**
 * The vLLM parser, {@link dev.tokentrace.parse.vllm.VllmLineParser}, and its package-private
 * matchers, one per line kind (header, stats, request, iteration, notices, raw noise, OTLP export),
 * each citing the vLLM version and the docs/formats/vllm.md section of the quirk it handles.
 * Imports the event model, the parsing contract and Jackson only.
 */
@NullMarked
package dev.tokentrace.parse.vllm;

import org.jspecify.annotations.NullMarked;
