import { describe, expect, it, vi } from "vitest";
import { startPagesServer } from "./test-support/pages-server.js";
import { createWebFetchTool } from "./web-fetch.js";

// The optional peers are installed for the other tests; here they resolve as a host without them
// would see them (the import fails with "Cannot find package"), to show the default falls back.
vi.mock("@mozilla/readability", () => {
  throw Object.assign(new Error("Cannot find package '@mozilla/readability'"), {
    code: "ERR_MODULE_NOT_FOUND",
  });
});

const pages = await startPagesServer();

describe("web_fetch without the Readability peers", () => {
  it("converts the whole page (no error, main_content false) when the peers are missing", async () => {
    const tool = createWebFetchTool({ allowHosts: ["127.0.0.1"] });
    const result = await tool.run({ url: `${pages.origin}/article` });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.main_content).toBe(false);
    expect(result.data.content).toContain("NAVIGATION-SHOP-LINK");
    expect(result.data.content).toContain("# How the Moon drives the tides");
    expect(tool.renderResult(result)).toContain("Type: HTML → Markdown ·");
  });
});
