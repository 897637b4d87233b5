import { describe, expect, it } from "vitest";
import { createDeleteTool, echoTool } from "../test-fixtures.js";
import { runWithApproval } from "./approval-gate.js";

describe("runWithApproval", () => {
  it("answers ABORTED when the signal aborts while the gate is still waiting", async () => {
    const { tool, executions } = createDeleteTool();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const result = await runWithApproval(
      tool,
      { title: "x" },
      { signal: controller.signal },
      () => new Promise<boolean>(() => {}),
    );
    expect(result).toMatchObject({ success: false, error: { code: "ABORTED" } });
    expect(executions.count).toBe(0);
  });

  it("gives the gate the tool, name, input and ids", async () => {
    const { tool } = createDeleteTool();
    const requests: unknown[] = [];
    await runWithApproval(tool, { title: "x" }, { toolCallId: "c", threadId: "t" }, (request) => {
      requests.push(request);
      return true;
    });
    expect(requests).toEqual([
      { tool, name: "delete_note", input: { title: "x" }, toolCallId: "c", threadId: "t" },
    ]);
  });

  it("runs tools that are not destructive without asking", async () => {
    const result = await runWithApproval(echoTool, { text: "x" }, {}, () => {
      throw new Error("must not be asked");
    });
    expect(result).toEqual({ success: true, data: { text: "x" } });
  });
});
