import { describe, expect, it } from "vitest";
import { compactSnapshot, snapshotChanges } from "./compact-snapshot.js";

// What Playwright's ariaSnapshot({ mode: "ai" }) gives for a small login page.
const SNAPSHOT = `- generic [active] [ref=e1]:
  - heading "Login" [level=1] [ref=e2]
  - generic [ref=e3]:
    - generic [ref=e4]:
      - text: User
      - textbox "User" [ref=e5]
    - button "Sign in" [ref=e8] [cursor=pointer]
  - link "More" [ref=e9] [cursor=pointer]:
    - /url: /x
  - generic "Named region" [ref=e10]: kept`;

describe("compactSnapshot", () => {
  it("drops unnamed generic wrappers (children move up) and cursor marks; keeps every ref that can be acted on", () => {
    expect(compactSnapshot(SNAPSHOT)).toEqual([
      '- heading "Login" [level=1] [ref=e2]',
      "- text: User",
      '- textbox "User" [ref=e5]',
      '- button "Sign in" [ref=e8]',
      '- link "More" [ref=e9]:',
      "  - /url: /x",
      '- generic "Named region" [ref=e10]: kept',
    ]);
  });
});

describe("snapshotChanges", () => {
  it("gives the new lines in order and counts the gone ones, repeats counted as often as they occur", () => {
    expect(snapshotChanges(["a", "b", "b", "c"], ["a", "b", "d", "c", "d"])).toEqual({
      added: ["d", "d"],
      removed: 1,
    });
    expect(snapshotChanges(["a"], ["a"])).toEqual({ added: [], removed: 0 });
  });
});
