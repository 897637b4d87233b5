import { createTerminalHandler } from "@agentool/tools-interact/node";
import { readConfiguration, readFlags, readMemoryDirectory } from "./configuration.js";
import { DEMO_FAMILIES } from "./families/index.js";
import { createInteractFamily } from "./families/interact.js";
import { createLiveModel } from "./live-model.js";
import { runDemo } from "./run-demo.js";
import { formatEvent, formatSummary } from "./transcript.js";

/**
 * The demo's command line: reads the environment, runs the agent, prints the transcript as it
 * happens and a summary, and sets the exit code (1 when the run stopped early, or when the
 * scripted run — which must be clean — saw a tool error). With `--interactive`, `ask_user` and
 * `confirm` ask on the terminal; without it the scripted answers are used.
 */
async function main(): Promise<number> {
  const flags = readFlags(process.argv.slice(2));
  const configuration = readConfiguration(process.env);
  const terminal = flags.interactive ? createTerminalHandler() : undefined;
  const families =
    terminal === undefined
      ? DEMO_FAMILIES
      : DEMO_FAMILIES.map((family) =>
          family.name === "interact" ? createInteractFamily(terminal) : family,
        );
  const model = configuration.mode === "live" ? createLiveModel(configuration) : undefined;
  const controller = new AbortController();
  const stop = () => controller.abort(new Error("interrupted"));
  process.once("SIGINT", stop);
  try {
    const run = await runDemo({
      families,
      model,
      modelName: configuration.mode === "live" ? configuration.model : undefined,
      memoryDirectory: readMemoryDirectory(process.env),
      signal: controller.signal,
      onEvent: (event) => process.stdout.write(`${formatEvent(event)}\n`),
    });
    process.stdout.write(`${formatSummary(run.summary)}\n`);
    if (run.summary.failure !== undefined) return 1;
    if (configuration.mode === "scripted" && run.summary.toolErrors > 0) return 1;
    return 0;
  } finally {
    terminal?.close();
    process.off("SIGINT", stop);
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
