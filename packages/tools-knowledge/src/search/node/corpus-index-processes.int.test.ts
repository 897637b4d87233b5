import { execFile } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSearchKnowledgeTool } from "../search-knowledge.js";
import { createCorpusSource } from "./index.js";
import { decodeIndex } from "./internal/index-file.js";

/*
 * Child processes need runnable JavaScript: they import the package's built `dist/` (turbo builds
 * the package before its tests run), by absolute file URL.
 */
const packageDirectory = fileURLToPath(new URL("../../..", import.meta.url));
const DIST_ROOT = pathToFileURL(join(packageDirectory, "dist", "index.js")).href;
const DIST_NODE = pathToFileURL(join(packageDirectory, "dist", "node", "index.js")).href;

const CHILDREN = 3;
const ROUNDS = 12;

/** A child: searches the shared folder in rounds, writing its own file before each search. */
const CHILD = `
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSearchKnowledgeTool } from "${DIST_ROOT}";
import { createCorpusSource } from "${DIST_NODE}";

const [root, id, rounds, barrier, children] = [
  process.argv[2], Number(process.argv[3]), Number(process.argv[4]), process.argv[5], Number(process.argv[6]),
];

/** The same deterministic feature-hashing embedder in every process. */
class ChildEmbeddings {
  model = "child-hashing";
  dimensions = 32;
  async embedDocuments(texts) { return texts.map((text) => this.vector(text)); }
  async embedQuery(text) { return this.vector(text); }
  vector(text) {
    const vector = new Array(this.dimensions).fill(0);
    for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      let hash = 2166136261;
      for (const character of word) hash = Math.imul(hash ^ character.charCodeAt(0), 16777619);
      vector[(hash >>> 0) % this.dimensions] += 1;
    }
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  }
}

const letters = "abcdefghijklmnopqrstuvwxyz";
const token = (round) => "zq" + letters[id] + letters[round % 26] + letters[Math.floor(round / 26)] + "marker";
const source = createCorpusSource({ root, embeddings: new ChildEmbeddings(), batchSize: 8 });
const tool = createSearchKnowledgeTool({ source });
mkdirSync(join(root, "child-" + id), { recursive: true });
// Start together: every child waits until all are loaded, so their searches overlap.
writeFileSync(join(barrier, "ready-" + id), "");
const everyone = () => Array.from({ length: children }, (_, other) => join(barrier, "ready-" + other)).every(existsSync);
while (!everyone()) await new Promise((resolve) => setTimeout(resolve, 2));
const started = Date.now();
const results = [];
for (let round = 0; round < rounds; round += 1) {
  writeFileSync(join(root, "child-" + id, "own.md"), "# Child " + id + "\\n\\nRound " + round + " writes " + token(round) + ".\\n");
  const result = await tool.run({ query: token(round) });
  results.push(result.success
    ? { ok: true, top: result.data.hits[0]?.file, excerpt: result.data.hits[0]?.excerpt, warnings: result.data.warnings }
    : { ok: false, error: result.error });
  await tool.run({ query: "shared lighthouse" });
}
process.stdout.write(JSON.stringify({ results, last: token(rounds - 1), started, finished: Date.now() }));
`;

/** The children's embedder, here too (same class name, model and vectors: the same fingerprint). */
class ChildEmbeddings {
  readonly model = "child-hashing";
  readonly dimensions = 32;
  embedded = 0;
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.embedded += texts.length;
    return texts.map((text) => this.vector(text));
  }
  async embedQuery(text: string): Promise<number[]> {
    return this.vector(text);
  }
  vector(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      let hash = 2166136261;
      for (const character of word) hash = Math.imul(hash ^ character.charCodeAt(0), 16777619);
      const feature = (hash >>> 0) % this.dimensions;
      vector[feature] = (vector[feature] as number) + 1;
    }
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  }
}

let work = "";

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "agentool-corpus-processes-"));
  writeFileSync(join(work, "child.mjs"), CHILD);
});

afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true });
});

interface ChildOutput {
  results: Array<
    | { ok: true; top: string | undefined; excerpt: string | undefined; warnings: string[] }
    | { ok: false; error: unknown }
  >;
  last: string;
  started: number;
  finished: number;
}

