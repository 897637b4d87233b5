import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "@agentool/contract";
import { createNodeFsTools } from "@agentool/tools-fs/node";
import type { KnowledgeSearchRequest, KnowledgeSource } from "@agentool/tools-knowledge";
import type { FetchedDocument } from "@agentool/tools-web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createWebPagesSaver,
  knowledgeCacheDirectory,
  normalizeKnowledgeDir,
  resolveKnowledgeFolder,
  rootRelativeSource,
} from "./knowledge-folder.js";
import { temporaryDirectory } from "./test-support/spawn-server.js";

let project: ReturnType<typeof temporaryDirectory>;
let outside: ReturnType<typeof temporaryDirectory>;
let root: string;

beforeAll(() => {
  project = temporaryDirectory({ "docs/a.md": "# A\n", "file.md": "x" });
  outside = temporaryDirectory({ "b.md": "# B\n" });
  root = realpathSync(project.path);
  symlinkSync(outside.path, join(project.path, "away"));
  symlinkSync(join(project.path, "docs"), join(project.path, "docs-link"));
});

afterAll(() => {
  project?.cleanup();
  outside?.cleanup();
});

describe("normalizeKnowledgeDir", () => {
  it("normalises relative folders and absolute ones inside the root", () => {
    expect(normalizeKnowledgeDir("./notes/../sources/")).toBe("sources");
    expect(normalizeKnowledgeDir(".")).toBe("");
    expect(normalizeKnowledgeDir("/srv/p/docs", ["/srv/p"])).toBe("docs");
  });

  it("refuses what leaves the root, naming the flag and the fix", () => {
    expect(() => normalizeKnowledgeDir("../up")).toThrow(
      '--knowledge-dir "../up" climbs above the project root. Give a folder inside the root',
    );
    expect(() => normalizeKnowledgeDir("/srv/other", ["/srv/p"])).toThrow(
      "is an absolute path outside the project root.",
    );
    expect(() => normalizeKnowledgeDir("/srv/p/docs")).toThrow(
      "An absolute --knowledge-dir needs a --root it lies inside",
    );
  });
});

describe("resolveKnowledgeFolder", () => {
  it("resolves on real paths, also for a folder that does not exist yet", () => {
    expect(resolveKnowledgeFolder(root, "")).toEqual({ path: root, relative: "" });
    expect(resolveKnowledgeFolder(root, "docs")).toEqual({
      path: join(root, "docs"),
      relative: "docs",
    });
    expect(resolveKnowledgeFolder(root, "docs-link")).toEqual({
      path: join(root, "docs"),
      relative: "docs",
    });
    expect(resolveKnowledgeFolder(root, "later/pages")).toEqual({
      path: join(root, "later", "pages"),
      relative: "later/pages",
    });
  });

  it("refuses a symlink out of the root, a file, .git and secret paths", () => {
    expect(() => resolveKnowledgeFolder(root, "away", "--root")).toThrow(
      `--knowledge-dir away resolves to ${realpathSync(outside.path)}, outside --root ${root}`,
    );
    expect(() => resolveKnowledgeFolder(root, "away/deeper")).toThrow("outside the root");
    expect(() => resolveKnowledgeFolder(root, "file.md")).toThrow("is a file, not a folder");
    expect(() => resolveKnowledgeFolder(root, ".git/pages")).toThrow("inside .git");
    expect(() => resolveKnowledgeFolder(root, ".ssh")).toThrow("a secret path");
  });
});

describe("knowledgeCacheDirectory", () => {
  it("takes XDG_CACHE_HOME, then ~/.cache, then the temp folder: the first outside the root", () => {
    const folder = join(root, "docs");
    const xdg = knowledgeCacheDirectory(folder, root, { environment: { XDG_CACHE_HOME: "/c" } });
    expect(xdg).toMatch(/^\/c\/agentool\/knowledge\/[0-9a-f]{64}$/);
    // Another folder, another index.
    expect(knowledgeCacheDirectory(root, root, { environment: { XDG_CACHE_HOME: "/c" } })).not.toBe(
      xdg,
    );
    // A relative XDG_CACHE_HOME is ignored (the XDG rule).
    expect(knowledgeCacheDirectory(folder, root, { environment: { XDG_CACHE_HOME: "c" } })).toBe(
      join(
        homedir(),
        ".cache",
        "agentool",
        "knowledge",
        (xdg as string).split("/").pop() as string,
      ),
    );
    // A cache inside the root is skipped.
    const inside = knowledgeCacheDirectory(folder, root, {
      environment: { XDG_CACHE_HOME: join(root, "cache") },
    });
    expect(inside?.startsWith(root)).toBe(false);
  });

  it("is undefined when every candidate lies inside the root (root = /)", () => {
    expect(knowledgeCacheDirectory("/srv/docs", "/", { environment: {} })).toBeUndefined();
    expect(knowledgeCacheDirectory("/srv/docs", "/srv", { base: "/srv/cache" })).toBeUndefined();
    expect(
      knowledgeCacheDirectory(join(tmpdir(), "x"), "/srv", { base: "/var/cache/agentool" }),
    ).toMatch(/^\/var\/cache\/agentool\/[0-9a-f]{64}$/);
  });
});

