// `open` over the fake backend: the path rule every family shares (an absolute path inside the
// workspace root is that file; outside it is refused) and a failed open that keeps the
// conversation's session as it was. The same two rules in real Chromium are in
// src/node/create-chromium-preview-tool.int.test.ts.
import type { ToolResult } from "@agentool/contract";
import { afterEach, describe, expect, it } from "vitest";
import { createPreviewToolFromBackend, type PreviewTool } from "../preview.js";
import { FakeBackend } from "../test-support/fake-backend.js";
import type { PreviewEngineOptions } from "./engine-options.js";
import type { PreviewToolData } from "./preview-data.js";

const tools: PreviewTool[] = [];
afterEach(async () => {
  await Promise.all(tools.splice(0).map((tool) => tool.dispose()));
});

function setup(options: Partial<PreviewEngineOptions> = {}) {
  const backend = new FakeBackend();
  const files: Record<string, string> = {
    "game.html": "<title>Game</title>",
    "site/b.html": "<p>b</p>",
  };
  const reads: string[] = [];
  const tool = createPreviewToolFromBackend(backend, {
    read: async (path) => {
      reads.push(path);
      const content = files[path];
      if (content === undefined)
        throw Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
      return content;
    },
    ...options,
  });
  tools.push(tool);
  return { tool, backend, files, reads };
}

function data(result: ToolResult<PreviewToolData>): PreviewToolData {
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

describe("open: absolute paths", () => {
  it("opens an absolute path inside the workspace root as the file it names", async () => {
    const { tool, reads } = setup({ displayRoot: "/home/me/project" });
    const opened = data(await tool.run({ op: "open", path: "/home/me/project/site/b.html" }));
    expect(opened.session.path).toBe("site/b.html");
    expect(reads).toEqual(["site/b.html"]);
  });

  it("refuses an absolute path outside the workspace root, naming the root rule", async () => {
    const { tool, reads } = setup({ displayRoot: "/home/me/project" });
    for (const path of ["/home/me/project-evil/game.html", "/etc/passwd"]) {
      expect(await tool.run({ op: "open", path })).toMatchObject({
        success: false,
        error: {
          code: "INVALID_PATH",
          message: `path ${JSON.stringify(path)} is an absolute path outside the workspace root.`,
        },
      });
    }
    expect(reads).toEqual([]);
  });

  it("takes the root from the fs family's FileSystem seam (its displayRoot)", async () => {
    const backend = new FakeBackend();
    const tool = createPreviewToolFromBackend(backend, {
      fileSystem: {
        displayRoot: "/srv/site",
        readFile: async (path: string) => new TextEncoder().encode(`<title>${path}</title>`),
      } as PreviewEngineOptions["fileSystem"] & { displayRoot: string },
    });
    tools.push(tool);
    expect(data(await tool.run({ op: "open", path: "/srv/site/a/index.html" })).session.path).toBe(
      "a/index.html",
    );
  });
});

describe("open: a failed open keeps the session", () => {
  it("a missing file leaves the conversation's session open, on the same page", async () => {
    const { tool, backend } = setup();
    data(await tool.run({ op: "open", path: "game.html" }));
    const live = backend.last;
    expect(await tool.run({ op: "open", path: "nope.html" })).toMatchObject({
      success: false,
      error: { code: "FILE_NOT_FOUND", message: "nope.html does not exist." },
    });
    expect(live.closed).toBe(false);
    expect(tool.sessionCount()).toBe(1);
    const next = data(await tool.run({ op: "read", queries: [{ css: "title" }] }));
    expect(next.session).toMatchObject({ path: "game.html", state: "open" });
  });

  it("a refused path or an artifact over the cap leaves it open too", async () => {
    const { tool, backend, files } = setup({ maxArtifactBytes: 100 });
    data(await tool.run({ op: "open", path: "game.html" }));
    files["big.html"] = "x".repeat(101);
    for (const path of ["../up.html", "big.html"]) {
      expect((await tool.run({ op: "open", path })).success).toBe(false);
    }
    expect(backend.last.closed).toBe(false);
    expect(data(await tool.run({ op: "shot" })).session.path).toBe("game.html");
  });
});
