import { z } from "zod";
import {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_MAX_COMMAND_TIMEOUT_MS,
} from "./run-command-defaults.js";

/**
 * The input schema of `run_command` with the host's limits in its descriptions.
 *
 * @param defaultTimeoutMs - the timeout when the model gives none
 * @param maxTimeoutMs - the longest `timeout_ms` allowed
 * @returns the schema
 */
export function createInputSchema(defaultTimeoutMs: number, maxTimeoutMs: number) {
  return z.object({
    // Advertised as an argv array only: clients that turn JSON Schema back into zod
    // (@langchain/mcp-adapters, Mastra) flatten a union and refuse input. A plain string is still
    // accepted, silently, as a one-item array: `execute` splits it, or refuses it, as before.
    command: z
      .preprocess(
        (value) => (typeof value === "string" ? [value] : value),
        z.array(z.string()).min(1),
      )
      .describe(
        'Program and arguments as an array, e.g. ["git", "status", "--short"]; each item reaches the program as written.',
      ),
    cwd: z.string().optional().describe("Working directory (default the workspace root)."),
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .max(maxTimeoutMs)
      .optional()
      .describe(`Stop the command after this many ms (default ${defaultTimeoutMs}).`),
  });
}

/**
 * Names models trained on other toolsets send for `run_command`'s fields, accepted silently (each
 * means exactly the field it maps to). `timeout` is not among them — its unit differs between
 * toolsets — so it gets a "did you mean timeout_ms" instead.
 */
export const RUN_COMMAND_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  cmd: "command",
  working_directory: "cwd",
  workdir: "cwd",
});

/** The input schema of `run_command` (with the default limits in its descriptions). */
export const runCommandInputSchema = createInputSchema(
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_MAX_COMMAND_TIMEOUT_MS,
);

/** The input of `run_command`. */
export type RunCommandInput = z.output<typeof runCommandInputSchema>;
