import { describe, expect, it } from "vitest";
import { runDemo } from "../run-demo.js";
import { browserFamily } from "./browser.js";
import { coreFamily } from "./core.js";

describe("browser family", () => {
  it("signs in on the account site through the guarded transport and reads the protected page", async () => {
    const run = await runDemo({ families: [coreFamily, browserFamily] });
    expect(run.summary.toolErrors).toBe(0);
    expect(run.summary.toolCallsByName).toMatchObject({ browser: 3 });
    const texts = run.events.flatMap((event) =>
      event.type === "tool_result" && event.name === "browser" ? [event.content] : [],
    );
    // Not signed in: the account page sent the browser to the form.
    expect(texts[0]).toContain("http://account.tally.example/login");
    expect(texts[0]).toContain('textbox "User"');
    expect(texts[1]).toContain("Done 3 of 3 actions.");
    expect(texts[1]).toContain("http://account.tally.example/account");
    expect(texts[2]).toContain(
      '#report: "Tally usage this month: 1,284 invoices, 3 seats, plan Team."',
    );
  });
});
