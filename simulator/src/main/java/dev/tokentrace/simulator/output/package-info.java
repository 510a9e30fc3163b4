/**
 * Writers that turn the model's facts into the files real engines and benchmark clients write
 * (vLLM, SGLang and TensorRT-LLM logs and exports; client timing files) plus {@code truth.csv}, and
 * {@link dev.tokentrace.simulator.output.ScenarioWriter}, which runs one scenario into a directory.
 * Every line is composed from the format strings in {@code formats/*.md} with our own values.
 * Writers stream: memory is bounded by the requests in flight.
 */
@NullMarked
package dev.tokentrace.simulator.output;

import org.jspecify.annotations.NullMarked;
