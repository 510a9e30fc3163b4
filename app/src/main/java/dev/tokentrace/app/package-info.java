/**
 * The application layer between the pipeline modules and the command line
 * (docs/design.md#application-layer): a {@link dev.tokentrace.app.Workspace} over the store and the
 * use cases the commands call with typed requests ({@link dev.tokentrace.app.Ingestion}, {@link
 * dev.tokentrace.app.Shipping}, {@link dev.tokentrace.app.Sinking}, {@link
 * dev.tokentrace.app.ClientLoads}, {@link dev.tokentrace.app.Correlation}, {@link
 * dev.tokentrace.app.CorrelationRounds}, {@link dev.tokentrace.app.Reports}, {@link
 * dev.tokentrace.app.Analysis}), returning an {@link dev.tokentrace.app.ExitStatus}. Attribution
 * runs on a {@link dev.tokentrace.app.CorrelateEngine}, found through {@link
 * java.util.ServiceLoader}; DuckDB's is the default. Imports neither picocli nor the cli module.
 */
@NullMarked
package dev.tokentrace.app;

import org.jspecify.annotations.NullMarked;
