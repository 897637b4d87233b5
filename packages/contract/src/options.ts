import { z } from "zod";
import { AgentoolError } from "./agentool-error.js";
import { formatZodIssues } from "./internal/zod-issues.js";

/**
 * Validates a factory's options against a strict zod object: unknown keys are rejected with the
 * key named, wrong types with the field and what was expected. Throws {@link AgentoolError},
 * because bad options are a programmer error at set-up time, never a model error.
 *
 * @param owner - the factory's name, used in the message (e.g. `"createThinkTool"`)
 * @param schema - a zod object describing the options (made strict here)
 * @param options - what the caller passed (`undefined` means `{}`)
 * @returns the parsed options with defaults applied
 * @example
 * const parsed = parseOptions("createThinkTool", thinkOptionsSchema, options);
 */
export function parseOptions<Shape extends z.ZodRawShape>(
  owner: string,
  schema: z.ZodObject<Shape>,
  options: unknown,
): z.output<z.ZodObject<Shape>> {
  const strict = schema.strict();
  const parsed = strict.safeParse(options ?? {}, { reportInput: true });
  if (parsed.success) return parsed.data as z.output<z.ZodObject<Shape>>;
  const known = Object.keys(schema.shape);
  const lines = formatZodIssues(parsed.error.issues);
  throw new AgentoolError(
    `${owner}: invalid options — ${lines.join("; ")}. Known options: ${known.length > 0 ? known.join(", ") : "(none)"}.`,
  );
}

/** The `{ name?, description? }` overrides every tool factory accepts. */
export const toolOverridesShape = {
  name: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/)
    .optional()
    .describe("Replaces the tool's name (snake_case)."),
  description: z.string().min(1).optional().describe("Replaces the tool's description."),
};