describe("rootRelativeSource", () => {
  const requests: KnowledgeSearchRequest[] = [];
  const source: KnowledgeSource = {
    async search(request) {
      requests.push(request);
      return {
        hits: [
          {
            file: "guide/a.md",
            start_line: 3,
            end_line: 9,
            heading_trail: ["A"],
            score: 1,
            excerpt: "…",
            reference: "guide/a.md:3-9",
          },
        ],
        total: 1,
        searched: { documents: 1, chunks: 1 },
        warnings: [],
      };
    },
  };
  const context = { signal: new AbortController().signal };

  it("answers root-relative and reads path_prefix both ways", async () => {
    const wrapped = rootRelativeSource(source, "notes");
    const result = await wrapped.search({ query: "a", offset: 1, limit: 5 }, context);
    expect(result.hits[0]).toMatchObject({
      file: "notes/guide/a.md",
      reference: "notes/guide/a.md:3-9",
    });
    for (const prefix of ["notes/guide/", "guide/", "notes", "notes/"]) {
      await wrapped.search({ query: "a", offset: 1, limit: 5, path_prefix: prefix }, context);
    }
    expect(requests.slice(1).map((request) => request.path_prefix)).toEqual([
      "guide/",
      "guide/",
      undefined,
      undefined,
    ]);
    expect(rootRelativeSource(source, "")).toBe(source);
  });
});

describe("createWebPagesSaver", () => {
  const document = {
    url: "https://example.com/docs/intro",
    final_url: "https://example.com/docs/intro",
    title: "Intro",
    fetched: "2026-01-01T00:00:00.000Z",
    kind: "html",
    text: "# Intro\n\nHello.",
  } as unknown as FetchedDocument;
  const context = {} as ToolContext;

  it("saves into the folder and names the file root-relative", async () => {
    const saver = createWebPagesSaver(root, "docs/web-pages");
    const name = await saver(document, context);
    expect(name).toBe("docs/web-pages/example.com-docs-intro.md");
    expect(readFileSync(join(root, name), "utf8")).toContain("Hello.");
  });

  it("keeps saved pages out of git: the folder it creates ignores them, git status stays clean", async () => {
    const repository = temporaryDirectory({ "README.md": "# project\n" });
    try {
      const git = (...args: string[]) =>
        execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
          cwd: repository.path,
          encoding: "utf8",
        });
      git("init", "-q");
      git("add", "README.md");
      git("commit", "-q", "-m", "start");
      const saver = createWebPagesSaver(realpathSync(repository.path), "web-pages");
      expect(await saver(document, context)).toBe("web-pages/example.com-docs-intro.md");
      expect(git("status", "--porcelain", "--untracked-files=all")).toBe("");
      git("add", "--all");
      expect(git("diff", "--cached", "--name-only")).toBe("");
      // Out of git, not out of sight: grep_search still finds the saved page.
      const grep = createNodeFsTools({ root: repository.path }).find(
        (tool) => tool.name === "grep_search",
      );
      const found = await grep?.run({ pattern: "Hello", output_mode: "files_with_matches" });
      expect(found).toMatchObject({
        success: true,
        data: { files: [{ path: "web-pages/example.com-docs-intro.md" }] },
      });
    } finally {
      repository.cleanup();
    }
  });

  it("refuses to save through a link that leads out of the root", async () => {
    mkdirSync(join(root, "pages-parent"));
    symlinkSync(outside.path, join(root, "pages-parent", "web-pages"));
    const saver = createWebPagesSaver(root, "pages-parent/web-pages");
    await expect(saver(document, context)).rejects.toThrow("outside the root");
    rmSync(join(root, "pages-parent"), { recursive: true });
    writeFileSync(join(root, "pages-parent"), "now a file");
    await expect(saver(document, context)).rejects.toThrow();
  });
});
