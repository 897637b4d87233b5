import {
  type MountedTools,
  mountedTools,
  parseOptions,
  type ToolAnnotations,
} from "@agentool/contract";
import type { Workspace } from "@agentool/tools-fs";
import { type WorkspaceOptionsInput, workspaceFromOptions } from "@agentool/tools-fs/node";
import type { z } from "zod";

/**
 * What every office tool factory does first, once: check its options, build its workspace (the
 * one given, or a Node workspace over `root`), name the tools mounted beside it, and fill the
 * `defineTool` fields that differ between office tools only by kind (reading or writing).
 *
 * @internal
 */

/** Default time limit of one office tool call (reading or writing): 60 seconds. */
export const DEFAULT_OFFICE_TIMEOUT_MS = 60_000;

/** What differs between office tools before their `execute`. */
export interface OfficeToolSpec {
  /** `read`: read-only, idempotent, tagged `office:read`; `write`: destructive, tagged `office:write`. */
  kind: "read" | "write";
  /** The tool's default name. */
  name: string;
  /** The annotations' title, e.g. `Write spreadsheet cells`. */
  title: string;
  /** The default description, naming only the tools mounted beside it. */
  describe: (mounted: MountedTools) => string;
  /** The default of `maxFileBytes`. */
  maxFileBytes: number;
}

/** An office tool factory's options, checked, and what it builds from them. */
export interface OfficeToolBase<Options> {
  /** The options, parsed. */
  options: Options;
  /** The workspace every path goes through. */
  workspace: Workspace;
  /** The tools mounted beside this one. */
  mounted: MountedTools;
  /** The largest file read or loaded, in bytes. */
  maxFileBytes: number;
  /** The `defineTool` fields every office tool fills alike: spread them into the definition. */
  definition: {
    name: string;
    description: string;
    annotations: ToolAnnotations;
    tags: readonly string[];
    timeoutMs: number;
  };
}

/**
 * Parses an office tool factory's options and builds what the tool runs on.
 *
 * @param factory - the factory's name, for errors (`createEditSheetTool`)
 * @param schema - its strict options schema
 * @param options - the options given
 * @param spec - the tool's defaults and kind
 * @returns the parsed options, the workspace, the mounted tools, the cap and the shared fields
 * @throws AgentoolError when the options are invalid or neither `root` nor `workspace` is given
 */
export function prepareOfficeTool<Shape extends z.ZodRawShape>(
  factory: string,
  schema: z.ZodObject<Shape>,
  options: unknown,
  spec: OfficeToolSpec,
): OfficeToolBase<z.output<z.ZodObject<Shape>>> {
  const parsed = parseOptions(factory, schema, options) as z.output<z.ZodObject<Shape>> &
    WorkspaceOptionsInput;
  const workspace = workspaceFromOptions(factory, parsed);
  const name = parsed.name ?? spec.name;
  const mounted = mountedTools(parsed.mountedTools, name);
  const reads = spec.kind === "read";
  return {
    options: parsed,
    workspace,
    mounted,
    maxFileBytes: parsed.maxFileBytes ?? spec.maxFileBytes,
    definition: {
      name,
      description: parsed.description ?? spec.describe(mounted),
      annotations: reads
        ? { title: spec.title, readOnly: true, idempotent: true }
        : { title: spec.title, destructive: true },
      tags: ["office", reads ? "office:read" : "office:write"],
      timeoutMs: parsed.timeoutMs ?? DEFAULT_OFFICE_TIMEOUT_MS,
    },
  };
}
