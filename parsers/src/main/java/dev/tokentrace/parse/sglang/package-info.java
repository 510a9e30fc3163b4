/**
 * The SGLang parser ({@link dev.tokentrace.parse.sglang.SglangLineParser}) and its package-private
 * parts: one reader per line kind (batch lines, request lines, time-stats lines, JSON records), the
 * prefix and timestamp readers, and the per-source state (open notice, pending request, decode step
 * timer). Quirks are cited by SGLang version and docs/formats/sglang.md section.
 */
@NullMarked
package dev.tokentrace.parse.sglang;

import org.jspecify.annotations.NullMarked;
