import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { AGENTOOL_TOOL_NAMES, findAbsentToolNames } from "@agentool/contract/testing";
import {
  CallToolResultSchema,
  ListRootsRequestSchema,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  requireBuiltCli,
  runCli,
  type StdioSession,
  startStdioSession,
  temporaryDirectory,
} from "./test-support/spawn-server.js";
import { callTool as call, resultTextWithMarkers as text } from "./test-support/tool-results.js";

const POWER = [
  "# Power supply",
  "",
  "The board takes 5 V over USB-C.",
  "",
  "## Regulator limits",
  "",
  "The buck regulator delivers at most 800 mA to the radio module.",
  "Above that the regulator folds back and the radio browns out.",
  "",
  "## Battery",
  "",
  "A single 18650 cell keeps the counter alive for two days.",
  "",
].join("\n");

const DEPLOY = [
  "# Deploying",
  "",
  "Tag a release, then the pipeline builds the container image.",
  "",
  "## Rollback",
  "",
  "Re-deploy the previous tag; the database migrations are backwards compatible.",
  "",
].join("\n");

let cache: ReturnType<typeof temporaryDirectory>;
let page: Server;
let pageOrigin: string;

beforeAll(async () => {
  requireBuiltCli();
  cache = temporaryDirectory();
  page = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(
      "<html><head><title>Tally calibration</title></head><body><article><h1>Tally calibration</h1><p>Calibrate the flux capacitor of the tally counter by holding the zircon button for nine seconds.</p><p>The status lamp blinks amber while the calibration runs.</p></article></body></html>",
    );
  });
  await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
});

afterAll(async () => {
  cache?.cleanup();
  await new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve()));
});

/** Every session gets the test's own cache folder, so read-only indexes land where we look. */
function start(args: string[], cacheHome = cache.path) {
  return startStdioSession(args, { env: { XDG_CACHE_HOME: cacheHome } });
}

async function withSession<T>(
  args: string[],
  work: (session: StdioSession) => Promise<T>,
): Promise<T> {
  const session = await start(args);
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}

async function toolNames(session: StdioSession): Promise<string[]> {
  return (await session.client.listTools()).tools.map((tool) => tool.name);
}

/** Every file and folder under `path` with its size and modification time. */
function tree(path: string, prefix = ""): string[] {
  const entries: string[] = [];
  for (const name of readdirSync(path).sort()) {
    const absolute = join(path, name);
    const info = lstatSync(absolute);
    entries.push(`${prefix}${name} ${info.isDirectory() ? "dir" : info.size} ${info.mtimeMs}`);
    if (info.isDirectory()) entries.push(...tree(absolute, `${prefix}${name}/`));
  }
  return entries;
}

function cacheIndexOf(folder: string, cacheHome = cache.path): string {
  const hash = createHash("sha256").update(realpathSync(folder)).digest("hex");
  return join(cacheHome, "agentool", "knowledge", hash, "index.bin");
}

/** The first hit's reference of a search_knowledge text: `file:start-end`. */
function firstReference(output: string): { file: string; start: number; end: number } {
  const match = /^1\. (\S+?):(\d+)-(\d+)/m.exec(output);
  if (match === null) throw new Error(`no hit in:\n${output}`);
  return { file: match[1] as string, start: Number(match[2]), end: Number(match[3]) };
}

