// issue 31 point 1–2 in real Chromium: an artifact is a folder. A three-file web app (classic and
// module scripts, a stylesheet with a url() image, an image, a font-less JSON fetch) loads its
// files from the workspace; requests that leave it stay refused and counted; secrets, missing
// files and paths through a symlink out of the root are not served; errors name the artifact's
// own file and line.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { PreviewTool } from "../preview.js";
import { FOLDER_APP, FOLDER_APP_STATE } from "../test-support/artifacts.js";
import { createChromiumPreviewTool } from "./create-chromium-preview-tool.js";

const root = mkdtempSync(join(tmpdir(), "preview-folder-"));
const outside = mkdtempSync(join(tmpdir(), "preview-folder-outside-"));
for (const [path, content] of Object.entries(FOLDER_APP)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}
writeFileSync(join(outside, "secret.txt"), "outside the root");
symlinkSync(join(outside, "secret.txt"), join(root, "app", "escape.txt"));

const tools: PreviewTool[] = [];
afterAll(async () => {
  await Promise.all(tools.map((tool) => tool.dispose()));
});
const thread = { threadId: "folder" };

/** The value an eval answered (its JSON parsed). */
function evalValue(result: unknown): unknown {
  const data = (result as { success: boolean; data?: { value_json?: string } }).data;
  expect(result).toMatchObject({ success: true });
  return JSON.parse(data?.value_json ?? "null");
}

describe("preview on Chromium: an artifact is a folder", () => {
  it("loads the artifact's scripts (classic and modules), stylesheet, images and fetched JSON from the workspace", async () => {
    const preview = createChromiumPreviewTool({ root });
    tools.push(preview);
    const opened = await preview.run({ op: "open", path: "app/index.html" }, thread);
    expect(opened).toMatchObject({ success: true, data: { title: "Folder app" } });
    const state = await preview.run({ op: "eval", code: FOLDER_APP_STATE }, thread);
    const value = evalValue(state) as Record<string, unknown>;
    expect(value).toMatchObject({
      out: "alpha + beta",
      classic: true,
      color: "rgb(0, 128, 0)",
      logo: 1,
    });
    expect(value.background).toContain("app/logo.png");
    // The module script's listener works: clicks reach it.
    await preview.run({ op: "act", actions: [{ type: "click", selector: "#go" }] }, thread);
    const clicked = await preview.run({ op: "read", queries: [{ css: "#out" }] }, thread);
    expect(JSON.stringify(clicked)).toContain("clicked");
    const consoleText = JSON.stringify(
      [opened, state, clicked].map(
        (result) => (result as { data?: { console?: unknown } }).data?.console,
      ),
    );
    expect(consoleText).not.toContain("blocked");
    expect(consoleText).not.toContain("failed to load");
  });

  it("keeps refusing what is not the artifact's own: other origins, secrets, missing files, symlinks out", async () => {
    const preview = createChromiumPreviewTool({ root });
    tools.push(preview);
    await preview.run({ op: "open", path: "app/index.html" }, thread);
    const probe = await preview.run(
      {
        op: "eval",
        code: `(async () => {
          const status = async (url) => { try { return (await fetch(url)).status; } catch (error) { return 'refused'; } };
          return {
            env: await status('.env'),
            missing: await status('nope.json'),
            escape: await status('escape.txt'),
            outside: await status('http://127.0.0.1:9/'),
            other: await status('https://example.com/data.json'),
            post: await status(new Request('data.json', { method: 'POST', body: 'x' })),
          };
        })()`,
      },
      thread,
    );
    expect(evalValue(probe)).toEqual({
      env: 403,
      missing: 404,
      escape: 403,
      outside: "refused",
      other: "refused",
      post: 403,
    });
    const entries = (probe as { data: { console: Array<{ level: string; text: string }> } }).data
      .console;
    const texts = entries.map((entry) => `${entry.level}: ${entry.text}`).join("\n");
    expect(texts).toContain("app/.env is a secret path");
    expect(texts).toContain("preview could not serve app/nope.json");
    expect(texts).toContain("preview could not serve app/escape.txt");
    expect(texts).toMatch(/blocked: no network in preview: .*127\.0\.0\.1:9/);
    expect(texts).toMatch(/blocked: no network in preview: .*example\.com/);
    expect(texts).not.toContain("hunter2");
  });

  it("reports an uncaught error at the artifact's own line, and an external script's by its file", async () => {
    const preview = createChromiumPreviewTool({ root });
    tools.push(preview);
    const opened = await preview.run({ op: "open", path: "app/errors.html" }, thread);
    const texts = JSON.stringify((opened as { data: { console: unknown } }).data.console);
    expect(texts).toContain("missingFunction is not defined (app/errors.html line 5:3)");
    expect(texts).toContain("notDefinedAnywhere is not defined (app/broken.js line 2:1)");
  });

  it("answers a bare expression's value and a function body's return, as a console does", async () => {
    const preview = createChromiumPreviewTool({ root });
    tools.push(preview);
    await preview.run({ op: "open", path: "app/errors.html" }, thread);
    expect(evalValue(await preview.run({ op: "eval", code: "document.title" }, thread))).toBe(
      "Errors",
    );
    expect(
      evalValue(await preview.run({ op: "eval", code: "const a = 20; return a + 1;" }, thread)),
    ).toBe(21);
    expect(evalValue(await preview.run({ op: "eval", code: "({ a: 1 })" }, thread))).toEqual({
      a: 1,
    });
    // A statement list without return still runs, and answers undefined.
    const statements = await preview.run(
      { op: "eval", code: "window.x = 1; window.x += 1" },
      thread,
    );
    expect(statements).toMatchObject({ success: true, data: { value_type: "undefined" } });
    expect(evalValue(await preview.run({ op: "eval", code: "window.x" }, thread))).toBe(2);
  });
});
