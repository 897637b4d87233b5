import { describe, expect, it } from "vitest";
import { createDeleteTool, echoTool, webFetchTool } from "../test-fixtures.js";
import {
  approvalGateFor,
  checkApprovalOptions,
  HOST_UNDECIDED,
  runWithApproval,
} from "./approval-gate.js";

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

  it("runs a tool without asking when it has no gate", async () => {
    const { tool, executions } = createDeleteTool();
    const result = await runWithApproval(tool, { title: "x" }, {}, undefined);
    expect(result).toEqual({ success: true, data: { deleted: "x" } });
    expect(executions.count).toBe(1);
  });
});

describe("approvalGateFor", () => {
  const approve = () => true;

  it("gives the gate to destructive tools only, by default", () => {
    const { tool } = createDeleteTool();
    expect(approvalGateFor("t", tool, { approve })).toBe(approve);
    expect(approvalGateFor("t", echoTool, { approve })).toBeUndefined();
  });

  it("refuses a destructive tool when the host decided nothing, runs it with allowDestructive", () => {
    const { tool } = createDeleteTool();
    expect(approvalGateFor("t", tool, {})).toBe(HOST_UNDECIDED);
    expect(approvalGateFor("t", tool, { allowDestructive: false })).toBe(HOST_UNDECIDED);
    expect(approvalGateFor("t", tool, { allowDestructive: true })).toBeUndefined();
    expect(approvalGateFor("t", echoTool, {})).toBeUndefined();
    // With a gate too, the gate still decides.
    expect(approvalGateFor("t", tool, { approve, allowDestructive: true })).toBe(approve);
  });

  it("answers BLOCKED naming both decisions, without running the tool", async () => {
    const { tool, executions } = createDeleteTool();
    const result = await runWithApproval(tool, { title: "x" }, {}, HOST_UNDECIDED);
    expect(result).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    if (result.success) return;
    expect(result.error.message).toContain("has not decided");
    expect(result.error.hint).toContain("approve");
    expect(result.error.hint).toContain("allowDestructive: true");
    expect(executions.count).toBe(0);
  });

  it("asks requireApproval with the tool's name, annotations and tags", () => {
    const seen: unknown[] = [];
    const gate = approvalGateFor("t", webFetchTool, {
      approve,
      requireApproval: (candidate) => {
        seen.push(candidate);
        return candidate.annotations.openWorld === true;
      },
    });
    expect(gate).toBe(approve);
    expect(seen).toEqual([
      { name: "web_fetch", annotations: { readOnly: true, openWorld: true }, tags: ["web"] },
    ]);
    const { tool } = createDeleteTool();
    // The predicate replaces the default: a destructive tool it does not pick runs unasked.
    expect(
      approvalGateFor("t", tool, { approve, requireApproval: (c) => c.name === "web_fetch" }),
    ).toBeUndefined();
  });

  it("refuses a predicate that throws or does not answer with a boolean, naming the tool", () => {
    expect(() =>
      approvalGateFor("toLangChainTools", echoTool, {
        approve,
        requireApproval: () => {
          throw new Error("boom");
        },
      }),
    ).toThrow(/^toLangChainTools: requireApproval threw for the tool echo: boom$/);
    expect(() =>
      approvalGateFor("t", echoTool, {
        approve,
        requireApproval: (() => "yes") as unknown as () => boolean,
      }),
    ).toThrow(/requireApproval must return true or false; for the tool echo it returned string/);
  });
});

describe("checkApprovalOptions", () => {
  it("refuses requireApproval without approve", () => {
    expect(() => checkApprovalOptions("x", { requireApproval: () => true })).toThrow(
      /^x: requireApproval was given without approve/,
    );
    expect(() => checkApprovalOptions("x", { approve: () => true })).not.toThrow();
    expect(() => checkApprovalOptions("x", {})).not.toThrow();
  });
});
