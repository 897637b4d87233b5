import { existsSync, mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import {
  AGENTOOL_TOOL_NAMES,
  checkConformance,
  findAbsentToolNames,
} from "@agentool/contract/testing";
import type { InteractionHandler } from "@agentool/tools-interact";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildToolSetFrom } from "./internal/build-tool-set.js";
import { EAGER_FAMILY_MODULES } from "./internal/eager-family-modules.js";
import { createKnowledgeResources } from "./knowledge-resources.js";
import { temporaryDirectory } from "./test-support/spawn-server.js";
import {
  buildToolSet,
  disposeBrowserTool,
  isGitRepositoryRoot,
  type ToolSetConfiguration,
} from "./tool-sets.js";

const handler: InteractionHandler = { ask: () => "yes", notify: () => {} };
let project: ReturnType<typeof temporaryDirectory>;

let cache: ReturnType<typeof temporaryDirectory>;

beforeAll(() => {
  project = temporaryDirectory({ "a.md": "# A\n", "docs/b.md": "# B\n\nThe regulator limit.\n" });
  cache = temporaryDirectory();
});
afterAll(() => {
  project?.cleanup();
  cache?.cleanup();
});

const everything: ToolSetConfiguration = {
  families: ["core", "fs", "git", "web", "knowledge", "interact"],
  mode: "read-write",
  allowCommands: ["echo"],
  searxng: "http://127.0.0.1:9",
  allowHosts: ["127.0.0.1"],
};

describe("buildToolSet", () => {
  it("builds every family, each description naming only tools of this set", () => {
    mkdirSync(join(project.path, ".git"), { recursive: true });
    const set = buildToolSet(everything, { root: project.path, elicitation: true, handler });
    const names = set.tools.map((tool) => tool.name);
    expect(names).toContain("run_command");
    expect(names).toContain("git_commit");
    expect(names).toContain("web_search");
    expect(names).toContain("ask_user");
    expect(names).toContain("search_knowledge");
    expect(names).toContain("remember");
    expect(names).toContain("search_memory");
    expect(new Set(names).size).toBe(names.length);
    expect([...set.families.values()].flat().sort()).toEqual([...names].sort());
    const mounted = new Set(names);
    for (const tool of set.tools) {
      expect(
        findAbsentToolNames(tool.description, mounted, AGENTOOL_TOOL_NAMES),
        tool.name,
      ).toEqual([]);
    }
    expect(set.notes).toEqual([]);
  });

  it("fs, code and office share one workspace (one confinement, one set of write locks)", () => {
    const given: Record<string, unknown> = {};
    const { fs, code, office } = EAGER_FAMILY_MODULES;
    const modules = {
      ...EAGER_FAMILY_MODULES,
      fs: {
        ...fs,
        createNodeFsTools: (options: Parameters<typeof fs.createNodeFsTools>[0]) => {
          given.fs = options.workspace;
          return fs.createNodeFsTools(options);
        },
      },
      code: {
        ...code,
        createCodeTools: (options: Parameters<typeof code.createCodeTools>[0]) => {
          given.code = options.workspace;
          return code.createCodeTools(options);
        },
      },
      office: {
        ...office,
        createOfficeTools: (options: Parameters<typeof office.createOfficeTools>[0]) => {
          given.office = options.workspace;
          return office.createOfficeTools(options);
        },
      },
    };
    const set = buildToolSetFrom(
      modules,
      { ...everything, families: ["fs", "code", "office"] },
      { root: project.path, elicitation: false, handler },
    );
    expect(set.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["edit_file", "replace_symbol", "edit_document"]),
    );
    expect(given.fs).toBeDefined();
    expect(given.code).toBe(given.fs);
    expect(given.office).toBe(given.fs);
  });

  it("web_fetch's description names the allowed hosts in both modes (the saving one too)", () => {
    for (const mode of ["read-only", "read-write"] as const) {
      const set = buildToolSet(
        {
          ...everything,
          families: ["web", "knowledge"],
          mode,
          knowledgeCacheDirectory: cache.path,
        },
        { root: project.path, elicitation: false, handler },
      );
      const fetch = set.tools.find((tool) => tool.name === "web_fetch");
      expect(fetch?.description, mode).toContain("127.0.0.1");
      expect(fetch?.description, mode).not.toContain("Only public http(s) URLs work.");
    }
  });

  it("leaves out what the state cannot serve, with a note each", () => {
    const set = buildToolSet(
      { ...everything, mode: "read-only", allowCommands: [] },
      { root: undefined, elicitation: false, handler },
    );
    expect(set.tools.map((tool) => tool.name)).toEqual([
      "think",
      "update_plan",
      "web_search",
      "wiki_search",
      "web_fetch",
      "remember",
      "search_memory",
      "notify",
    ]);
    expect(set.notes).toHaveLength(3);
    expect(set.notes[0]).toContain("fs and git tools left out");
    expect(set.notes[1]).toContain("search_knowledge left out: no root");
    expect(set.notes[2]).toContain("ask_user and confirm left out");
    const mounted = new Set(set.tools.map((tool) => tool.name));
    for (const tool of set.tools) {
      expect(
        findAbsentToolNames(tool.description, mounted, AGENTOOL_TOOL_NAMES),
        tool.name,
      ).toEqual([]);
    }
  });

  it("passes the conformance kit's checks as one set (schemas for every provider, names, descriptions)", async () => {
    const set = buildToolSet(everything, { root: project.path, elicitation: true, handler });
    const report = await checkConformance(set.tools);
    expect(report.violations).toEqual([]);
    expect(report.checkedTools).toHaveLength(set.tools.length);
  });
});

