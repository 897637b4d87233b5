import { parseOptions } from "@agentool/contract";
import { z } from "zod";
import {
  createThinkTool,
  THINK_TOOL_NAME,
  type ThinkTool,
  type ThinkToolOptions,
} from "./think.js";
import {
  createUpdatePlanTool,
  UPDATE_PLAN_TOOL_NAME,
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
 * Creates both core tools, `think` and `update_plan`, ready to hand to an adapter. Each one's
 * default description knows the other is mounted beside it (each tool's own `mountedTools` adds
 * names mounted elsewhere).
 *
 * @param options - per-tool options, keyed `think` and `updatePlan`
 * @returns `[think, updatePlan]`
 * @throws AgentoolError when any options are invalid
 * @example
 * const tools = toLangChainTools(createCoreTools({ updatePlan: { onUpdate: savePlan } }));
 */
export function createCoreTools(options?: CoreToolsOptions): [ThinkTool, UpdatePlanTool] {
  const parsed = parseOptions("createCoreTools", coreToolsOptionsSchema, options);
  const names = [
    parsed.think?.name ?? THINK_TOOL_NAME,
    parsed.updatePlan?.name ?? UPDATE_PLAN_TOOL_NAME,
  ];
  const mounted = (own: readonly string[] | undefined) => [...new Set([...names, ...(own ?? [])])];
  return [
    createThinkTool({ ...parsed.think, mountedTools: mounted(parsed.think?.mountedTools) }),
    createUpdatePlanTool({
      ...parsed.updatePlan,
      mountedTools: mounted(parsed.updatePlan?.mountedTools),
    }),
  ];
}
