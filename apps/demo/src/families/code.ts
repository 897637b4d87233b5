import { createCodeTools } from "@agentool/tools-code";
import type { DemoFamily } from "./demo-family.js";

/** The tools the code tools' descriptions may name (all served by the demo). */
const MOUNTED = ["read_file", "grep_search", "edit_file", "apply_patch"];

/** The patch the agent sends: both swapped `percent(...)` calls fixed, all files or none. */
export const PERCENT_PATCH = [
  "*** Begin Patch",
  "*** Update File: src/stats.ts",
  "@@ export function dailyShares(days: readonly DailyHits[]): Array<{ day: string; share: number }> {",
  "   const total = days.reduce((sum, day) => sum + day.hits, 0);",
  "-  return days.map((day) => ({ day: day.day, share: percent(total, day.hits) }));",
  "+  return days.map((day) => ({ day: day.day, share: percent(day.hits, total) }));",
  " }",
  "*** Update File: src/report.ts",
  "@@ export function reportLine(today: number, week: number): string {",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the patch quotes a template literal of the workspace's code
  "-  return `${today} hits today (${percent(week, today)}% of the week)`;",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the patch quotes a template literal of the workspace's code
  "+  return `${today} hits today (${percent(today, week)}% of the week)`;",
  " }",
  "*** End Patch",
].join("\n");

/** The commit of the fix. */
export const PERCENT_COMMIT_MESSAGE =
  "Pass percent() the part first: daily shares and the report line";

/**
 * The `@agentool/tools-code` family, read-only (`createCodeTools`): the todo says the daily
 * report shows shares over 100%, so the agent finds `percent(part, whole)` with `find_symbol`,
 * lists its callers with `find_references` (two of the three pass the whole first), fixes both
 * with one `apply_patch` (a Codex-format patch over two files, from the files family), checks
 * every call again with `find_references`, and commits the two files with `git_commit` (git
 * family). It runs after the files and git families.
 */
export const codeFamily: DemoFamily = {
  name: "code",
  createTools: ({ workspaceRoot }) =>
    createCodeTools({ root: workspaceRoot, mode: "read-only", mountedTools: MOUNTED }),
  tasks: [
    {
      step: "Find percent() and every call of it",
      turns: [
        {
          text: "The daily report shows shares over 100%, which points at percent(). Where is it defined?",
          toolCalls: [{ name: "find_symbol", arguments: { name: "percent" } }],
        },
        {
          text: "percent(part, whole): the part comes first. Who calls it?",
          toolCalls: [{ name: "find_references", arguments: { name: "percent" } }],
        },
      ],
    },
    {
      // One plan step for fix, check and commit: update_plan takes at most 20 steps.
      step: "Fix the calls that pass the whole first in one patch, check them again, commit",
      turns: [
        {
          text:
            "dailyShares passes (total, day.hits) and reportLine (week, today): both swap part and " +
            "whole. limitUsed(count, limit) is right. One patch fixes both files, or neither.",
          toolCalls: [{ name: "apply_patch", arguments: { patch: PERCENT_PATCH } }],
        },
        { toolCalls: [{ name: "find_references", arguments: { name: "percent" } }] },
        {
          toolCalls: [
            {
              name: "git_commit",
              arguments: {
                message: PERCENT_COMMIT_MESSAGE,
                files: ["src/stats.ts", "src/report.ts"],
              },
            },
          ],
        },
      ],
    },
  ],
  findings: [
    "Fixed: percent(part, whole) was called with the whole first in dailyShares (src/stats.ts) and reportLine (src/report.ts) — both fixed with one apply_patch and committed; limitUsed was already right.",
  ],
};
