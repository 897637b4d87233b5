import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { coreFamily } from "./families/core.js";
import { createLiveModel } from "./live-model.js";
import { runDemo } from "./run-demo.js";

interface ChatRequest {
  model: string;
  tools?: Array<{ type: string; function: { name: string; parameters: Record<string, unknown> } }>;
  messages: Array<{ role: string; content: unknown; tool_call_id?: string }>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}

function completion(message: Record<string, unknown>, number: number) {
  return {
    id: `chatcmpl-${number}`,
    object: "chat.completion",
    created: 0,
    model: "local-test-model",
    choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

/** A local OpenAI-compatible server that answers with the given messages, in order. */
async function startServer(
  responses: Array<Record<string, unknown>>,
  options: { reuseIds?: boolean } = {},
) {
  const requests: ChatRequest[] = [];
  const server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as ChatRequest;
    requests.push(body);
    const next = responses[requests.length - 1];
    if (request.url !== "/v1/chat/completions" || next === undefined) {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "unexpected request" } }));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(completion(next, options.reuseIds ? 1 : requests.length)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, requests, baseUrl: `http://127.0.0.1:${port}/v1` };
}

let running: Server | undefined;

afterEach(async () => {
  const server = running;
  running = undefined;
  if (server !== undefined) await new Promise((resolve) => server.close(resolve));
});

describe("createLiveModel with runDemo", () => {
  it("drives the tools through an OpenAI-compatible server", async () => {
    const { server, requests, baseUrl } = await startServer([
      {
        content: null,
        tool_calls: [
          {
            id: "call_a",
            type: "function",
            function: {
              name: "update_plan",
              arguments: JSON.stringify({
                explanation: null,
                plan: [{ step: "Fix the port", status: "in_progress" }, { step: "Report back" }],
              }),
            },
          },
        ],
      },
      { content: "The port fix comes first." },
    ]);
    running = server;
    const model = createLiveModel({
      mode: "live",
      apiKey: "test-key",
      model: "local-test-model",
      baseUrl,
    });
    const run = await runDemo({ families: [coreFamily], model, modelName: "local-test-model" });

    expect(run.summary.failure).toBeUndefined();
    expect(run.summary.mode).toBe("live");
    expect(run.summary.toolErrors).toBe(0);
    expect(run.summary.finalAnswer).toBe("The port fix comes first.");
    expect(run.summary.finalPlan).toEqual([
      { step: "Fix the port", status: "in_progress" },
      { step: "Report back", status: "pending" },
    ]);

    // The model was offered both tools with their JSON Schemas, and got the plan's checklist back.
    expect(requests[0]?.model).toBe("local-test-model");
    expect(requests[0]?.tools?.map((tool) => tool.function.name).sort()).toEqual([
      "think",
      "update_plan",
    ]);
    const toolReply = requests[1]?.messages.find((message) => message.role === "tool");
    expect(toolReply?.tool_call_id).toBe("call_a");
    expect(JSON.stringify(toolReply?.content)).toContain("[~] Fix the port");
  });

  it("still reports every message when the server reuses completion ids", async () => {
    const { server, baseUrl } = await startServer(
      [
        {
          content: null,
          tool_calls: [
            {
              id: "call_b",
              type: "function",
              function: { name: "think", arguments: JSON.stringify({ thought: "Port first." }) },
            },
          ],
        },
        { content: "Port first, then the content type." },
      ],
      { reuseIds: true },
    );
    running = server;
    const model = createLiveModel({
      mode: "live",
      apiKey: "test-key",
      model: "local-test-model",
      baseUrl,
    });
    const run = await runDemo({ families: [coreFamily], model });
    expect(run.summary.failure).toBeUndefined();
    expect(run.summary.toolCallsByName).toEqual({ think: 1 });
    expect(run.summary.finalAnswer).toBe("Port first, then the content type.");
    expect(run.summary.modelTurns).toBe(2);
  });
});
