/**
 * The TensorRT-LLM parser ({@link dev.tokentrace.parse.trtllm.TrtLlmLineParser}): one
 * package-private class per line kind or JSON record kind, with quirks cited by version and
 * docs/formats/trtllm.md section. Imports the event model and the parse contract only; no I/O, no
 * clock.
 */
@NullMarked
package dev.tokentrace.parse.trtllm;

import org.jspecify.annotations.NullMarked;