describe("buildToolSet: the knowledge family", () => {
  const knowledgeOnly: ToolSetConfiguration = {
    families: ["fs", "web", "knowledge"],
    mode: "read-only",
    allowCommands: [],
    searxng: undefined,
    allowHosts: [],
  };

  it("read-only: the index in the cache folder, web_fetch not saving; read-write: <folder>/.knowledge and web-pages", () => {
    const root = realpathSync(project.path);
    const readOnly = buildToolSet(
      { ...knowledgeOnly, knowledgeDir: "docs", knowledgeCacheDirectory: cache.path },
      { root, elicitation: false, handler },
    );
    expect(readOnly.knowledgeFolder).toMatchObject({
      path: join(root, "docs"),
      relative: "docs",
      webPages: undefined,
    });
    expect(readOnly.knowledgeFolder?.indexDirectory.startsWith(`${cache.path}/`)).toBe(true);
    expect(readOnly.corpus?.indexPath.startsWith(`${cache.path}/`)).toBe(true);
    const readWrite = buildToolSet(
      { ...knowledgeOnly, mode: "read-write", knowledgeDir: "docs" },
      { root, elicitation: false, handler },
    );
    expect(readWrite.knowledgeFolder).toMatchObject({
      indexDirectory: join(root, "docs", ".knowledge"),
      webPages: "docs/web-pages",
    });
    expect(readWrite.corpus?.indexPath).toBe(join(root, "docs", ".knowledge", "index.bin"));
  });

  it("leaves search_knowledge out, with a note, when the folder leaves the root or no cache folder is outside it", () => {
    const outside = temporaryDirectory({ "c.md": "# C\n" });
    try {
      symlinkSync(outside.path, join(project.path, "escape"));
      const root = realpathSync(project.path);
      const escaped = buildToolSet(
        { ...knowledgeOnly, knowledgeDir: "escape" },
        { root, elicitation: false, handler },
      );
      expect(escaped.tools.map((tool) => tool.name)).not.toContain("search_knowledge");
      expect(escaped.tools.map((tool) => tool.name)).toContain("remember");
      expect(escaped.notes.join("\n")).toContain(
        "search_knowledge left out: --knowledge-dir escape",
      );
      const noCache = buildToolSet(
        { ...knowledgeOnly, knowledgeCacheDirectory: join(root, "cache") },
        { root, elicitation: false, handler },
      );
      expect(noCache.tools.map((tool) => tool.name)).not.toContain("search_knowledge");
      expect(noCache.notes.join("\n")).toContain("Set XDG_CACHE_HOME to a folder outside the root");
      expect(existsSync(join(root, "cache"))).toBe(false);
    } finally {
      outside.cleanup();
    }
  });

  it("search_knowledge takes an absolute path_prefix inside the root, the knowledge folder a subfolder or the root", async () => {
    const root = realpathSync(project.path);
    for (const knowledgeDir of ["docs", ""]) {
      const set = buildToolSet(
        { ...knowledgeOnly, knowledgeDir, knowledgeCacheDirectory: cache.path },
        { root, elicitation: false, handler },
      );
      const search = set.tools.find((tool) => tool.name === "search_knowledge");
      const inside = await search?.run({ query: "regulator limit", path_prefix: `${root}/docs` });
      expect(inside?.success && JSON.stringify(inside.data), knowledgeDir).toContain("docs/b.md");
      const outside = await search?.run({ query: "regulator", path_prefix: "/etc" });
      expect(outside?.success === false && outside.error.code, knowledgeDir).toBe("INVALID_PATH");
    }
  });

  it("keeps memory and the corpus source across rebuilds that share the resources", async () => {
    const root = realpathSync(project.path);
    const knowledge = createKnowledgeResources();
    const state = { root, elicitation: false, handler, knowledge };
    const configuration = { ...knowledgeOnly, knowledgeCacheDirectory: cache.path };
    const first = buildToolSet(configuration, state);
    const remember = first.tools.find((tool) => tool.name === "remember");
    const saved = await remember?.run({ text: "The espresso machine descales on Fridays." });
    expect(saved?.success).toBe(true);
    const second = buildToolSet(configuration, { ...state, elicitation: true });
    expect(second.corpus).toBe(first.corpus);
    const searchMemory = second.tools.find((tool) => tool.name === "search_memory");
    const found = await searchMemory?.run({ query: "espresso descales" });
    expect(found?.success && JSON.stringify(found.data)).toContain("espresso machine");
    await knowledge.close();
  });
});

