/**
 * The simulator's parameters (name, default, documentation, declared once) and the named scenario
 * presets of issue 4, resolved into settings for {@code dev.tokentrace.samples.sim} and {@code
 * dev.tokentrace.samples.sim.output}. The {@code simulate} command builds its options from {@link
 * dev.tokentrace.samples.sim.scenario.Parameters#all()}.
 */
@NullMarked
package dev.tokentrace.samples.sim.scenario;

import org.jspecify.annotations.NullMarked;
