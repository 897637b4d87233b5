import { spawnSync } from "node:child_process";
import { startXvfbDisplay } from "@agentool/tools-gui/node";
import { countColorPixels, tkTestApp, x11TestSkipReason } from "@agentool/tools-gui/testing";
import { describe, expect, it } from "vitest";
import {
  descendants,
  isRunning,
  type StdioSession,
  startStdioSession,
  waitForExit,
} from "./test-support/spawn-server.js";
import { callTool as call, resultText as text } from "./test-support/tool-results.js";

// The gui family over stdio, through the real MCP SDK client and the bundled bin: the server
// starts its own Xvfb (--gui-xvfb) with tools-gui's Tk test app in it (--gui-app), the model's
// side takes a screenshot, clicks the entry, types, presses Apply (Tab, space) and sees the label
// turn green in the next screenshot. After stdin closes or SIGTERM, no Xvfb or app is left.

const X11_MISSING = x11TestSkipReason("mcp-server gui tests");

const TK_APP = tkTestApp(800, 600);

const ARGS = [
  "--families",
  "gui",
  "--mode",
  "read-write",
  "--gui-xvfb",
  "800x600",
  "--gui-app",
  [TK_APP.command, ...(TK_APP.args ?? [])].join(" "),
];

/** A result's PNG image block: its size and its count of pure green pixels. */
async function screenshotOf(result: Awaited<ReturnType<typeof call>>) {
  const image = result.content.find((block) => block.type === "image");
  if (image?.type !== "image") throw new Error(`no image in ${text(result)}`);
  expect(image.mimeType).toBe("image/png");
  const { width, height, count } = await countColorPixels(image.data, [0, 255, 0]);
  return { width, height, green: count };
}

/** The server's Xvfb and app processes (children of the server, each in its own group). */
function displayProcesses(session: StdioSession): Array<{ pid: number; command: string }> {
  return descendants(session.pid).filter((child) => /^(Xvfb|python3)$/.test(child.command));
}

describe.skipIf(X11_MISSING !== undefined)("the gui family over stdio (--families gui)", () => {
  it("drives the Tk app in its own Xvfb: screenshot, click, type, Apply — and leaves nothing when stdin closes", {
    timeout: 90_000,
  }, async () => {
    const session = await startStdioSession(ARGS);
    let processes: Array<{ pid: number; command: string }> = [];
    try {
      await session.waitForStderr(
        /gui: computer drives its own Xvfb :\d+ \(800×600, running \/usr\/bin\/python3\)/,
      );
      const { tools } = await session.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["computer"]);
      expect(tools[0]?.annotations?.destructiveHint).toBe(true);
      processes = displayProcesses(session);
      expect(processes.map((child) => child.command).sort()).toEqual(["Xvfb", "python3"]);

      const first = await call(session, "computer", { action: "screenshot" });
      expect(first.isError ?? false).toBe(false);
      expect(text(first)).toContain("Screen 800×600 (scale 1).");
      const before = await screenshotOf(first);
      expect([before.width, before.height]).toEqual([800, 600]);
      expect(before.green).toBe(0);

      // The entry is the first widget, 10 px from the top-left corner.
      const clicked = await call(session, "computer", {
        action: "left_click",
        coordinate: [40, 22],
      });
      expect(text(clicked)).toMatch(/left click at \(40, 22\)/);
      const typed = await call(session, "computer", { action: "type", text: "hello mcp" });
      expect(typed.isError ?? false).toBe(false);
      // Tab moves the focus to Apply; space presses it (Tk's button binding).
      await call(session, "computer", { action: "key", key: "Tab" });
      const pressed = await call(session, "computer", { action: "key", key: "space" });
      expect(pressed.isError ?? false).toBe(false);
      const after = await screenshotOf(pressed);
      expect(after.green).toBeGreaterThan(500);
    } finally {
      await session.close();
    }
    for (const child of processes) await waitForExit(child.pid, 10_000);
    expect(processes.filter((child) => isRunning(child.pid))).toEqual([]);
  });

  it("without --gui-xvfb it drives the host's DISPLAY, and leaves that display running", {
    timeout: 60_000,
  }, async () => {
    const host = await startXvfbDisplay({ width: 640, height: 480 });
    try {
      const authority = (host as { authorityFile?: string }).authorityFile;
      const session = await startStdioSession(["--families", "gui", "--mode", "read-write"], {
        env: { DISPLAY: host.name, ...(authority === undefined ? {} : { XAUTHORITY: authority }) },
      });
      try {
        await session.waitForStderr(
          `gui: computer drives the host's display ${host.name} (640×480)`,
        );
        const shot = await call(session, "computer", { action: "screenshot" });
        expect(text(shot)).toContain("Screen 640×480 (scale 1).");
        expect(displayProcesses(session)).toEqual([]);
      } finally {
        await session.close();
      }
      expect(isRunning(host.serverPid ?? -1)).toBe(true);
    } finally {
      await host.close();
    }
  });

  it("SIGTERM stops the server and its Xvfb and app", { timeout: 60_000 }, async () => {
    const session = await startStdioSession(ARGS);
    await session.waitForStderr("gui: computer drives its own Xvfb");
    const processes = displayProcesses(session);
    expect(processes.length).toBe(2);
    process.kill(session.pid, "SIGTERM");
    await waitForExit(session.pid);
    for (const child of processes) await waitForExit(child.pid, 10_000);
    expect(processes.filter((child) => isRunning(child.pid))).toEqual([]);
    await session.client.close().catch(() => {});
  });
});

describe("the gui family needs a display it may drive", () => {
  it("without --gui-xvfb or DISPLAY it refuses to start (exit 2)", async () => {
    const { CLI_PATH } = await import("./test-support/spawn-server.js");
    const run = spawnSync(
      process.execPath,
      [CLI_PATH, "--families", "gui", "--mode", "read-write"],
      { encoding: "utf8", env: { PATH: process.env.PATH ?? "" }, timeout: 30_000, input: "" },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("DISPLAY, which is not set");
  });
});