describe("knowledge and memory together (--memory-dir)", () => {
  it("is one memory: remember saves into the memory folder, memory_search finds it, no search_memory", async () => {
    const memories = temporaryDirectory();
    try {
      const set = buildToolSet(
        {
          families: ["knowledge", "memory"],
          mode: "read-only",
          allowCommands: [],
          searxng: undefined,
          allowHosts: [],
          knowledgeCacheDirectory: cache.path,
          memoryDirectory: memories.path,
        },
        { root: realpathSync(project.path), elicitation: false, handler },
      );
      const names = set.tools.map((tool) => tool.name);
      expect(names).toContain("remember");
      expect(names).toContain("memory_search");
      expect(names).not.toContain("search_memory");
      expect(set.notes.join("\n")).toContain("search_memory left out");
      const byName = new Map(set.tools.map((tool) => [tool.name, tool]));
      const remember = byName.get("remember");
      expect(remember?.description).toContain("memory_search");
      expect(remember?.description).not.toContain("gone when it restarts");
      const saved = await remember?.run({
        text: "The staging database password rotates every Monday.",
        tags: ["ops"],
      });
      expect(saved?.success).toBe(true);
      const search = byName.get("memory_search");
      const found = await search?.run({ query: "staging password rotation" });
      expect(found?.success && JSON.stringify(found.data)).toContain("rotates every Monday");
      const mounted = new Set(names);
      for (const tool of set.tools) {
        expect(
          findAbsentToolNames(tool.description, mounted, AGENTOOL_TOOL_NAMES),
          tool.name,
        ).toEqual([]);
      }
    } finally {
      memories.cleanup();
    }
  });
});

