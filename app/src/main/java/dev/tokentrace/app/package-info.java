/**
 * The application layer between the pipeline modules and the command line
 * (docs/design.md#application-layer): a {@link dev.tokentrace.app.Workspace} over the store and the
 * use cases the commands call with typed requests ({@link dev.tokentrace.app.Correlation}, {@link
 * dev.tokentrace.app.Reports}). Attribution runs on a {@link dev.tokentrace.app.CorrelateEngine},
 * found through {@link java.util.ServiceLoader}; DuckDB's is the default.
 */
@NullMarked
package dev.tokentrace.app;

import org.jspecify.annotations.NullMarked;
