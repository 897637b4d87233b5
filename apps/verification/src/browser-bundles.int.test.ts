// Browser runtime for real: every runtime-neutral entry (scripts/runtime-neutral-entries.mjs, the
// list scripts/check-packages.mjs scans) is bundled into a small browser script the way an app
// would bundle it (rolldown, platform "browser", one ESM file, no Node built-in and no shim for
// one) and run in headless Chromium, where the script creates the entry's tools and makes real
// calls: a page served from 127.0.0.1, nothing else reachable. The test asserts each call's
// envelope and content, and that the page raised no error.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserBundle, bundleForBrowser } from "./browser-support/bundle-for-browser.js";
import { launchChromium, runEntryInPage } from "./browser-support/chromium.js";
import { ENTRY_EXPECTATIONS } from "./browser-support/entry-expectations.js";
import { type EntryServer, startEntryServer } from "./browser-support/entry-server.js";
import { FIXTURES } from "./browser-support/fixtures.js";

const repository = resolve(import.meta.dirname, "../../..");

/** One runtime-neutral entry and the browser script (in ./browser-entries) that uses it. */
interface BrowserEntry {
  /** The package's name. */
  packageName: string;
  /** The export path (`.`, `./testing`…). */
  subpath: string;
  /** The script's file name without `.ts`; also the bundle's name. */
  script: string;
}

const BROWSER_ENTRIES: readonly BrowserEntry[] = [
  { packageName: "@agentool/contract", subpath: ".", script: "contract" },
  { packageName: "@agentool/contract", subpath: "./testing", script: "contract-testing" },
  { packageName: "@agentool/contract", subpath: "./policy", script: "contract-policy" },
  { packageName: "@agentool/tools-core", subpath: ".", script: "tools-core" },
  { packageName: "@agentool/tools-fs", subpath: ".", script: "tools-fs" },
  { packageName: "@agentool/tools-web", subpath: ".", script: "tools-web" },
  { packageName: "@agentool/tools-interact", subpath: ".", script: "tools-interact" },
  { packageName: "@agentool/tools-preview", subpath: ".", script: "tools-preview" },
  { packageName: "@agentool/tools-gui", subpath: ".", script: "tools-gui" },
  { packageName: "@agentool/tools-knowledge", subpath: ".", script: "tools-knowledge" },
  {
    packageName: "@agentool/tools-knowledge",
    subpath: "./pgvector",
    script: "tools-knowledge-pgvector",
  },
  {
    packageName: "@agentool/tools-knowledge",
    subpath: "./search",
    script: "tools-knowledge-search",
  },
  {
    packageName: "@agentool/tools-knowledge",
    subpath: "./memory",
    script: "tools-knowledge-memory",
  },
  {
    packageName: "@agentool/tools-knowledge",
    subpath: "./skills",
    script: "tools-knowledge-skills",
  },
  { packageName: "@agentool/adapters", subpath: "./mcp", script: "adapters-mcp" },
  { packageName: "@agentool/adapters", subpath: "./openai", script: "adapters-openai" },
  { packageName: "@agentool/adapters", subpath: "./anthropic", script: "adapters-anthropic" },
  { packageName: "@agentool/adapters", subpath: "./gemini", script: "adapters-gemini" },
];

/** The built file an entry resolves to (its `exports[subpath].default`), absolute. */
function builtEntryFile(packageName: string, subpath: string): string {
  const folder = join(repository, "packages", packageName.replace("@agentool/", ""));
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as {
    exports?: Record<string, { default?: string } | string>;
  };
  const target = manifest.exports?.[subpath];
  const file = typeof target === "string" ? target : target?.default;
  if (file === undefined) throw new Error(`${packageName} exports no ${subpath}`);
  return join(folder, file);
}

const bundles = new Map<string, BrowserBundle>();
let database: PGlite;
let server: EntryServer;
let browser: Browser;

beforeAll(async () => {
  for (const { script } of BROWSER_ENTRIES) {
    const input = fileURLToPath(new URL(`./browser-entries/${script}.ts`, import.meta.url));
    bundles.set(script, await bundleForBrowser(input));
  }
  database = await PGlite.create({ extensions: { vector } });
  server = await startEntryServer({
    bundles: new Map([...bundles].map(([script, bundle]) => [script, bundle.code])),
    fixtures: FIXTURES,
    sql: (text, values) => database.query(text, values),
  });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await database?.close();
});

describe("the runtime-neutral entries in a browser", () => {
  it("covers exactly the entries scripts/runtime-neutral-entries.mjs lists", async () => {
    const { RUNTIME_NEUTRAL_ENTRIES } = (await import(
      join(repository, "scripts/runtime-neutral-entries.mjs")
    )) as { RUNTIME_NEUTRAL_ENTRIES: Record<string, readonly string[]> };
    const listed = Object.entries(RUNTIME_NEUTRAL_ENTRIES)
      .flatMap(([packageName, subpaths]) => subpaths.map((subpath) => `${packageName} ${subpath}`))
      .sort();
    const covered = BROWSER_ENTRIES.map(({ packageName, subpath }) => `${packageName} ${subpath}`);
    expect([...covered].sort()).toEqual(listed);
    expect(Object.keys(ENTRY_EXPECTATIONS).sort()).toEqual(
      BROWSER_ENTRIES.map(({ script }) => script).sort(),
    );
  });

  it("reports a graph that needs a Node built-in (node: or bare, as a shim would fill it)", async () => {
    const folder = mkdtempSync(join(tmpdir(), "agentool-browser-bundle-"));
    try {
      const script = join(folder, "needs-node.js");
      writeFileSync(
        script,
        'import { join } from "node:path";\nimport { Buffer } from "buffer";\nexport default () => join(Buffer.from("a").toString(), "b");\n',
      );
      const { nodeImports } = await bundleForBrowser(script);
      expect([...nodeImports].sort()).toEqual([
        `buffer (from ${script})`,
        `node:path (from ${script})`,
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  describe.each(BROWSER_ENTRIES)("$packageName $subpath", ({ packageName, subpath, script }) => {
    it("bundles for the browser with no Node built-in, the entry's built file included", () => {
      const bundle = bundles.get(script);
      expect(bundle?.nodeImports).toEqual([]);
      expect(bundle?.loadedModules).toContain(builtEntryFile(packageName, subpath));
    });

    it("creates its tools and runs real calls in headless Chromium", async () => {
      const run = await runEntryInPage(browser, server.origin, script);
      expect(run.pageErrors).toEqual([]);
      expect(run.consoleErrors).toEqual([]);
      const expectation = ENTRY_EXPECTATIONS[script];
      if (expectation === undefined) throw new Error(`no expectation for ${script}`);
      await expectation(run.value, { server, query: (text) => database.query(text) });
    }, 60_000);
  });
});
