/** The TrtLlm parser: one package-private matcher per line kind, with quirks cited by version. */
@NullMarked
package dev.tokentrace.parse.trtllm;

import org.jspecify.annotations.NullMarked;
