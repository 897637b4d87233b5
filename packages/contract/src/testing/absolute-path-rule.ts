import type { AnyTool } from "../define-tool.js";
import { isToolResult, type ToolResult } from "../result.js";

/** The path fields a sample may carry, relative to the workspace root. */
export const PATH_FIELDS: readonly string[] = ["path", "path_prefix"];

/**
 * The sample with each relative path field made absolute under `root` (`undefined` when the
 * sample has no relative path field).
 *
 * @param input - a sample input
 * @param root - the workspace root, absolute
 * @returns the input with absolute paths, or `undefined`
 */
export function withAbsolutePaths(
  input: unknown,
  root: string,
): Record<string, unknown> | undefined {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  const record = input as Record<string, unknown>;
  let changed = false;
  const next: Record<string, unknown> = { ...record };
  for (const field of PATH_FIELDS) {
    const value = record[field];
    if (typeof value !== "string" || value.startsWith("/")) continue;
    const relative = value === "." ? "" : value.replace(/^\.\//, "");
    next[field] = relative.length === 0 ? root : `${root.replace(/\/$/, "")}/${relative}`;
    changed = true;
  }
  return changed ? next : undefined;
}

/**
 * One path rule for every family: a read-only tool's sample that names a path relative to the
 * root must succeed the same when the path is written absolute inside the root (`absolute-path`).
 *
 * @param tool - the tool (checked only when read-only)
 * @param input - its sample
 * @param root - the workspace root, absolute
 * @param run - runs the tool, never throwing
 * @param report - records a violation
 */
export async function checkAbsolutePathSample(
  tool: AnyTool,
  input: unknown,
  root: string,
  run: (input: unknown) => Promise<unknown>,
  report: (rule: string, message: string) => void,
): Promise<void> {
  if (tool.annotations.readOnly !== true) return;
  const absolute = withAbsolutePaths(input, root);
  if (absolute === undefined) return;
  const result = (await run(absolute)) as ToolResult<unknown>;
  if (!isToolResult(result) || !result.success) {
    const why =
      isToolResult(result) && !result.success
        ? `${result.error.code}: ${result.error.message}`
        : "not a result";
    report(
      "absolute-path",
      `the sample with its path written absolute inside the root (${JSON.stringify(absolute)}) must succeed as the relative one does; got ${why.slice(0, 300)}`,
    );
  }
}
