import { describe, expect, it } from "vitest";
import {
  createDeleteTool,
  createSlowTool,
  echoTool,
  readNoteTool,
  screenshotTool,
  webFetchTool,
} from "../test-fixtures.js";
import { createGeminiToolDispatcher } from "./create-gemini-tool-dispatcher.js";

describe("createGeminiToolDispatcher", () => {
  const dispatcher = createGeminiToolDispatcher([echoTool, readNoteTool, screenshotTool]);

  it("answers a functionCall with a functionResponse part and exposes the envelope", async () => {
    const { part, result } = await dispatcher.dispatch({
      id: "f1",
      name: "echo",
      args: { text: "hi" },
    });
    expect(part).toEqual({
      functionResponse: { id: "f1", name: "echo", response: { output: "hi" } },
    });
    expect(result).toEqual({ success: true, data: { text: "hi" } });
  });

  it("leaves out the id when the call has none", async () => {
    const { part } = await dispatcher.dispatch({ name: "echo", args: { text: "x" } });
    expect(part).toEqual({ functionResponse: { name: "echo", response: { output: "x" } } });
  });

  it("answers failures with response.error { code, message, hint }", async () => {
    const { part } = await dispatcher.dispatch({
      id: "f2",
      name: "read_note",
      args: { title: "x" },
    });
    expect(part.functionResponse.response).toEqual({
      error: {
        code: "FILE_NOT_FOUND",
        message: 'There is no note titled "x".',
        hint: "Call list_notes to see the titles.",
      },
    });
    const invalid = await dispatcher.dispatch({ name: "echo", args: {} });
    expect(invalid.part.functionResponse.response).toMatchObject({
      error: { code: "INVALID_INPUT" },
    });
    const unknown = await dispatcher.dispatch({ name: "nope" });
    expect(unknown.part.functionResponse).toEqual({
      name: "nope",
      response: {
        error: {
          code: "UNSUPPORTED",
          message: 'There is no tool named "nope".',
          hint: "Call one of the available tools instead: echo, read_note, screenshot.",
        },
      },
    });
  });

  it("renders images as a text placeholder in output", async () => {
    const { part } = await dispatcher.dispatch({ name: "screenshot", args: {} });
    expect(part.functionResponse.response).toEqual({
      output: expect.stringMatching(/^Screenshot 1×1\n\[image image\/png, \d+ bytes\]$/),
    });
  });

  it("dispatches several calls in order", async () => {
    const answers = await dispatcher.dispatchAll([
      { id: "a", name: "echo", args: { text: "1" } },
      { id: "b", name: "echo", args: { text: "2" } },
    ]);
    expect(answers.map(({ part }) => part.functionResponse.id)).toEqual(["a", "b"]);
  });

  it("gates destructive tools with approve", async () => {
    const { tool, executions } = createDeleteTool();
    const { part } = await createGeminiToolDispatcher([tool], {
      approve: async () => false,
    }).dispatch({
      name: "delete_note",
      args: { title: "x" },
    });
    expect(part.functionResponse.response).toMatchObject({ error: { code: "BLOCKED" } });
    expect(executions.count).toBe(0);
  });

  it("cancels the work on abort and answers ABORTED", async () => {
    const { tool, state } = createSlowTool(20);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { part } = await createGeminiToolDispatcher([tool]).dispatch(
      { name: "slow_count", args: { to: 50 } },
      { signal: controller.signal },
    );
    expect(part.functionResponse.response).toMatchObject({ error: { code: "ABORTED" } });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(state.cancelled).toBe(1);
    expect(state.finished).toBe(0);
  });

  it("takes requireApproval: a tool picked by its tags is refused without running", async () => {
    let asked = 0;
    const guarded = createGeminiToolDispatcher([webFetchTool, echoTool], {
      approve: () => {
        asked += 1;
        return false;
      },
      requireApproval: (tool) => tool.tags.includes("web"),
    });
    const { result } = await guarded.dispatch({
      name: "web_fetch",
      args: { url: "http://127.0.0.1:9/" },
    });
    expect(result).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    const echoed = await guarded.dispatch({ name: "echo", args: { text: "free" } });
    expect(echoed.result).toEqual({ success: true, data: { text: "free" } });
    expect(asked).toBe(1);
  });
});