function runChild(root: string, id: number, barrier: string): Promise<ChildOutput> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(work, "child.mjs"), root, String(id), String(ROUNDS), barrier, String(CHILDREN)],
      { cwd: work, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`child ${id} failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as ChildOutput);
      },
    );
  });
}

describe("two processes searching one folder at once", () => {
  it("every search succeeds while files change, and the sidecar stays whole", async () => {
    const root = mkdtempSync(join(tmpdir(), "agentool-corpus-shared-"));
    try {
      mkdirSync(join(root, "shared"));
      for (let index = 0; index < 40; index += 1) {
        writeFileSync(
          join(root, "shared", `page-${index}.md`),
          `# Page ${index}\n\nThe shared lighthouse log, entry ${index}.\n\n## Details\n\nKeeper notes ${index}.\n`,
        );
      }
      const barrier = mkdtempSync(join(work, "barrier-"));
      const children = Array.from({ length: CHILDREN }, (_, id) => runChild(root, id, barrier));
      let running = true;
      const settled = Promise.allSettled(children).finally(() => {
        running = false;
      });
      // Meanwhile this process keeps changing the shared folder.
      let churn = 0;
      while (running) {
        writeFileSync(
          join(root, "shared", `churn-${churn}.md`),
          `# Churn ${churn}\n\nThe shared lighthouse churns ${churn}.\n`,
        );
        if (churn >= 3) unlinkSync(join(root, "shared", `churn-${churn - 3}.md`));
        churn += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const outcomes = await settled;
      const outputs = outcomes.map((outcome) => {
        if (outcome.status === "rejected") throw outcome.reason;
        return outcome.value;
      });
      expect(churn).toBeGreaterThan(3);
      // The children really searched at the same time (all started before any finished).
      const lastStart = Math.max(...outputs.map((output) => output.started));
      expect(outputs.every((output) => output.finished > lastStart)).toBe(true);
      for (const [id, output] of outputs.entries()) {
        expect(output.results).toHaveLength(ROUNDS);
        for (const result of output.results) {
          expect(result).toMatchObject({ ok: true, top: `child-${id}/own.md` });
          if (!result.ok) continue;
          expect(result.warnings.filter((warning) => warning.includes("rebuilt"))).toEqual([]);
        }
      }

      // The sidecar every process wrote in turn decodes, and holds no half-written state.
      const indexPath = join(root, ".knowledge", "index.bin");
      const stored = decodeIndex(readFileSync(indexPath));
      expect(stored.files.length).toBeGreaterThanOrEqual(40 + CHILDREN);
      expect(readdirSync(join(root, ".knowledge")).filter((name) => name.endsWith(".tmp"))).toEqual(
        [],
      );

      // A third search, here, reads it and answers right about the final folder.
      const embeddings = new ChildEmbeddings();
      const source = createCorpusSource({ root, embeddings });
      const tool = createSearchKnowledgeTool({ source });
      for (const [id, output] of outputs.entries()) {
        const result = await tool.run({ query: output.last });
        expect(result.success).toBe(true);
        if (!result.success) continue;
        expect(result.data.hits[0]?.file).toBe(`child-${id}/own.md`);
        expect(result.data.hits[0]?.excerpt).toContain(output.last);
        expect(result.data.warnings).toEqual([]);
      }
      const lastChurn = await tool.run({ query: "lighthouse churns", limit: 50 });
      expect(lastChurn.success).toBe(true);
      if (lastChurn.success) {
        const churned = lastChurn.data.hits
          .filter((hit) => hit.excerpt.includes("lighthouse churns"))
          .map((hit) => hit.file);
        expect(churned.sort()).toEqual(
          [churn - 3, churn - 2, churn - 1].map((index) => `shared/churn-${index}.md`).sort(),
        );
      }
      const report = await source.refresh();
      expect(report).toMatchObject({
        files: 40 + CHILDREN + 3,
        pendingEmbeddings: 0,
        warnings: [],
      });
      // Only what changed after the children's last save was embedded here, not the whole folder.
      expect(embeddings.embedded).toBeLessThan(stored.files.length);
      expect(existsSync(join(root, ".knowledge", ".gitignore"))).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 90_000);
});
