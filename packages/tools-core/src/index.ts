export { type CoreToolsOptions, createCoreTools } from "./core-tools.js";
export {
  createThinkTool,
  DEFAULT_THINK_DESCRIPTION,
  type OnThought,
  THINK_TOOL_NAME,
  type ThinkTool,
  type ThinkToolData,
  type ThinkToolOptions,
  type ThoughtContext,
  thinkInputSchema,
} from "./think.js";
export {
  createUpdatePlanTool,
  DEFAULT_MAX_PLAN_STEPS,
  DEFAULT_MAX_STEP_CHARACTERS,
  formatPlanChecklist,
  formatPlanUpdate,
  type OnPlanUpdate,
  PLAN_STEP_STATUSES,
  type PlanStep,
  type PlanStepStatus,
  type PlanUpdate,
  UPDATE_PLAN_TOOL_NAME,
  type UpdatePlanTool,
  type UpdatePlanToolData,
  type UpdatePlanToolOptions,
  updatePlanInputSchema,
} from "./update-plan.js";
