/** The default model of a live run. */
export const DEFAULT_OPENAI_MODEL = "gpt-4.1-mini";

/** How the demo picks its model. */
export type DemoConfiguration =
  | { mode: "scripted" }
  | {
      mode: "live";
      /** The OpenAI API key (or a compatible server's key). */
      apiKey: string;
      /** The model name. */
      model: string;
      /** An OpenAI-compatible base URL, when not OpenAI itself. */
      baseUrl: string | undefined;
    };

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed.length === 0 ? undefined : trimmed;
}

/**
 * Reads the demo's configuration from the environment: with `OPENAI_API_KEY` the run is live
 * (`AGENTOOL_MODEL`, default {@link DEFAULT_OPENAI_MODEL}; `OPENAI_BASE_URL` optional),
 * otherwise it is scripted. `AGENTOOL_DEMO_SCRIPTED=1` forces the scripted run even with a key.
 *
 * @param environment - usually `process.env`
 * @returns the configuration
 * @example
 * readConfiguration({ OPENAI_API_KEY: "sk-…" }); // { mode: "live", model: "gpt-4.1-mini", … }
 */
export function readConfiguration(
  environment: Record<string, string | undefined>,
): DemoConfiguration {
  const apiKey = nonEmpty(environment.OPENAI_API_KEY);
  const forced = nonEmpty(environment.AGENTOOL_DEMO_SCRIPTED);
  if (apiKey === undefined || (forced !== undefined && forced !== "0")) return { mode: "scripted" };
  return {
    mode: "live",
    apiKey,
    model: nonEmpty(environment.AGENTOOL_MODEL) ?? DEFAULT_OPENAI_MODEL,
    baseUrl: nonEmpty(environment.OPENAI_BASE_URL),
  };
}