describe("the knowledge family: tools/list", { timeout: 60_000 }, () => {
  it("serves search_knowledge, remember and search_memory alone, in both modes", async () => {
    const project = temporaryDirectory({ "power.md": POWER });
    try {
      for (const mode of ["read-only", "read-write"]) {
        await withSession(
          ["--root", project.path, "--families", "knowledge", "--mode", mode],
          async (session) => {
            const { tools } = await session.client.listTools();
            expect(
              tools.map((tool) => tool.name),
              mode,
            ).toEqual(["search_knowledge", "remember", "search_memory"]);
            const byName = new Map(tools.map((tool) => [tool.name, tool]));
            expect(byName.get("search_knowledge")?.annotations?.readOnlyHint).toBe(true);
            expect(byName.get("search_memory")?.annotations?.readOnlyHint).toBe(true);
            expect(byName.get("remember")?.annotations?.readOnlyHint).toBe(false);
            expect(byName.get("remember")?.annotations?.destructiveHint).toBe(false);
            expect(byName.get("remember")?.description).toContain("search_memory");
            expect(byName.get("remember")?.description).toContain("gone when it restarts");
            expect(byName.get("search_memory")?.inputSchema.properties).toHaveProperty("tags");
            const mounted = new Set(tools.map((tool) => tool.name));
            for (const tool of tools) {
              expect(
                findAbsentToolNames(tool.description ?? "", mounted, AGENTOOL_TOOL_NAMES),
                tool.name,
              ).toEqual([]);
            }
          },
        );
      }
    } finally {
      project.cleanup();
    }
  });

  it("cross-references the served tools: read_file in the workflow, web_fetch only when it saves into the folder", async () => {
    const project = temporaryDirectory({ "power.md": POWER });
    try {
      const descriptions = async (mode: string) =>
        withSession(
          ["--root", project.path, "--families", "fs,web,knowledge", "--mode", mode],
          async (session) => {
            const { tools } = await session.client.listTools();
            return new Map(tools.map((tool) => [tool.name, tool.description ?? ""]));
          },
        );
      const readOnly = await descriptions("read-only");
      expect(readOnly.get("search_knowledge")).toContain("read_file");
      expect(readOnly.get("search_knowledge")).toContain("grep_search");
      expect(readOnly.get("search_knowledge")).not.toContain("web_fetch");
      expect(readOnly.get("web_fetch")).not.toContain("saved as a Markdown file");
      expect(readOnly.get("search_memory")).toContain("search_knowledge");
      const readWrite = await descriptions("read-write");
      expect(readWrite.get("search_knowledge")).toContain("pages saved by web_fetch");
      expect(readWrite.get("web_fetch")).toContain("saved as a Markdown file");
    } finally {
      project.cleanup();
    }
  });

  it("joins the default families, and without a root keeps remember and search_memory only", async () => {
    const project = temporaryDirectory({ "power.md": POWER });
    try {
      const all = await withSession(["--root", project.path], toolNames);
      expect(all.slice(all.indexOf("web_fetch") + 1)).toEqual([
        "search_knowledge",
        "remember",
        "search_memory",
        "notify",
      ]);
      await withSession(["--families", "knowledge"], async (session) => {
        expect(await toolNames(session)).toEqual(["remember", "search_memory"]);
        await session.waitForStderr("search_knowledge left out: no root");
      });
    } finally {
      project.cleanup();
    }
  });
});

