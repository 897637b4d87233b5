import { describe, expect, it } from "vitest";
import { createPreviewToolFromBackend } from "./preview.js";
import { FakeBackend } from "./test-support/fake-backend.js";

describe("preview description", () => {
  it("teaches the loop and the sandbox without restating the op and action shapes the schema carries (issue 28 point 9)", async () => {
    const tool = createPreviewToolFromBackend(new FakeBackend(), { read: async () => "" });
    try {
      expect(tool.description).toContain("console output");
      expect(tool.description).toContain("No network");
      expect(tool.description).not.toMatch(/\{op:|\{type:|queries:\[/);
      expect(tool.description.length).toBeLessThanOrEqual(300);
    } finally {
      await tool.dispose();
    }
  });
});
