/** The Vllm parser: one package-private matcher per line kind, with quirks cited by version. */
@NullMarked
package dev.tokentrace.parse.vllm;

import org.jspecify.annotations.NullMarked;