describe("the knowledge family: search_knowledge", { timeout: 60_000 }, () => {
  it("finds a passage whose reference file.md:a-b read_file opens, line for line", async () => {
    const project = temporaryDirectory({
      "docs/power.md": POWER,
      "docs/deploy.md": DEPLOY,
      "notes.txt": "Shopping: coffee, flour.\n",
    });
    try {
      await withSession(["--root", project.path, "--families", "fs,knowledge"], async (session) => {
        const result = await call(session, "search_knowledge", {
          query: "regulator limit radio",
        });
        expect(result.isError ?? false).toBe(false);
        const output = text(result);
        const reference = firstReference(output);
        expect(reference.file).toBe("docs/power.md");
        expect(output).toContain("Regulator limits");
        const lines = POWER.split("\n");
        const cited = lines.slice(reference.start - 1, reference.end);
        expect(cited.join("\n")).toContain("at most 800 mA");
        const opened = await call(session, "read_file", {
          path: reference.file,
          offset: reference.start,
          limit: reference.end - reference.start + 1,
        });
        expect(opened.isError ?? false).toBe(false);
        for (const line of cited.filter((line) => line.length > 0)) {
          expect(text(opened)).toContain(line);
        }
        // Lines outside the span are not part of the page read_file returned.
        expect(text(opened)).not.toContain("A single 18650 cell");
        expect(output).toContain(
          `read_file: ${reference.file}:${reference.start}-${reference.end} is path="docs/power.md"`,
        );
      });
    } finally {
      project.cleanup();
    }
  });

  it("says why a search found nothing: empty folder, no match, filtered out", async () => {
    const empty = temporaryDirectory({ "image.png": "not markdown" });
    const project = temporaryDirectory({ "docs/power.md": POWER, "ops/deploy.md": DEPLOY });
    try {
      await withSession(["--root", empty.path, "--families", "knowledge"], async (session) => {
        const result = await call(session, "search_knowledge", { query: "regulator" });
        expect(result.isError ?? false).toBe(false);
        expect(text(result)).toContain("The knowledge folder has no Markdown or text file yet");
      });
      await withSession(["--root", project.path, "--families", "knowledge"], async (session) => {
        const nothing = await call(session, "search_knowledge", { query: "xylophone quasar" });
        expect(nothing.isError ?? false).toBe(false);
        expect(text(nothing)).toContain('No passage matches "xylophone quasar" in 2 documents');
        const filtered = await call(session, "search_knowledge", {
          query: "regulator",
          path_prefix: "ops/",
        });
        expect(filtered.isError ?? false).toBe(false);
        expect(text(filtered)).toContain(
          'Passages match "regulator", but none with path_prefix="ops/"',
        );
        const kept = await call(session, "search_knowledge", {
          query: "regulator",
          path_prefix: "docs/",
        });
        expect(firstReference(text(kept)).file).toBe("docs/power.md");
      });
    } finally {
      empty.cleanup();
      project.cleanup();
    }
  });

  it("reports indexing progress to a client that sends a progress token (a cold index of 400 files)", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 400; index += 1) {
      files[`corpus/part-${String(index).padStart(3, "0")}.md`] = [
        `# Part ${index}`,
        "",
        `Section ${index} covers the widget number ${index * 7} and its calibration.`,
        "",
        "## Details",
        "",
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(40),
        "",
      ].join("\n");
    }
    const project = temporaryDirectory(files);
    try {
      await withSession(["--root", project.path, "--families", "knowledge"], async (session) => {
        const updates: Progress[] = [];
        const result = CallToolResultSchema.parse(
          await session.client.callTool(
            { name: "search_knowledge", arguments: { query: "widget 2107 calibration" } },
            undefined,
            { onprogress: (progress) => updates.push(progress) },
          ),
        );
        expect(result.isError ?? false).toBe(false);
        expect(firstReference(text(result)).file).toBe("corpus/part-301.md");
        expect(updates.length).toBeGreaterThanOrEqual(1);
        expect(updates.every((update) => update.total === 400)).toBe(true);
        expect(updates[0]?.message).toContain("indexing the knowledge folder");
        const values = updates.map((update) => update.progress);
        expect([...values].sort((left, right) => left - right)).toEqual(values);
        expect(new Set(values).size).toBe(values.length);
        // A warm search has nothing to index: no progress.
        const warm: Progress[] = [];
        await session.client.callTool(
          { name: "search_knowledge", arguments: { query: "widget" } },
          undefined,
          { onprogress: (progress) => warm.push(progress) },
        );
        expect(warm).toEqual([]);
      });
    } finally {
      project.cleanup();
    }
  });
});

