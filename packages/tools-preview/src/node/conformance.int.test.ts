import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertConformance } from "@agentool/contract/testing";
import { afterAll, expect, it } from "vitest";
import { createPreviewTool } from "../create-preview-tool.js";
import { GAME_HTML } from "../test-support/artifacts.js";
import { createChromiumPreviewTool } from "./create-chromium-preview-tool.js";

const root = mkdtempSync(join(tmpdir(), "preview-conformance-"));
writeFileSync(join(root, "game.html"), GAME_HTML);
const preview = createChromiumPreviewTool({ root });
afterAll(() => preview.dispose());

it("the Chromium preview tool passes the conformance kit with a real open", async () => {
  const report = await assertConformance([preview], {
    samples: { preview: { op: "open", path: "game.html" } },
  });
  expect(report.checkedTools).toEqual(["preview"]);
});

it("the iframe preview tool passes the kit's static checks and refuses gracefully on Node", async () => {
  const iframe = createPreviewTool({ read: async () => GAME_HTML });
  await assertConformance([iframe]);
  const result = await iframe.run({ op: "open", path: "game.html" });
  expect(result).toMatchObject({ success: false, error: { code: "NOT_CONFIGURED" } });
  if (!result.success) expect(result.error.hint).toContain("createChromiumPreviewTool");
});

it("factories validate their options", () => {
  expect(() => createChromiumPreviewTool({ root, bogus: 1 } as never)).toThrow(/bogus/);
  expect(() => createChromiumPreviewTool({} as never)).toThrow(/exactly one artifact source/);
  expect(() => createPreviewTool({ read: async () => "", timeoutMs: 5 })).toThrow(/timeoutMs/);
});
