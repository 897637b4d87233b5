import { createSocket } from "node:dgram";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { PreviewTool } from "../preview.js";
import { webrtcHtml } from "../test-support/artifacts.js";
import { startUdpListener, type UdpListener } from "../test-support/udp-listener.js";
import { CHROMIUM_PREVIEW_ARGS, DEFAULT_CHROMIUM_PATH } from "./chromium-backend.js";
import { createChromiumPreviewTool } from "./create-chromium-preview-tool.js";

// An artifact aims WebRTC at a STUN / TURN "server" on 127.0.0.1: a UDP listener that counts what
// arrives. Its gathering would send binding and allocate requests within a second.
let server: UdpListener;
let preview: PreviewTool;

beforeAll(async () => {
  server = await startUdpListener();
  preview = createChromiumPreviewTool({ read: async () => webrtcHtml(server.port) });
});
afterAll(async () => {
  await preview?.dispose();
  await server?.close();
});

it("the listener receives what is sent to it (so zero packets below means none were sent)", async () => {
  const probe = createSocket("udp4");
  await new Promise<void>((resolve) =>
    probe.send("probe", server.port, "127.0.0.1", () => resolve()),
  );
  probe.close();
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(server.packets).toEqual([expect.stringContaining("probe")]);
  server.packets.length = 0;
});

it("an artifact's WebRTC (STUN / TURN over UDP) sends zero packets; its constructors are stubs it cannot replace, child frames' too", async () => {
  server.packets.length = 0;
  const opened = await preview.run({ op: "open", path: "webrtc.html" }, { threadId: "rtc" });
  expect(opened.success).toBe(true);
  await preview.run({ op: "act", actions: [{ type: "wait", ms: 2_000 }] }, { threadId: "rtc" });
  const seen = await preview.run({ op: "eval", code: "return window.webrtc" }, { threadId: "rtc" });
  expect(seen.success).toBe(true);
  const notes = JSON.parse((seen.success && seen.data.value_json) || "[]") as string[];
  expect(server.packets).toEqual([]);
  expect(notes.sort()).toEqual([
    "blank frame: SecurityError",
    "child frame: NotSupportedError",
    "sender: NotSupportedError",
    "tampering: kept",
    "webkit: NotSupportedError",
    "window: NotSupportedError",
  ]);
});

it("the preview browser's flags alone keep a working RTCPeerConnection from sending UDP", async () => {
  server.packets.length = 0;
  // No preview session: a bare page of a browser launched with the preview's flags, no stubs.
  const browser = await chromium.launch({
    executablePath: DEFAULT_CHROMIUM_PATH,
    args: [...CHROMIUM_PREVIEW_ARGS],
  });
  try {
    const page = await browser.newPage();
    await page.setContent(webrtcHtml(server.port));
    await page.waitForTimeout(2_000);
    expect(await page.evaluate(() => (window as unknown as { webrtc: string[] }).webrtc)).toContain(
      "window: gathering",
    );
    expect(server.packets).toEqual([]);
  } finally {
    await browser.close();
  }
});
