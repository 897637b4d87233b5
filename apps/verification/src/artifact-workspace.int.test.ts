// issue 31 A.6: the artifact workspace over a host's two functions, in real Chromium over
// IndexedDB — write_file / edit_file / read_file and preview (iframe backend) share one namespace.
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { bundleForBrowser } from "./browser-support/bundle-for-browser.js";
import { launchChromium, runEntryInPage } from "./browser-support/chromium.js";
import { type EntryServer, startEntryServer } from "./browser-support/entry-server.js";

let server: EntryServer;
let browser: Browser;

beforeAll(async () => {
  const input = fileURLToPath(
    new URL("./browser-scenarios/artifact-workspace.ts", import.meta.url),
  );
  const bundle = await bundleForBrowser(input);
  expect([...bundle.nodeImports]).toEqual([]);
  server = await startEntryServer({
    bundles: new Map([["artifact-workspace", bundle.code]]),
    fixtures: {},
  });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it("writes an app with the fs tools into IndexedDB, previews it, edits it and previews the edit", async () => {
  const requestsBefore = server.requests.length;
  const run = await runEntryInPage(browser, server.origin, "artifact-workspace");
  const value = run.value as Record<string, { success?: boolean; data?: Record<string, unknown> }>;
  expect(run.pageErrors).toEqual([]);
  const written = value.written as unknown as Array<{ success: boolean }>;
  expect(written).toHaveLength(4);
  for (const step of written) expect(step).toMatchObject({ success: true });
  expect(value.opened).toMatchObject({ success: true, data: { title: "Todo" } });
  expect(JSON.parse(String(value.first?.data?.value_json))).toEqual({
    items: ["milk", "eggs"],
    color: "rgb(0, 0, 255)",
  });
  expect(value.edited).toMatchObject({ success: true });
  // The host's own store holds the edit: one namespace.
  expect(value.stored).toBe('["milk", "eggs", "bread"]');
  expect(JSON.parse(String(value.second?.data?.value_json))).toEqual({
    items: ["milk", "eggs", "bread"],
    color: "rgb(0, 0, 255)",
  });
  expect(value.read).toMatchObject({ success: true });
  expect(JSON.stringify(value.read)).toContain("bread");
  // Only the host page, its bundle (and the browser's own favicon request) came from the server:
  // the app's files came from IndexedDB.
  expect(server.requests.slice(requestsBefore).filter((path) => path !== "/favicon.ico")).toEqual([
    "/",
    "/entries/artifact-workspace.js",
  ]);
});
