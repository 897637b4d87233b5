import { ChatOpenAI } from "@langchain/openai";
import type { DemoConfiguration } from "./configuration.js";

/**
 * Creates the chat model of a live run: `ChatOpenAI` pointed at OpenAI or at any
 * OpenAI-compatible server, at temperature 0.
 *
 * @param configuration - a live configuration from `readConfiguration`
 * @returns the model to pass to `runDemo`
 * @example
 * const configuration = readConfiguration(process.env);
 * const model = configuration.mode === "live" ? createLiveModel(configuration) : undefined;
 */
export function createLiveModel(
  configuration: Extract<DemoConfiguration, { mode: "live" }>,
): ChatOpenAI {
  return new ChatOpenAI({
    model: configuration.model,
    apiKey: configuration.apiKey,
    temperature: 0,
    maxRetries: 1,
    configuration:
      configuration.baseUrl === undefined ? undefined : { baseURL: configuration.baseUrl },
  });
}
