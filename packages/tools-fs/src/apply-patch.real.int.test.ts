/**
 * apply_patch against patches nobody here wrote: `git diff` between two published versions of
 * semver (7.3.8 → 7.6.3, installed as aliased devDependencies), applied to the old tree and
 * compared with the new one byte for byte — as a unified diff (with and without -M), converted
 * to Codex's format, and in reverse (new → old, so the added file becomes a delete).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createApplyPatchTool } from "./apply-patch.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import { snapshotTree } from "./test-support/tree-snapshot.js";
import { unifiedToCodex } from "./test-support/unified-to-codex.js";
import { createWorkspace } from "./workspace.js";

const here = dirname(fileURLToPath(import.meta.url));
const oldTree = realpathSync(join(here, "../node_modules/semver-old"));
const newTree = realpathSync(join(here, "../node_modules/semver-new"));
const created: string[] = [];
afterAll(() => {
  for (const directory of created) rmSync(directory, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.autocrlf=false", ...args],
    { cwd, encoding: "utf8", maxBuffer: 64 * 1_048_576 },
  );
}

function replaceTree(root: string, from: string): void {
  for (const name of readdirSync(root)) {
    if (name !== ".git") rmSync(join(root, name), { recursive: true, force: true });
  }
  cpSync(from, root, { recursive: true });
}

/** A repository holding `from` committed, and the staged diff to `to` (`extra`: e.g. `-M`). */
function repositoryWithDiff(
  from: string,
  to: string,
  extra: string[],
): { root: string; diff: string } {
  const root = mkdtempSync(join(tmpdir(), "agentool-real-patch-"));
  created.push(root);
  git(root, "init", "-q");
  cpSync(from, root, { recursive: true });
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "old");
  replaceTree(root, to);
  git(root, "add", "-A");
  const diff = git(root, "diff", "--cached", ...extra);
  git(root, "reset", "-q", "--hard", "HEAD");
  git(root, "clean", "-qfdx");
  return { root, diff };
}

const contentOnly = (snapshot: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(snapshot).map(([path, value]) => [path, value.replace(/:[0-7]+$/, "")]),
  );

async function applyAndCompare(root: string, patch: string, expected: string) {
  const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
  const tool = createApplyPatchTool({ workspace });
  const result = await tool.run({ patch });
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  expect(contentOnly(await snapshotTree(root, [".git"]))).toEqual(
    contentOnly(await snapshotTree(expected)),
  );
  const hunks = result.data.files.reduce((sum, file) => sum + file.hunks, 0);
  return {
    files: result.data.files.length,
    hunks,
    actions: result.data.files.map((file) => file.action),
  };
}

describe("apply_patch on real git diffs (semver 7.3.8 ↔ 7.6.3)", () => {
  const figures: string[] = [];
  afterAll(() => {
    console.log(`apply_patch real patches:\n${figures.join("\n")}`);
  });

  for (const [label, from, to] of [
    ["7.3.8 → 7.6.3", oldTree, newTree],
    ["7.6.3 → 7.3.8", newTree, oldTree],
  ] as const) {
    for (const extra of [[], ["-M"]]) {
      it(`${label}: git diff ${extra.join(" ")} applies byte for byte, as a unified diff and in Codex's format`, async () => {
        const { root, diff } = repositoryWithDiff(from, to, extra);
        const unified = await applyAndCompare(root, diff, to);
        expect(unified.files).toBeGreaterThan(10);
        git(root, "reset", "-q", "--hard", "HEAD");
        git(root, "clean", "-qfdx");
        const codex = await applyAndCompare(root, unifiedToCodex(diff), to);
        expect(codex).toEqual(unified);
        const counts = (kind: string) => unified.actions.filter((action) => action === kind).length;
        figures.push(
          `${label} (git diff ${extra.join(" ") || "plain"}): ${diff.split("\n").length} patch lines, ${unified.files} files (${counts("updated")} updated, ${counts("added")} added, ${counts("deleted")} deleted, ${counts("moved")} moved), ${unified.hunks} hunks — unified and Codex format both byte-identical`,
        );
      }, 60_000);
    }
  }
});
