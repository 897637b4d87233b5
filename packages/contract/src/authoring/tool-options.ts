import { z } from "zod";
import { toolOverridesShape } from "../options.js";
import { mountedToolsOption } from "./mounted-tools.js";

/**
 * The zod shape of the options every tool factory takes ({@link ToolOptions}): `name` and
 * `description` overrides, `mountedTools` and `timeoutMs`. Spread it into a factory's options
 * schema; the defaults are stated once, here.
 *
 * @example
 * const optionsSchema = z.object({ ...toolOptionsShape, maxBytes: z.number().int().optional() });
 */
export const toolOptionsShape = {
  ...toolOverridesShape,
  mountedTools: mountedToolsOption,
  timeoutMs: z
    .number()
    .int()
    .min(0)
    .max(86_400_000)
    .optional()
    .describe(
      "Milliseconds before a call is stopped with TIMEOUT; 0 turns the limit off. Default: the tool's own.",
    ),
};

/** The options every tool factory takes (the type of {@link toolOptionsShape}). */
export interface ToolOptions {
  /** Replaces the tool's name (snake_case). */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /** Names of the tools mounted beside this one; descriptions and hints name only these. */
  mountedTools?: readonly string[];
  /** Milliseconds before a call is stopped with `TIMEOUT`; `0` turns the limit off. */
  timeoutMs?: number;
}
