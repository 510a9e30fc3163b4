/**
 * Prefill/decode disaggregation (docs/formats/pd.md#simulator): a proxy, prefill and decode servers
 * and the KV-cache transfer between them, with the ground truth of every component.
 */
@NullMarked
package dev.tokentrace.simulator.pd;

import org.jspecify.annotations.NullMarked;
