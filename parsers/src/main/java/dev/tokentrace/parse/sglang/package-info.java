/** The Sglang parser: one package-private matcher per line kind, with quirks cited by version. */
@NullMarked
package dev.tokentrace.parse.sglang;

import org.jspecify.annotations.NullMarked;
