import { execFileSync } from "node:child_process";
import { createGitTools } from "@agentool/tools-git";
import type { DemoFamily } from "./demo-family.js";

/** Who the demo's commits are by (no global git configuration needed). */
export const DEMO_AUTHOR = { name: "agentool demo", email: "demo@agentool.invalid" };

/** Makes the temporary workspace a repository with one commit, as a project would be. */
function initializeRepository(root: string): void {
  const environment = {
    ...process.env,
    GIT_AUTHOR_NAME: DEMO_AUTHOR.name,
    GIT_AUTHOR_EMAIL: DEMO_AUTHOR.email,
    GIT_COMMITTER_NAME: DEMO_AUTHOR.name,
    GIT_COMMITTER_EMAIL: DEMO_AUTHOR.email,
    GIT_CONFIG_NOSYSTEM: "1",
  };
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: root, env: environment, stdio: "ignore" });
  git("init", "--quiet", "--initial-branch=main");
  git("add", "--all");
  git("commit", "--quiet", "--no-verify", "--message", "Tally: first version");
}

/**
 * The `@agentool/tools-git` family, read-write: after the files family's edit, review it with
 * `git_status` and `git_diff`, then commit exactly that file with `git_commit`.
 */
export const gitFamily: DemoFamily = {
  name: "git",
  createTools: ({ workspaceRoot }) => {
    initializeRepository(workspaceRoot);
    return createGitTools({ root: workspaceRoot, mode: "read-write", author: DEMO_AUTHOR });
  },
  tasks: [
    {
      // One plan step for review and commit: update_plan takes at most 20 steps.
      step: "Review the change with git and commit the fix",
      turns: [
        { toolCalls: [{ name: "git_status", arguments: {} }] },
        { toolCalls: [{ name: "git_diff", arguments: { path: "src/app.ts" } }] },
        {
          toolCalls: [
            {
              name: "git_commit",
              arguments: {
                message: "Default to port 8080, as the README documents",
                files: ["src/app.ts"],
              },
            },
          ],
        },
      ],
    },
  ],
  findings: ["Committed: “Default to port 8080, as the README documents” (only src/app.ts)."],
};
