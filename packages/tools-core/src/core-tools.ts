import { parseOptions } from "@agentool/contract";
import { z } from "zod";
import { createThinkTool, type ThinkTool, type ThinkToolOptions } from "./think.js";
import {
  createUpdatePlanTool,
  type UpdatePlanTool,
  type UpdatePlanToolOptions,
} from "./update-plan.js";

/** Options of {@link createCoreTools}: each tool's own options. */
export interface CoreToolsOptions {
  /** Options of the `think` tool (see {@link createThinkTool}). */
  think?: ThinkToolOptions;
  /** Options of the `update_plan` tool (see {@link createUpdatePlanTool}). */
  updatePlan?: UpdatePlanToolOptions;
}

const isPlainObject = (value: unknown) =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const coreToolsOptionsSchema = z.object({
  think: z
    .custom<ThinkToolOptions>(isPlainObject, { error: "expected an options object" })
    .optional(),
  updatePlan: z
    .custom<UpdatePlanToolOptions>(isPlainObject, { error: "expected an options object" })
    .optional(),
});

/**
 * Creates both core tools, `think` and `update_plan`, ready to hand to an adapter.
 *
 * @param options - per-tool options, keyed `think` and `updatePlan`
 * @returns `[think, updatePlan]`
 * @throws AgentoolError when any options are invalid
 * @example
 * const tools = toLangChainTools(createCoreTools({ updatePlan: { onUpdate: savePlan } }));
 */
export function createCoreTools(options?: CoreToolsOptions): [ThinkTool, UpdatePlanTool] {
  const parsed = parseOptions("createCoreTools", coreToolsOptionsSchema, options);
  return [createThinkTool(parsed.think), createUpdatePlanTool(parsed.updatePlan)];
}
