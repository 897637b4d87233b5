import { z } from "zod";
import { allowDestructiveOptionSchema } from "../../internal/option-schemas.js";
import type { McpRequestExtra } from "../register-tools-options.js";

/** The options of `registerTools`, checked strictly (unknown keys refused). */
export const registerToolsOptionsSchema = z.object({
  structuredContent: z
    .enum(["declared", "always", "never"])
    .optional()
    .describe("When successful results carry structuredContent."),
  outputSchemas: z
    .boolean()
    .optional()
    .describe("Whether tools/list carries outputSchema for tools that declare output."),
  threadId: z
    .custom<(extra: McpRequestExtra) => string | undefined>(
      (value) => typeof value === "function",
      { message: "expected a function (extra) => string | undefined" },
    )
    .optional()
    .describe("The thread id handed to tool.run."),
  allowDestructive: allowDestructiveOptionSchema,
});
