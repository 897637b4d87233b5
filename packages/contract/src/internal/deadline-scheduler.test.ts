import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cancelDeadline, pendingDeadlineCount, scheduleDeadline } from "./deadline-scheduler.js";

const distIndex = resolve(dirname(fileURLToPath(import.meta.url)), "../../dist/index.js");

describe("deadline scheduler", () => {
  it("fires deadlines in order of time, whatever order they were scheduled in", async () => {
    const fired: string[] = [];
    scheduleDeadline(60, () => fired.push("late"));
    scheduleDeadline(10, () => fired.push("early"));
    scheduleDeadline(30, () => fired.push("middle"));
    await new Promise((done) => setTimeout(done, 120));
    expect(fired).toEqual(["early", "middle", "late"]);
    expect(pendingDeadlineCount()).toBe(0);
  });

  it("does not fire a cancelled deadline, and a throwing callback does not stop the others", async () => {
    const fired: string[] = [];
    const cancelled = scheduleDeadline(10, () => fired.push("cancelled"));
    scheduleDeadline(15, () => {
      throw new Error("callback bug");
    });
    scheduleDeadline(20, () => fired.push("kept"));
    cancelDeadline(cancelled);
    cancelDeadline(cancelled);
    await new Promise((done) => setTimeout(done, 60));
    expect(fired).toEqual(["kept"]);
  });

  function runNode(source: string) {
    const started = Date.now();
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", source], {
      encoding: "utf8",
      timeout: 20_000,
      cwd: dirname(distIndex),
    });
    return { ...child, seconds: (Date.now() - started) / 1000 };
  }

  it("lets the process exit as soon as no call is pending (no 30 s wait for a finished call)", () => {
    const child = runNode(`
      import { defineTool, ok } from ${JSON.stringify(distIndex)};
      import { z } from "zod";
      const tool = defineTool({ name: "quick", description: "Finishes at once; a scheduler probe.", input: z.object({}),
        execute: async () => ok("done"), timeoutMs: 30000 });
      console.log(JSON.stringify(await tool.run({})));`);
    expect(child.stdout).toContain('"success":true');
    expect(child.seconds).toBeLessThan(10);
  });

  it("keeps the process alive while a call is pending, so its timeout still fires", () => {
    const child = runNode(`
      import { defineTool } from ${JSON.stringify(distIndex)};
      import { z } from "zod";
      const tool = defineTool({ name: "stuck", description: "Never finishes; a scheduler probe.", input: z.object({}),
        execute: () => new Promise(() => {}), timeoutMs: 300 });
      console.log(JSON.stringify(await tool.run({})));`);
    expect(child.stdout).toContain('"code":"TIMEOUT"');
  });
});
