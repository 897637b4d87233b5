import type { AnyTool } from "@agentool/contract";
import type { PlanStep } from "@agentool/tools-core";
import type { AgentMiddleware } from "langchain";
import type { ScriptedTurn } from "../scripted-model.js";

/** What a family gets when the demo builds its tools. */
export interface DemoContext {
  /** Absolute path of the temporary copy of the sample workspace. */
  workspaceRoot: string;
  /** The latest accepted plan per thread id, filled by `update_plan`'s `onUpdate` hook. */
  savedPlans: Map<string, PlanStep[]>;
  /** Absolute path of the memory family's file store; unlike the workspace it outlives the run. */
  memoryDirectory: string;
  /** Registers work to do when the run ends (stop a server, close a handle). */
  onCleanup(cleanup: () => void | Promise<void>): void;
  /** Adds a `createAgent` middleware to the run (e.g. the live skill menu), in family order. */
  addMiddleware(middleware: AgentMiddleware): void;
}

/** One step of the scripted plan and the model turns that carry it out. */
export interface DemoTask {
  /** The plan step, as the model writes it. */
  step: string;
  /** The scripted model's responses that do the step (each with its tool calls). */
  turns: ScriptedTurn[];
}

/**
 * One tool family's part in the demo: its tools, its tasks in the scripted run and what it
 * contributes to the final answer. To add a family, write one of these in
 * `src/families/<family>.ts` and list it in `src/families/index.ts`.
 */
export interface DemoFamily {
  /** The family's short name, e.g. `"core"`. */
  name: string;
  /**
   * Adds files the family works on to the temporary workspace, before any family builds its
   * tools (so the git family's first commit holds them): e.g. documents generated at run time
   * rather than committed as binary files.
   *
   * @param workspaceRoot - absolute path of the temporary copy of the sample workspace
   */
  prepareWorkspace?(workspaceRoot: string): void | Promise<void>;
  /**
   * Builds the family's tools for this run.
   *
   * @param context - the workspace root and shared state
   * @returns contract tools
   */
  createTools(context: DemoContext): AnyTool[] | Promise<AnyTool[]>;
  /** The family's tasks, in order; each becomes a plan step. */
  tasks: DemoTask[];
  /** Lines the scripted final answer reports. */
  findings: string[];
}
