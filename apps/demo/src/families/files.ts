import { createNodeFsTools } from "@agentool/tools-fs/node";
import type { DemoFamily } from "./demo-family.js";

/**
 * The `@agentool/tools-fs` family, read-write over the temporary workspace: explore the tree,
 * grep for the port, read the file around it, then fix it with `edit_file` (whose result shows
 * the diff).
 */
export const filesFamily: DemoFamily = {
  name: "files",
  createTools: ({ workspaceRoot }) =>
    createNodeFsTools({ root: workspaceRoot, mode: "read-write" }),
  tasks: [
    {
      step: "Look around the workspace",
      turns: [
        {
          text: "First, what is in the workspace?",
          toolCalls: [{ name: "list_directory", arguments: { path: ".", depth: 2 } }],
        },
      ],
    },
    {
      // One plan step for finding and reading: update_plan takes at most 20 steps.
      step: "Find every place that sets the default port and read src/app.ts around it",
      turns: [
        {
          toolCalls: [
            {
              name: "grep_search",
              arguments: { pattern: "3000|8080", output_mode: "content" },
            },
          ],
        },
        {
          toolCalls: [
            { name: "read_file", arguments: { path: "src/app.ts", offset: 1, limit: 6 } },
          ],
        },
      ],
    },
    {
      step: "Change the default port in src/app.ts to 8080",
      turns: [
        {
          text: "The README documents 8080, so the code changes, not the README.",
          toolCalls: [
            {
              name: "edit_file",
              arguments: {
                path: "src/app.ts",
                old_text: "process.env.TALLY_PORT ?? 3000",
                new_text: "process.env.TALLY_PORT ?? 8080",
              },
            },
          ],
        },
      ],
    },
  ],
  findings: [
    "Done: src/app.ts now defaults to port 8080, matching the README (the diff is above).",
  ],
};