describe("the knowledge family: the index and the user's folder", { timeout: 60_000 }, () => {
  it("read-only mode writes nothing inside the root: the index goes to the cache folder", async () => {
    const project = temporaryDirectory({ "docs/power.md": POWER, "docs/deploy.md": DEPLOY });
    const cacheHome = temporaryDirectory();
    try {
      const before = tree(project.path);
      const session = await start(
        ["--root", project.path, "--families", "fs,knowledge"],
        cacheHome.path,
      );
      try {
        const found = await call(session, "search_knowledge", { query: "rollback previous tag" });
        expect(firstReference(text(found)).file).toBe("docs/deploy.md");
        const saved = await call(session, "remember", {
          text: "The radio browns out above 800 mA.",
        });
        expect(saved.isError ?? false).toBe(false);
        await session.waitForStderr(`index in ${join(cacheHome.path, "agentool", "knowledge")}`);
      } finally {
        await session.close();
      }
      expect(tree(project.path)).toEqual(before);
      expect(existsSync(join(project.path, ".knowledge"))).toBe(false);
      const index = cacheIndexOf(project.path, cacheHome.path);
      expect(existsSync(index)).toBe(true);
      expect(lstatSync(index).size).toBeGreaterThan(0);
    } finally {
      project.cleanup();
      cacheHome.cleanup();
    }
  });

  it("read-write mode keeps the index in <knowledge-dir>/.knowledge", async () => {
    const project = temporaryDirectory({ "sources/power.md": POWER, "README.md": "# Other\n" });
    try {
      await withSession(
        [
          "--root",
          project.path,
          "--families",
          "fs,knowledge",
          "--mode",
          "read-write",
          "--knowledge-dir",
          "sources",
        ],
        async (session) => {
          const found = await call(session, "search_knowledge", { query: "battery cell days" });
          const reference = firstReference(text(found));
          // Root-relative, so read_file (confined to the root) opens it.
          expect(reference.file).toBe("sources/power.md");
          const opened = await call(session, "read_file", {
            path: reference.file,
            offset: reference.start,
            limit: reference.end - reference.start + 1,
          });
          expect(text(opened)).toContain("A single 18650 cell");
          // Only the knowledge folder is searched; a root-relative prefix works too.
          const outside = await call(session, "search_knowledge", { query: "Other" });
          expect(text(outside)).not.toContain("README.md");
          const prefixed = await call(session, "search_knowledge", {
            query: "battery",
            path_prefix: "sources/",
          });
          expect(firstReference(text(prefixed)).file).toBe("sources/power.md");
        },
      );
      expect(existsSync(join(project.path, "sources", ".knowledge", "index.bin"))).toBe(true);
      expect(existsSync(cacheIndexOf(join(project.path, "sources")))).toBe(false);
    } finally {
      project.cleanup();
    }
  });

  it("refuses a --knowledge-dir outside the root with a clear error (exit code 2)", async () => {
    const project = temporaryDirectory({ "power.md": POWER });
    const elsewhere = temporaryDirectory({ "secret-plans.md": "# Plans\n" });
    try {
      symlinkSync(elsewhere.path, join(project.path, "linked"));
      const climbing = await runCli(["--root", project.path, "--knowledge-dir", "../outside"]);
      expect(climbing.code).toBe(2);
      expect(climbing.stderr).toContain(
        '--knowledge-dir "../outside" climbs above the project root.',
      );
      expect(climbing.stderr).toContain("Give a folder inside the root");

      const absolute = await runCli(["--root", project.path, "--knowledge-dir", elsewhere.path]);
      expect(absolute.code).toBe(2);
      expect(absolute.stderr).toContain("is an absolute path outside the project root.");

      const linked = await runCli(["--root", project.path, "--knowledge-dir", "linked"]);
      expect(linked.code).toBe(2);
      expect(linked.stderr).toContain(
        `--knowledge-dir linked resolves to ${realpathSync(elsewhere.path)}, outside --root`,
      );

      const family = await runCli([
        "--root",
        project.path,
        "--families",
        "fs",
        "--knowledge-dir",
        "docs",
      ]);
      expect(family.code).toBe(2);
      expect(family.stderr).toContain("--knowledge-dir configures the knowledge family");

      // An absolute path inside the root is accepted, as the same folder relative to it.
      mkdirSync(join(project.path, "docs"));
      writeFileSync(join(project.path, "docs", "deploy.md"), DEPLOY);
      await withSession(
        [
          "--root",
          project.path,
          "--families",
          "knowledge",
          "--knowledge-dir",
          join(project.path, "docs"),
        ],
        async (session) => {
          const found = await call(session, "search_knowledge", { query: "rollback" });
          expect(firstReference(text(found)).file).toBe("docs/deploy.md");
        },
      );
    } finally {
      project.cleanup();
      elsewhere.cleanup();
    }
  });
});

describe("the knowledge family: remember and search_memory", { timeout: 60_000 }, () => {
  it("reads back what remember saved, filtered by tags", async () => {
    const project = temporaryDirectory({ "power.md": POWER });
    try {
      await withSession(["--root", project.path, "--families", "knowledge"], async (session) => {
        const empty = await call(session, "search_memory", { query: "pricing" });
        expect(text(empty)).toContain("No excerpt has been saved with remember yet");
        const saved = await call(session, "remember", {
          text: "Pro plan: $49 per month, billed yearly.",
          source: "https://example.com/pricing",
          tags: ["pricing"],
        });
        expect(saved.isError ?? false).toBe(false);
        expect(text(saved)).toContain("search_memory");
        await call(session, "remember", {
          text: "The staging database restarts every Sunday at 03:00.",
          tags: ["ops"],
        });
        const found = await call(session, "search_memory", { query: "pro plan month" });
        expect(found.isError ?? false).toBe(false);
        expect(text(found)).toContain("Pro plan: $49 per month");
        expect(text(found)).toContain("source https://example.com/pricing");
        const tagged = await call(session, "search_memory", { query: "plan", tags: "ops" });
        expect(text(tagged)).not.toContain("Pro plan");
        // The folder search does not see memory, and memory does not see the folder.
        const folder = await call(session, "search_knowledge", { query: "pro plan month" });
        expect(text(folder)).not.toContain("Pro plan: $49");
        const memory = await call(session, "search_memory", { query: "regulator" });
        expect(text(memory)).not.toContain("power.md");
      });
    } finally {
      project.cleanup();
    }
  });
});

