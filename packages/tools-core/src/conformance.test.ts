import { assertConformance } from "@agentool/contract/testing";
import { describe, it } from "vitest";
import { createCoreTools } from "./core-tools.js";

describe("contract conformance", () => {
  it("think and update_plan pass the conformance kit", async () => {
    const [think, updatePlan] = createCoreTools();
    await assertConformance([think, updatePlan], {
      samples: {
        think: { thought: "The README and src/app.ts disagree on the port; check the code first." },
        update_plan: {
          explanation: "Starting.",
          plan: [
            { step: "Read the README", status: "completed" },
            { step: "Fix the port in src/app.ts", status: "in_progress" },
            { step: "Summarise the change", status: "pending" },
          ],
        },
      },
    });
  });
});
