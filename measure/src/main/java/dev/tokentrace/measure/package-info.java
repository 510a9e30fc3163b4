/**
 * What a client measurement looks like and how it is summarised: the client CSV format and the
 * percentile definition every printed percentile uses. No other tokentrace module below it.
 */
@NullMarked
package dev.tokentrace.measure;

import org.jspecify.annotations.NullMarked;
