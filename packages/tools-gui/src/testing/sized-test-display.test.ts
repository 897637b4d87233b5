import { describe, expect, it } from "vitest";
import { createComputerTool } from "../computer.js";
import { sizedTestDisplay } from "./sized-test-display.js";

describe("sizedTestDisplay", () => {
  it("gives the computer tool its size to state, and runs nothing", async () => {
    const display = sizedTestDisplay({ width: 1280, height: 800 });
    const computer = createComputerTool({ display });
    expect(computer.name).toBe("computer");
    expect(computer.tags).toContain("gui:screenshot-size:1280x800");
    await expect(
      display.capture({ width: 1280, height: 800 }, new AbortController().signal),
    ).rejects.toThrow("sizedTestDisplay runs nothing");
    const result = await computer.run({ action: "screenshot" });
    expect(result.success).toBe(false);
  });
});