describe("buildToolSet: the browser family", () => {
  const browserOnly = (overrides: Partial<ToolSetConfiguration>): ToolSetConfiguration => ({
    families: ["web", "browser"],
    mode: "read-write",
    allowCommands: [],
    searxng: undefined,
    allowHosts: ["127.0.0.1:8080"],
    ...overrides,
  });

  it("read-write: one browser tool per configuration, kept across rebuilds, openWorld, naming web_fetch beside it", async () => {
    const configuration = browserOnly({});
    try {
      const first = buildToolSet(configuration, { root: undefined, elicitation: false, handler });
      expect(first.tools.map((tool) => tool.name)).toEqual(["wiki_search", "web_fetch", "browser"]);
      expect(first.families.get("browser")).toEqual(["browser"]);
      expect(first.notes).toEqual([]);
      const browser = first.tools.find((tool) => tool.name === "browser");
      expect(browser?.annotations).toMatchObject({ openWorld: true, readOnly: false });
      expect(browser?.description).toContain("web_fetch");
      // A rebuild (a roots change) keeps the conversations' pages: the same tool.
      const again = buildToolSet(configuration, {
        root: project.path,
        elicitation: false,
        handler,
      });
      expect(again.tools.find((tool) => tool.name === "browser")).toBe(browser);
      const report = await checkConformance(first.tools);
      expect(report.violations).toEqual([]);
    } finally {
      await disposeBrowserTool(configuration);
    }
  });

  it("is left out, with a note, in read-only mode and in a stateless server", async () => {
    const readOnly = buildToolSet(browserOnly({ mode: "read-only" }), {
      root: undefined,
      elicitation: false,
      handler,
    });
    expect(readOnly.tools.map((tool) => tool.name)).toEqual(["wiki_search", "web_fetch"]);
    expect(readOnly.notes).toEqual([
      "browser left out: it acts on the live web (fills forms, clicks, posts), which only read-write mode allows; use --mode read-write.",
    ]);
    const stateless = buildToolSet(browserOnly({ stateless: true }), {
      root: undefined,
      elicitation: false,
      handler,
    });
    expect(stateless.tools.map((tool) => tool.name)).toEqual(["wiki_search", "web_fetch"]);
    expect(stateless.notes).toEqual([
      "browser left out: a stateless server has no session to keep a browser's pages, cookies and refs in between calls.",
    ]);
  });
});

describe("buildToolSet: the code family", () => {
  const codeOnly = (overrides: Partial<ToolSetConfiguration>): ToolSetConfiguration => ({
    families: ["fs", "code"],
    mode: "read-only",
    allowCommands: [],
    searxng: undefined,
    allowHosts: [],
    ...overrides,
  });
  const READ_CODE = ["repo_map", "code_outline", "find_symbol", "find_references", "ast_search"];

  it("read-only: the read tools only, each annotated read-only, naming only mounted tools", async () => {
    const set = buildToolSet(codeOnly({}), { root: project.path, elicitation: false, handler });
    expect(set.families.get("code")).toEqual(READ_CODE);
    const code = set.tools.filter((tool) => READ_CODE.includes(tool.name));
    expect(code.map((tool) => tool.name)).toEqual(READ_CODE);
    for (const tool of code) expect(tool.annotations?.readOnly, tool.name).toBe(true);
    const mounted = new Set(set.tools.map((tool) => tool.name));
    expect(mounted.has("replace_symbol")).toBe(false);
    expect(mounted.has("ast_rewrite")).toBe(false);
    for (const tool of set.tools) {
      expect(
        findAbsentToolNames(tool.description, mounted, AGENTOOL_TOOL_NAMES),
        tool.name,
      ).toEqual([]);
    }
    expect(set.notes).toEqual([]);
    const report = await checkConformance(set.tools);
    expect(report.violations).toEqual([]);
  });

  it("read-write adds replace_symbol and ast_rewrite; without a root the family is left out with a note", () => {
    const set = buildToolSet(codeOnly({ families: ["code"], mode: "read-write" }), {
      root: project.path,
      elicitation: false,
      handler,
    });
    expect(set.tools.map((tool) => tool.name)).toEqual([
      ...READ_CODE,
      "replace_symbol",
      "ast_rewrite",
    ]);
    const rootless = buildToolSet(codeOnly({ families: ["core", "code"] }), {
      root: undefined,
      elicitation: false,
      handler,
    });
    expect(rootless.tools.map((tool) => tool.name)).toEqual(["think", "update_plan"]);
    expect(rootless.notes).toEqual([
      "code tools left out: no root (pass --root <dir>, or use a client that sends MCP roots); they read and rewrite the code under the root.",
    ]);
  });
});

