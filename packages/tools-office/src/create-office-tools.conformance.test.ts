import { assertConformance } from "@agentool/contract/testing";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOfficeTools, OFFICE_READ_TOOL_NAMES } from "./create-office-tools.js";
import { sampleDocx } from "./test-support/docx-fixture.js";
import { readFolder } from "./test-support/read-folder.js";
import { bigXlsx } from "./test-support/sheet-fixture.js";

let folder: ReturnType<typeof readFolder>;
beforeAll(async () => {
  folder = readFolder({
    "report.docx": await sampleDocx(),
    "data.xlsx": await bigXlsx(30),
    "figure.png": await sharp({
      create: { width: 64, height: 32, channels: 3, background: "#123456" },
    })
      .png()
      .toBuffer(),
  });
});
afterAll(() => folder.remove());

describe("createOfficeTools", () => {
  it("every read tool passes the conformance kit, cut outputs followed to the end", async () => {
    const tools = createOfficeTools({ root: folder.root });
    expect(tools.map((tool) => tool.name)).toEqual([...OFFICE_READ_TOOL_NAMES]);
    await assertConformance(tools, {
      workspaceRoot: folder.root,
      samples: { read_document: { path: "report.docx" }, read_image: { path: "figure.png" } },
      cutSamples: { read_document: { path: "data.xlsx", limit: 7 } },
    });
  });
});
