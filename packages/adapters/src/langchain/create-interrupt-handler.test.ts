import { createInteractTools, type InteractionHandler } from "@agentool/tools-interact";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { Command, MemorySaver } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { createInterruptHandler, NOTIFICATION_EVENT_NAME } from "./create-interrupt-handler.js";
import { toLangChainTools } from "./to-lang-chain-tool.js";

function toolMessages(messages: readonly unknown[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

const deployQuestion = {
  question: "Where should I deploy?",
  options: [{ label: "Staging", description: "the test cluster" }, { label: "Production" }],
};

function interactAgent(model: ReturnType<typeof fakeModel>, checkpointer = true) {
  // Typed against the tools' own handler interface: adapters only mirrors its shape.
  const handler: InteractionHandler = createInterruptHandler();
  const tools = toLangChainTools(createInteractTools({ handler }));
  return createAgent({
    model,
    tools,
    ...(checkpointer ? { checkpointer: new MemorySaver() } : {}),
  });
}

describe("createInterruptHandler with createAgent, a checkpointer and fakeModel", () => {
  it("pauses at ask_user with the question, resumes with the answer, and the model gets it", async () => {
    const model = fakeModel()
      .respondWithTools([{ id: "q1", name: "ask_user", args: deployQuestion }])
      .respond(new AIMessage("Deploying to Staging."));
    const agent = interactAgent(model);
    const config = { configurable: { thread_id: "ask-1" } };

    const paused = await agent.invoke({ messages: [new HumanMessage("deploy")] }, config);
    expect(paused.__interrupt__?.map((entry) => entry.value)).toEqual([
      {
        type: "ask_user",
        question: "Where should I deploy?",
        options: [{ label: "Staging", description: "the test cluster" }, { label: "Production" }],
        allow_multiple: false,
      },
    ]);
    expect(toolMessages(paused.messages)).toEqual([]);
    expect(model.callCount).toBe(1);
    const snapshot = await agent.graph.getState(config);
    expect(snapshot.next.length).toBeGreaterThan(0);

    const done = await agent.invoke(new Command({ resume: "staging" }), config);
    const [answer] = toolMessages(done.messages);
    expect(answer?.tool_call_id).toBe("q1");
    expect(answer?.status).toBe("success");
    expect(answer?.content).toBe("The user chose: Staging");
    expect(done.__interrupt__).toBeUndefined();
    expect(done.messages.at(-1)?.content).toBe("Deploying to Staging.");
    expect(model.callCount).toBe(2);
    expect(toolMessages(model.calls[1]?.messages ?? []).map((message) => message.content)).toEqual([
      "The user chose: Staging",
    ]);
  });

  it("pauses at confirm and resumes with yes or no", async () => {
    for (const [resume, expected] of [
      [true, "The user confirmed: go ahead."],
      [false, "The user declined: do not go ahead, and tell the user what you skipped."],
    ] as const) {
      const model = fakeModel()
        .respondWithTools([
          { id: "c1", name: "confirm", args: { message: "Delete build/?", default: true } },
        ])
        .respond(new AIMessage("Finished."));
      const agent = interactAgent(model);
      const config = { configurable: { thread_id: `confirm-${resume}` } };
      const paused = await agent.invoke({ messages: [new HumanMessage("clean up")] }, config);
      expect(paused.__interrupt__?.[0]?.value).toEqual({
        type: "confirm",
        message: "Delete build/?",
        default: true,
      });
      const done = await agent.invoke(new Command({ resume }), config);
      const [answer] = toolMessages(done.messages);
      expect(answer?.content).toBe(expected);
      expect((answer?.artifact as { data?: unknown } | undefined)?.data).toEqual({
        confirmed: resume,
        defaulted: false,
      });
      expect(toolMessages(model.calls[1]?.messages ?? [])[0]?.content).toBe(expected);
      expect(done.messages.at(-1)?.content).toBe("Finished.");
    }
  });

  it("takes a multi-select resume and an { answer } object", async () => {
    const model = fakeModel()
      .respondWithTools([
        {
          id: "m1",
          name: "ask_user",
          args: {
            question: "Which platforms?",
            options: [{ label: "Linux" }, { label: "macOS" }, { label: "Windows" }],
            allow_multiple: true,
          },
        },
      ])
      .respondWithTools([{ id: "m2", name: "ask_user", args: { question: "Name?" } }])
      .respond(new AIMessage("ok"));
    const agent = interactAgent(model);
    const config = { configurable: { thread_id: "multi" } };
    await agent.invoke({ messages: [new HumanMessage("build")] }, config);
    const second = await agent.invoke(new Command({ resume: ["Windows", "Linux"] }), config);
    expect(second.__interrupt__?.[0]?.value).toMatchObject({ question: "Name?" });
    const done = await agent.invoke(new Command({ resume: { answer: "  Falcon " } }), config);
    expect(toolMessages(done.messages).map((message) => message.content)).toEqual([
      "The user chose: Windows, Linux",
      "The user answered: Falcon",
    ]);
  });

  it("takes a { selected_options } resume (ask_user's own snake_case data key)", async () => {
    const model = fakeModel()
      .respondWithTools([
        {
          id: "s1",
          name: "ask_user",
          args: {
            question: "Which platforms?",
            options: [{ label: "Linux" }, { label: "macOS" }],
            allow_multiple: true,
          },
        },
      ])
      .respond(new AIMessage("ok"));
    const agent = interactAgent(model);
    const config = { configurable: { thread_id: "selected-options" } };
    await agent.invoke({ messages: [new HumanMessage("build")] }, config);
    const done = await agent.invoke(
      new Command({ resume: { selected_options: ["macOS", "Linux"] } }),
      config,
    );
    const [answer] = toolMessages(done.messages);
    expect(answer?.status).toBe("success");
    expect(answer?.content).toBe("The user chose: macOS, Linux");
  });

  it("tells the model when the graph was resumed with something unreadable", async () => {
    const model = fakeModel()
      .respondWithTools([{ id: "q1", name: "ask_user", args: { question: "Q?" } }])
      .respond(new AIMessage("ok"));
    const agent = interactAgent(model);
    const config = { configurable: { thread_id: "bad-resume" } };
    await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    const done = await agent.invoke(new Command({ resume: 42 }), config);
    const [answer] = toolMessages(done.messages);
    expect(answer?.status).toBe("error");
    expect(String(answer?.content)).toMatch(
      /^Error \[INTERNAL\]: The question could not be put to the user: the graph was resumed with a number/,
    );
  });

  it("sends notify without pausing, as a custom event", async () => {
    const model = fakeModel()
      .respondWithTools([
        { id: "n1", name: "notify", args: { message: "Halfway.", level: "info" } },
      ])
      .respond(new AIMessage("done"));
    const agent = interactAgent(model);
    const events: unknown[] = [];
    for await (const event of agent.streamEvents(
      { messages: [new HumanMessage("go")] },
      { version: "v2", configurable: { thread_id: "notify" } },
    )) {
      if (event.event === "on_custom_event" && event.name === NOTIFICATION_EVENT_NAME) {
        events.push(event.data);
      }
    }
    expect(events).toEqual([
      { type: "notify", message: "Halfway.", level: "info", toolCallId: "n1" },
    ]);
    expect(model.callCount).toBe(2);
  });

  it("calls onNotify when given", async () => {
    const received: unknown[] = [];
    const handler = createInterruptHandler({
      onNotify: (notification) => received.push(notification),
    });
    const model = fakeModel()
      .respondWithTools([{ id: "n1", name: "notify", args: { message: "Hi." } }])
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: toLangChainTools(createInteractTools({ handler })),
      checkpointer: new MemorySaver(),
    });
    await agent.invoke(
      { messages: [new HumanMessage("go")] },
      { configurable: { thread_id: "n" } },
    );
    expect(received).toEqual([{ type: "notify", message: "Hi.", level: "info", toolCallId: "n1" }]);
  });

  it("explains that a checkpointer is needed", async () => {
    const model = fakeModel()
      .respondWithTools([{ id: "q1", name: "ask_user", args: { question: "Q?" } }])
      .respond(new AIMessage("went on"));
    const agent = interactAgent(model, false);
    const state = await agent.invoke({ messages: [new HumanMessage("go")] });
    const [answer] = toolMessages(state.messages);
    expect(answer?.status).toBe("error");
    expect(String(answer?.content)).toMatch(/checkpointer.*MemorySaver/);
    expect(state.messages.at(-1)?.content).toBe("went on");
  });

  it("refuses outside a graph and rejects unknown options", async () => {
    const handler = createInterruptHandler();
    await expect(handler.ask({ type: "confirm" }, { toolCallId: undefined })).rejects.toThrow(
      /no LangGraph run/,
    );
    expect(() => createInterruptHandler({ notify: () => {} } as never)).toThrow(
      /unknown option notify/,
    );
  });
});
