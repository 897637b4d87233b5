import { describe, expect, it } from "vitest";
import { DEFAULT_OPENAI_MODEL, readConfiguration, readMemoryDirectory } from "./configuration.js";

describe("readConfiguration", () => {
  it("is scripted without a key (or with a blank one)", () => {
    expect(readConfiguration({})).toEqual({ mode: "scripted" });
    expect(readConfiguration({ OPENAI_API_KEY: "  " })).toEqual({ mode: "scripted" });
  });

  it("is live with a key, with the default model and no base URL", () => {
    expect(readConfiguration({ OPENAI_API_KEY: "sk-test" })).toEqual({
      mode: "live",
      apiKey: "sk-test",
      model: DEFAULT_OPENAI_MODEL,
      baseUrl: undefined,
    });
  });

  it("takes the model and base URL from the environment", () => {
    expect(
      readConfiguration({
        OPENAI_API_KEY: "sk-test",
        AGENTOOL_MODEL: "qwen3:8b",
        OPENAI_BASE_URL: "http://localhost:11434/v1",
      }),
    ).toEqual({
      mode: "live",
      apiKey: "sk-test",
      model: "qwen3:8b",
      baseUrl: "http://localhost:11434/v1",
    });
  });

  it("can be forced to the scripted run with AGENTOOL_DEMO_SCRIPTED", () => {
    expect(readConfiguration({ OPENAI_API_KEY: "sk", AGENTOOL_DEMO_SCRIPTED: "1" })).toEqual({
      mode: "scripted",
    });
    expect(readConfiguration({ OPENAI_API_KEY: "sk", AGENTOOL_DEMO_SCRIPTED: "0" }).mode).toBe(
      "live",
    );
  });
});

describe("readMemoryDirectory", () => {
  it("names AGENTOOL_DEMO_MEMORY_DIR, trimmed; unset or blank means the default folder", () => {
    expect(readMemoryDirectory({ AGENTOOL_DEMO_MEMORY_DIR: " /tmp/memories " })).toBe(
      "/tmp/memories",
    );
    expect(readMemoryDirectory({})).toBeUndefined();
    expect(readMemoryDirectory({ AGENTOOL_DEMO_MEMORY_DIR: "  " })).toBeUndefined();
  });
});
