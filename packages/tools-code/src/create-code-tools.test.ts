import { afterAll, describe, expect, it } from "vitest";
import { createCodeTools } from "./create-code-tools.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";

const folder = workspaceFolder({ "a.ts": "export const a = 1;\n" });
afterAll(() => folder.remove());

describe("createCodeTools", () => {
  it("mounts the read-only tools by default and replace_symbol in read-write mode", () => {
    const readOnly = createCodeTools({ root: folder.root }).map((tool) => tool.name);
    expect(readOnly).toContain("code_outline");
    expect(readOnly).toContain("find_symbol");
    expect(readOnly).not.toContain("replace_symbol");
    const readWrite = createCodeTools({ root: folder.root, mode: "read-write" });
    expect(readWrite.map((tool) => tool.name)).toContain("replace_symbol");
    expect(
      readWrite.every(
        (tool) =>
          tool.annotations.readOnly === true ||
          tool.name.endsWith("rewrite") ||
          tool.name === "replace_symbol",
      ),
    ).toBe(true);
  });

  it("refuses unknown options and a missing root", () => {
    expect(() => createCodeTools({ root: folder.root, bogus: 1 } as never)).toThrow(/bogus/);
    expect(() => createCodeTools({} as never)).toThrow(/root/);
  });
});
