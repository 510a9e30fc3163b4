/**
 * GPU telemetry: {@code nvidia-smi --query-gpu} and {@code --query-compute-apps} CSV, {@code
 * nvidia-smi dmon} and {@code pmon} tables and the DCGM exporter's text exposition, read into
 * {@code gpu_sample}, {@code gpu_process} and (GPU lost) {@code server_notice} events
 * (docs/formats/gpu.md). Pure, like every parser.
 */
@NullMarked
package dev.tokentrace.parse.gpu;

import org.jspecify.annotations.NullMarked;
