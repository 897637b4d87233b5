// `open` in real Chromium with a workspace root: an absolute path inside the root opens (the path
// rule of the fs and git families), one outside is refused, and an open that fails on a missing
// file leaves the conversation's live session where it was. The same rules over the fake backend
// are in src/engine/open-op.test.ts.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { PreviewTool } from "../preview.js";
import { PLAIN_HTML } from "../test-support/artifacts.js";
import { createChromiumPreviewTool } from "./create-chromium-preview-tool.js";

const root = mkdtempSync(join(tmpdir(), "preview-paths-"));
writeFileSync(join(root, "plain.html"), PLAIN_HTML);
const outside = mkdtempSync(join(tmpdir(), "preview-outside-"));
writeFileSync(join(outside, "plain.html"), PLAIN_HTML);

const tools: PreviewTool[] = [];
afterAll(async () => {
  await Promise.all(tools.map((tool) => tool.dispose()));
});

describe("preview on Chromium: open's paths and failures", () => {
  it("opens an absolute path in the root, refuses one outside, and keeps the session when an open fails", async () => {
    const preview = createChromiumPreviewTool({ root });
    tools.push(preview);
    const opened = await preview.run(
      { op: "open", path: join(root, "plain.html") },
      { threadId: "t" },
    );
    expect(opened).toMatchObject({
      success: true,
      data: { session: { path: "plain.html", state: "open" } },
    });
    const elsewhere = join(outside, "plain.html");
    expect(await preview.run({ op: "open", path: elsewhere }, { threadId: "t" })).toMatchObject({
      success: false,
      error: {
        code: "INVALID_PATH",
        message: `path ${JSON.stringify(elsewhere)} is an absolute path outside the workspace root.`,
      },
    });
    expect(await preview.run({ op: "open", path: "nope.html" }, { threadId: "t" })).toMatchObject({
      success: false,
      error: { code: "FILE_NOT_FOUND" },
    });
    expect(preview.sessionCount()).toBe(1);
    const read = await preview.run({ op: "read", queries: [{ css: "title" }] }, { threadId: "t" });
    expect(read).toMatchObject({
      success: true,
      data: { session: { path: "plain.html", state: "open", calls: 2 } },
    });
  });
});
