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

  it("never asks about a call whose input is invalid, and shows the gate validated input", async () => {
    const { tool, executions } = createDeleteTool();
    let asked = 0;
    const approve = () => {
      asked += 1;
      return true;
    };
    const invalid = await runWithApproval(tool, { title: 3, surplus: true }, {}, approve);
    expect(invalid).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    expect(asked).toBe(0);
    const requests: unknown[] = [];
    await runWithApproval(tool, '{"title":"from a JSON string"}', {}, (request) => {
      requests.push(request.input);
      return true;
    });
    expect(requests).toEqual([{ title: "from a JSON string" }]);
    expect(executions.titles).toEqual(["from a JSON string"]);
  });

  it("runs tools that are not destructive without asking", async () => {
    const result = await runWithApproval(echoTool, { text: "x" }, {}, () => {
      throw new Error("must not be asked");
    });
    expect(result).toEqual({ success: true, data: { text: "x" } });
  });
});