describe("buildToolSet: the office family", () => {
  const officeOnly = (overrides: Partial<ToolSetConfiguration>): ToolSetConfiguration => ({
    families: ["fs", "office"],
    mode: "read-only",
    allowCommands: [],
    searxng: undefined,
    allowHosts: [],
    ...overrides,
  });
  const READ_OFFICE = ["read_document", "read_image"];
  const WRITE_OFFICE = ["write_document", "edit_document", "edit_sheet", "edit_notebook"];

  it("read-only: read_document and read_image only, each annotated read-only, naming only mounted tools", async () => {
    const set = buildToolSet(officeOnly({}), { root: project.path, elicitation: false, handler });
    expect(set.families.get("office")).toEqual(READ_OFFICE);
    const office = set.tools.filter((tool) => READ_OFFICE.includes(tool.name));
    expect(office.map((tool) => tool.name)).toEqual(READ_OFFICE);
    for (const tool of office) expect(tool.annotations?.readOnly, tool.name).toBe(true);
    const mounted = new Set(set.tools.map((tool) => tool.name));
    for (const name of WRITE_OFFICE) expect(mounted.has(name), name).toBe(false);
    for (const tool of set.tools) {
      expect(
        findAbsentToolNames(tool.description, mounted, AGENTOOL_TOOL_NAMES),
        tool.name,
      ).toEqual([]);
    }
    expect(set.notes).toEqual([]);
    const report = await checkConformance(set.tools);
    expect(report.violations).toEqual([]);
  });

  it("read-write adds the writing and editing tools, none read-only; without a root the family is left out with a note", () => {
    const set = buildToolSet(officeOnly({ families: ["office"], mode: "read-write" }), {
      root: project.path,
      elicitation: false,
      handler,
    });
    expect(set.families.get("office")).toEqual([...READ_OFFICE, ...WRITE_OFFICE]);
    expect(set.tools.map((tool) => tool.name)).toEqual([...READ_OFFICE, ...WRITE_OFFICE]);
    for (const tool of set.tools.filter((item) => WRITE_OFFICE.includes(item.name))) {
      expect(tool.annotations?.readOnly ?? false, tool.name).toBe(false);
    }
    const rootless = buildToolSet(officeOnly({ families: ["core", "office"] }), {
      root: undefined,
      elicitation: false,
      handler,
    });
    expect(rootless.tools.map((tool) => tool.name)).toEqual(["think", "update_plan"]);
    expect(rootless.notes).toEqual([
      "office tools left out: no root (pass --root <dir>, or use a client that sends MCP roots); they read and edit the documents under the root.",
    ]);
  });
});

describe("isGitRepositoryRoot", () => {
  it("is true only for a directory with its own .git directory", () => {
    const plain = temporaryDirectory({ "x.txt": "x", "nested/.git": "gitdir: /elsewhere" });
    try {
      expect(isGitRepositoryRoot(plain.path)).toBe(false);
      expect(isGitRepositoryRoot(join(plain.path, "nested"))).toBe(false);
      mkdirSync(join(plain.path, ".git"));
      expect(isGitRepositoryRoot(plain.path)).toBe(true);
    } finally {
      plain.cleanup();
    }
  });
});
