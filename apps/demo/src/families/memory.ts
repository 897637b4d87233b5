import { fileURLToPath } from "node:url";
import { createMemoryTools } from "@agentool/tools-knowledge";
import { createFileMemoryBackend } from "@agentool/tools-knowledge/node";
import type { DemoFamily } from "./demo-family.js";

/**
 * Where the demo keeps its memories by default: `apps/demo/.memory` (ignored by git). Unlike the
 * sample workspace it is not deleted when a run ends, so a second run recalls what the first one
 * saved. `AGENTOOL_DEMO_MEMORY_DIR` names another folder; delete the folder to start afresh.
 */
export const DEFAULT_DEMO_MEMORY_DIRECTORY = fileURLToPath(
  new URL("../../.memory/", import.meta.url),
);

/**
 * The memory namespace of the demo: preferences belong to the user, not to one conversation, so
 * the host fixes it (a real host would put its user id here). The model never chooses it.
 */
export const DEMO_MEMORY_NAMESPACE: readonly string[] = Object.freeze(["user", "demo-user"]);

/** The key the demo saves the user's report preference under. */
export const REPORT_PREFERENCE_KEY = "user/preferences/report-style";

/** The preference the demo saves (and, on the next run, recalls). */
export const REPORT_PREFERENCE =
  "Report back as a short checklist, most important fix first, naming each changed file.";

/**
 * The keyed-memory part of `@agentool/tools-knowledge`: `memory_write`, `memory_read`,
 * `memory_search`, `memory_list` and `memory_delete` over the file store
 * (`createFileMemoryBackend`) in {@link DemoContext.memoryDirectory}, which outlives the run. The
 * loop it shows: at the start of a session, look for the user's saved preferences with
 * `memory_search` (the first run finds none), then save this session's with `memory_write` (the
 * first run creates the key; the next run recalls it and replaces it, keeping its `created_at`).
 */
export const memoryFamily: DemoFamily = {
  name: "memory",
  createTools: ({ memoryDirectory, onCleanup }) => {
    const backend = createFileMemoryBackend({
      directory: memoryDirectory,
      onWarn: (message) => process.stderr.write(`memory: ${message}\n`),
    });
    onCleanup(async () => {
      await backend.close?.();
    });
    return createMemoryTools({ backend, namespace: DEMO_MEMORY_NAMESPACE });
  },
  tasks: [
    {
      step: "Recall the user's saved preferences, then save the one from this session",
      turns: [
        {
          toolCalls: [
            {
              name: "memory_search",
              arguments: { query: "report style preference", tags: ["preference"] },
            },
          ],
        },
        {
          toolCalls: [
            {
              name: "memory_write",
              arguments: {
                key: REPORT_PREFERENCE_KEY,
                content: REPORT_PREFERENCE,
                tags: ["preference", "report"],
              },
            },
          ],
        },
      ],
    },
  ],
  findings: [
    `Your report preference is saved under ${REPORT_PREFERENCE_KEY} in the memory folder; the next run recalls it with memory_search.`,
  ],
};