describe("the knowledge family: web_fetch, then search_knowledge, then read_file", {
  timeout: 60_000,
}, () => {
  it("web_fetch saves the page into the knowledge folder, search_knowledge finds it, read_file opens it", async () => {
    const project = temporaryDirectory({ "notes/power.md": POWER });
    try {
      await withSession(
        [
          "--root",
          project.path,
          "--families",
          "fs,web,knowledge",
          "--mode",
          "read-write",
          "--knowledge-dir",
          "notes",
          "--allow-host",
          "127.0.0.1",
        ],
        async (session) => {
          const fetched = await call(session, "web_fetch", { url: `${pageOrigin}/calibration` });
          expect(fetched.isError ?? false).toBe(false);
          const port = new URL(pageOrigin).port;
          const savedAs = `notes/web-pages/127.0.0.1-${port}-calibration.md`;
          expect(text(fetched)).toContain(`Saved as: ${savedAs}`);
          expect(readFileSync(join(project.path, savedAs), "utf8")).toContain("zircon button");

          const found = await call(session, "search_knowledge", {
            query: "zircon button calibration",
          });
          expect(found.isError ?? false).toBe(false);
          const reference = firstReference(text(found));
          expect(reference.file).toBe(savedAs);
          const opened = await call(session, "read_file", {
            path: reference.file,
            offset: reference.start,
            limit: reference.end - reference.start + 1,
          });
          expect(opened.isError ?? false).toBe(false);
          expect(text(opened)).toContain("holding the zircon button for nine seconds");
          await session.waitForStderr("web_fetch saves pages into notes/web-pages");
        },
      );
    } finally {
      project.cleanup();
    }
  });

  it("read-only mode does not save fetched pages", async () => {
    const project = temporaryDirectory({ "notes/power.md": POWER });
    try {
      const before = tree(project.path);
      await withSession(
        ["--root", project.path, "--families", "web,knowledge", "--allow-host", "127.0.0.1"],
        async (session) => {
          const fetched = await call(session, "web_fetch", { url: `${pageOrigin}/calibration` });
          expect(fetched.isError ?? false).toBe(false);
          expect(text(fetched)).not.toContain("Saved as:");
        },
      );
      expect(tree(project.path)).toEqual(before);
    } finally {
      project.cleanup();
    }
  });
});

describe("the knowledge family: MCP roots", { timeout: 60_000 }, () => {
  it("follows the client's root, and a roots change searches the new folder", async () => {
    const first = temporaryDirectory({ "docs/power.md": POWER });
    const second = temporaryDirectory({ "docs/deploy.md": DEPLOY });
    let roots = [{ uri: pathToFileURL(first.path).href }];
    const session = await startStdioSession(
      ["--families", "knowledge", "--knowledge-dir", "docs"],
      {
        env: { XDG_CACHE_HOME: cache.path },
        capabilities: { roots: { listChanged: true } },
        setup: (client) => client.setRequestHandler(ListRootsRequestSchema, () => ({ roots })),
      },
    );
    try {
      const before = await call(session, "search_knowledge", { query: "regulator" });
      expect(firstReference(text(before)).file).toBe("docs/power.md");
      roots = [{ uri: pathToFileURL(second.path).href }];
      await session.client.sendRootsListChanged();
      const after = await call(session, "search_knowledge", { query: "rollback regulator" });
      expect(firstReference(text(after)).file).toBe("docs/deploy.md");
      expect(text(after)).not.toContain("power.md");
      await session.waitForStderr(`search_knowledge searches ${realpathSync(second.path)}/docs`);
      // Memory outlives the roots change.
      await call(session, "remember", { text: "Roots changed once during this test." });
      roots = [{ uri: pathToFileURL(first.path).href }];
      await session.client.sendRootsListChanged();
      const memory = await call(session, "search_memory", { query: "roots changed" });
      expect(text(memory)).toContain("Roots changed once during this test.");
    } finally {
      await session.close();
      first.cleanup();
      second.cleanup();
    }
  });
});
