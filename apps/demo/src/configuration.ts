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

/**
 * Reads where the memory family keeps its file store: `AGENTOOL_DEMO_MEMORY_DIR`, or `undefined`
 * for the default (`apps/demo/.memory`).
 *
 * @param environment - usually `process.env`
 * @returns the folder named, or `undefined`
 * @example
 * readMemoryDirectory({ AGENTOOL_DEMO_MEMORY_DIR: "/tmp/memories" }); // "/tmp/memories"
 */
export function readMemoryDirectory(
  environment: Record<string, string | undefined>,
): string | undefined {
  return nonEmpty(environment.AGENTOOL_DEMO_MEMORY_DIR);
}

/** The demo's command-line flags. */
export interface DemoFlags {
  /** `--interactive`: `ask_user` / `confirm` questions go to the terminal instead of the script. */
  interactive: boolean;
}

/**
 * Reads the demo's flags. Unknown flags are refused, so a typo does not silently run the
 * scripted answers.
 *
 * @param argv - the arguments after the script, usually `process.argv.slice(2)`
 * @returns the flags
 * @throws Error for an unknown argument
 * @example
 * readFlags(["--interactive"]); // { interactive: true }
 */
export function readFlags(argv: readonly string[]): DemoFlags {
  const flags: DemoFlags = { interactive: false };
  for (const argument of argv) {
    if (argument === "--interactive" || argument === "-i") flags.interactive = true;
    else if (argument === "--") continue;
    else
      throw new Error(`unknown argument ${JSON.stringify(argument)}; the demo knows --interactive`);
  }
  return flags;
}
