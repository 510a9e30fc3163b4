/**
 * The simulator's parameters (name, default, documentation, declared once) and the named scenario
 * presets of issue 4, resolved into settings for {@code dev.tokentrace.simulator} and {@code
 * dev.tokentrace.simulator.output}. The {@code simulate} command builds its options from {@link
 * dev.tokentrace.simulator.scenario.Parameters#all()}.
 */
@NullMarked
package dev.tokentrace.simulator.scenario;

import org.jspecify.annotations.NullMarked;
