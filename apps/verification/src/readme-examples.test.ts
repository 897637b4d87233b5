// Docs are tests: every TypeScript/JavaScript block of every README runs as written. The first
// example of each package README runs in a fresh npm project holding only that package (from its
// packed tarball) and what the README's install line names; the later blocks run against the
// built workspace packages; blocks marked `<!-- doc-test: fragment -->` are type-checked instead.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  errorLines,
  importedPackages,
  installedPackages,
  listReadmes,
  type ReadmeBlock,
  readBlocks,
} from "./readme-blocks.js";
import { type BlockRun, blockSlug, createLimiter, runBlock } from "./run-block.js";
import { createTarballProject, listPublishablePackages, packWorkspace } from "./tarball-project.js";
import { typecheckFragments } from "./typecheck-fragments.js";

const repositoryRoot = resolve(import.meta.dirname, "../../..");
const scratch = resolve(import.meta.dirname, "../.doc-tests");
const temporary = mkdtempSync(join(tmpdir(), "agentool-readme-examples-"));
const queue = createLimiter(2);
rmSync(scratch, { recursive: true, force: true });
afterAll(() => rmSync(temporary, { recursive: true, force: true }));

const packages = listPublishablePackages(repositoryRoot);
const readmes = listReadmes(repositoryRoot);
const blocksByReadme = new Map(
  readmes.map((readme) => [readme, readBlocks(repositoryRoot, readme)]),
);
const packageReadmes = packages
  .map((workspacePackage) => ({
    ...workspacePackage,
    readme: `${workspacePackage.folder}/README.md`,
  }))
  .filter(({ readme }) => blocksByReadme.has(readme));

/** The first block of a package README runs from the tarball; every other runnable block here. */
const firstExamples = new Set(
  packageReadmes.flatMap(({ readme }) => blocksByReadme.get(readme)?.slice(0, 1) ?? []),
);
const workspaceBlocks = [...blocksByReadme.values()]
  .flat()
  .filter((block) => block.mode !== "fragment" && !firstExamples.has(block));
const fragments = [...blocksByReadme.values()].flat().filter((block) => block.mode === "fragment");

let packed: Promise<Map<string, string>> | undefined;
/** Packs every publishable package once per run. */
function tarballs(): Promise<Map<string, string>> {
  packed ??= packWorkspace(repositoryRoot, join(temporary, "tarballs"));
  return packed;
}

/** Fails with the run's output unless it exited 0 and printed an error exactly when marked to. */
function expectClean(block: ReadmeBlock, run: BlockRun): void {
  const where = `${block.readme}:${block.line} (${run.milliseconds} ms)`;
  if (process.env.DOC_TEST_VERBOSE === "1") console.log(`── ${where}\n${run.output}`);
  expect(run.exitCode, `${where} exited ${run.exitCode}:\n${run.output}`).toBe(0);
  const errors = errorLines(run.output);
  if (block.mode === "expect-error") {
    expect(errors.length, `${where} is marked expect-error but printed no error`).toBeGreaterThan(
      0,
    );
  } else {
    expect(errors, `${where} printed an error:\n${run.output}`).toEqual([]);
  }
}

describe("README markers and install lines", () => {
  it.each(packageReadmes)(
    "$readme has an install line naming everything its first example imports",
    ({ name, readme }) => {
      const markdown = readFileSync(join(repositoryRoot, readme), "utf8");
      const installed = installedPackages(markdown);
      expect(installed, `${readme} has no npm install line`).toContain(name);
      const first = blocksByReadme.get(readme)?.[0];
      expect(first, `${readme} has no TypeScript example`).toBeDefined();
      expect(first?.mode, `${readme}: the first example must run, not be a fragment`).not.toBe(
        "fragment",
      );
      const missing = importedPackages(first?.code ?? "").filter(
        (imported) => !installed.includes(imported),
      );
      expect(
        missing,
        `${readme}:${first?.line} imports packages its install line does not name`,
      ).toEqual([]);
    },
  );
});

describe.concurrent("first example of each package README, from its packed tarball", () => {
  it.each(packageReadmes)("$readme", { timeout: 600_000 }, async ({ name, readme }) => {
    const first = blocksByReadme.get(readme)?.[0];
    if (first === undefined) throw new Error(`${readme} has no TypeScript example`);
    const installNames = installedPackages(readFileSync(join(repositoryRoot, readme), "utf8"));
    const all = await tarballs();
    const project = join(temporary, "projects", blockSlug(first));
    const run = await queue(async () => {
      await createTarballProject({
        folder: project,
        packageName: name,
        installNames,
        tarballs: all,
      });
      return runBlock(first, project, project);
    });
    expectClean(first, run);
  });
});

describe.concurrent("later README blocks, against the built workspace packages", () => {
  it.each(workspaceBlocks.map((block) => ({ block, name: `${block.readme}:${block.line}` })))(
    "$name",
    { timeout: 300_000 },
    async ({ block }) => {
      const run = await queue(() => runBlock(block, join(scratch, "run")));
      expectClean(block, run);
    },
  );
});

describe("README fragments", () => {
  it("type-check against the built packages", { timeout: 120_000 }, () => {
    const problems = typecheckFragments(fragments, join(scratch, "fragments"));
    expect(problems.map((problem) => `${problem.location}: ${problem.message}`)).toEqual([]);
  });
});
