// issue 31 A.3 on Node: sessions of different conversations have their own browser context and
// renderer process, so one conversation's runaway artifact never holds up another's calls.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { GAME_HTML, LOOP_ON_KEY_HTML } from "../test-support/artifacts.js";
import { createChromiumPreviewTool } from "./create-chromium-preview-tool.js";

const root = mkdtempSync(join(tmpdir(), "preview-isolation-"));
writeFileSync(join(root, "game.html"), GAME_HTML);
writeFileSync(join(root, "loop.html"), LOOP_ON_KEY_HTML);
const preview = createChromiumPreviewTool({ root, timeoutMs: 4_000 });
afterAll(() => preview.dispose());

it("a loop in one conversation's artifact does not slow another conversation's calls", async () => {
  expect(await preview.run({ op: "open", path: "game.html" }, { threadId: "calm" })).toMatchObject({
    success: true,
  });
  await preview.run({ op: "open", path: "loop.html" }, { threadId: "runaway" });
  const stuck = preview.run(
    { op: "act", actions: [{ type: "key", key: "a" }] },
    { threadId: "runaway" },
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const started = Date.now();
  const calm = await preview.run({ op: "eval", code: "game.x" }, { threadId: "calm" });
  expect(Date.now() - started).toBeLessThan(1_000);
  expect(calm).toMatchObject({ success: true, data: { value_json: "10" } });
  const opened = await preview.run({ op: "open", path: "game.html" }, { threadId: "third" });
  expect(opened).toMatchObject({ success: true });
  // The runaway's own call ends at its deadline; its script is stopped and the session kept.
  expect(await stuck).toMatchObject({ success: false, error: { code: "TIMEOUT" } });
  expect(await preview.run({ op: "eval", code: "game.x" }, { threadId: "calm" })).toMatchObject({
    success: true,
  });
});
