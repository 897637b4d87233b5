import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { PreviewTool } from "../preview.js";
import { egressHtml } from "../test-support/artifacts.js";
import { type RecordingServer, startRecordingServer } from "../test-support/recording-server.js";
import { createChromiumPreviewTool } from "./create-chromium-preview-tool.js";

let target: RecordingServer;
let preview: PreviewTool;
const root = mkdtempSync(join(tmpdir(), "preview-sandbox-"));

beforeAll(async () => {
  target = await startRecordingServer();
  writeFileSync(join(root, "egress.html"), egressHtml(target.url));
  preview = createChromiumPreviewTool({ root });
});
afterAll(async () => {
  await preview.dispose();
  await target.close();
});

it("the local server sees zero requests from an artifact that tries every egress path", async () => {
  // The recording server is reachable from here: the count below is not zero by accident.
  await fetch(`${target.url}/from-the-test`);
  expect(target.requests).toEqual(["(connection)", "GET /from-the-test"]);
  target.requests.length = 0;

  const opened = await preview.run({ op: "open", path: "egress.html" }, { threadId: "egress" });
  expect(opened.success).toBe(true);
  await preview.run(
    {
      op: "act",
      actions: [
        { type: "click", selector: "#link" },
        { type: "wait", ms: 600 },
      ],
    },
    { threadId: "egress" },
  );
  const attempts = await preview.run(
    { op: "eval", code: "return window.attempts" },
    { threadId: "egress" },
  );
  expect(attempts.success).toBe(true);
  if (!attempts.success) return;
  const seen = JSON.parse(attempts.data.value_json ?? "[]") as string[];
  expect(seen).toEqual(
    expect.arrayContaining([
      "fetch: failed",
      "xhr: failed",
      "data-fetch: inline",
      "blob-fetch: blobbed",
      "localStorage: v",
      "cookie: threw",
      "eventsource: failed",
      "worker: threw",
    ]),
  );
  // Still the artifact: neither the link, the form, the meta refresh nor location.href navigated away.
  const still = await preview.run(
    { op: "read", queries: [{ css: "title" }] },
    { threadId: "egress" },
  );
  expect(still).toMatchObject({ success: true, data: { answers: [{ values: ["Egress"] }] } });
  const text = JSON.stringify(opened.success ? opened.data.console : []);
  expect(text).toContain("no network in preview");
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(target.requests).toEqual([]);
});

it("the artifact runs in an opaque origin with no access to the host's storage or cookies", async () => {
  await preview.run({ op: "open", path: "egress.html" }, { threadId: "origin" });
  const origin = await preview.run(
    {
      op: "eval",
      code: "let cookie; try { cookie = document.cookie; } catch (error) { cookie = error.name; } return { origin: self.origin, cookie, storage: localStorage.length }",
    },
    { threadId: "origin" },
  );
  expect(origin).toMatchObject({
    success: true,
    data: { value_json: '{"origin":"null","cookie":"SecurityError","storage":1}' },
  });
});

it("no Chromium outlives a process that exits without disposing its preview tool", () => {
  const marker = `--agentool-orphan-check=${process.pid}-${Date.now()}`;
  const script = `
    const { createChromiumPreviewTool } = await import(${JSON.stringify(new URL("../../dist/node/index.js", import.meta.url).href)});
    const tool = createChromiumPreviewTool({ read: async () => "<p>hi</p>", launchOptions: { args: [${JSON.stringify(marker)}] } });
    const result = await tool.run({ op: "open", path: "a.html" });
    console.log(result.success ? "opened" : JSON.stringify(result));
    process.exit(0);
  `;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(child.stdout.trim()).toBe("opened");
  const processes = spawnSync("ps", ["-eo", "args"], { encoding: "utf8" }).stdout;
  expect(processes.split("\n").filter((line) => line.includes(marker))).toEqual([]);
});
