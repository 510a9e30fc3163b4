/**
 * The parsing contract: a stateful-per-source {@link dev.tokentrace.parse.LineParser} per engine
 * that reports every line to a {@link dev.tokentrace.parse.ParseOutput} as events, a named ignore
 * rule, or a {@link dev.tokentrace.parse.Rejection}; and {@link dev.tokentrace.parse.Parsers},
 * which creates parsers, guards them against their own bugs and detects formats. Pure: no I/O, no
 * clock.
 */
@NullMarked
package dev.tokentrace.parse;

import org.jspecify.annotations.NullMarked;
