import { createCoreTools } from "@agentool/tools-core";
import type { DemoFamily } from "./demo-family.js";

/**
 * The `@agentool/tools-core` family: `think` and `update_plan`. Its plans are saved per
 * thread through `onUpdate`, the way a host would persist them.
 */
export const coreFamily: DemoFamily = {
  name: "core",
  createTools: ({ savedPlans }) =>
    createCoreTools({
      updatePlan: {
        onUpdate: ({ plan, threadId }) => {
          savedPlans.set(threadId ?? "default", plan);
        },
      },
    }),
  tasks: [
    {
      step: "Weigh the open todo items and pick the first fix",
      turns: [
        {
          toolCalls: [
            {
              name: "think",
              arguments: {
                thought:
                  "Four items are open: the default port (README says 8080, src/app.ts uses 3000), " +
                  "the missing JSON content type on GET /count, a new POST /reset endpoint, and " +
                  "report shares over 100%. The port mismatch is the only one that breaks users who " +
                  "follow the README, and it is a one-line change, so it goes first; the wrong " +
                  "shares are a bug in our own numbers, second; the content type third; /reset is " +
                  "a feature and comes last.",
              },
            },
          ],
        },
      ],
    },
    {
      step: "Check the port fix against the README before changing anything",
      turns: [
        {
          toolCalls: [
            {
              name: "think",
              arguments: {
                thought:
                  "Before changing a default that people may rely on: the README is the documented " +
                  "contract and already describes TALLY_PORT, which the code honours. So the code " +
                  "should change (3000 → 8080), not the README. Anyone who set TALLY_PORT is " +
                  "unaffected; no rule conflicts with this.",
              },
            },
          ],
        },
      ],
    },
  ],
  findings: [
    "First fix: make src/app.ts default to port 8080, as the README documents (TALLY_PORT still wins).",
    "Then: send Content-Type: application/json from GET /count.",
    "Last: add POST /reset, a new feature rather than a fix.",
  ],
};
