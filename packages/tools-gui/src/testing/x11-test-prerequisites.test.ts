import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { missingX11TestPrerequisites, x11TestSkipReason } from "./x11-test-prerequisites.js";

// A real folder with no programs in it, as the PATH: every X program is missing.
const emptyPath = mkdtempSync(join(tmpdir(), "agentool-empty-path-"));
afterAll(() => rmSync(emptyPath, { recursive: true, force: true }));

const XVFB_PROGRAMS = ["Xvfb", "xauth", "xdotool", "xwd"];

describe("missingX11TestPrerequisites", () => {
  it("names what startXvfbDisplay needs from the PATH given, with Debian packages", () => {
    const missing = missingX11TestPrerequisites({ path: emptyPath, tk: false });
    expect(missing).toEqual([
      { program: "Xvfb", debianPackage: "xvfb" },
      { program: "xauth", debianPackage: "xauth" },
      { program: "xdotool", debianPackage: "xdotool" },
      { program: "xwd", debianPackage: "x11-apps" },
    ]);
  });

  it("adds xprop and Tk only when the tests need them, each as this machine has it", () => {
    const programs = missingX11TestPrerequisites({ path: emptyPath, xprop: true }).map(
      ({ program }) => program,
    );
    expect(programs.slice(0, 4)).toEqual(XVFB_PROGRAMS);
    // xprop is searched on the process's own PATH (it is started), Tk with Debian's python3.
    const expected = missingX11TestPrerequisites({ xprop: true }).map(({ program }) => program);
    for (const extra of ["xprop", "python3's tkinter"]) {
      expect(programs.includes(extra)).toBe(expected.includes(extra));
    }
  });
});

describe("x11TestSkipReason", () => {
  it("returns the reason with the apt-get line and warns, or undefined when nothing is missing", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const reason = x11TestSkipReason("my gui tests", {
        path: emptyPath,
        tk: false,
        require: false,
      });
      expect(reason).toBe(
        "Xvfb, xauth, xdotool, xwd are not installed (Debian: apt-get install xvfb xauth xdotool x11-apps).",
      );
      expect(warn).toHaveBeenCalledWith(`my gui tests skipped: ${reason}`);
      const here = missingX11TestPrerequisites({ tk: false });
      expect(x11TestSkipReason("my gui tests", { tk: false, require: false }) === undefined).toBe(
        here.length === 0,
      );
    } finally {
      warn.mockRestore();
    }
  });

  it("throws, naming the tests, where X is required (AGENTOOL_REQUIRE_SYSTEM by default)", () => {
    expect(() =>
      x11TestSkipReason("my gui tests", { path: emptyPath, tk: false, require: true }),
    ).toThrow("my gui tests: X11 is required but Xvfb, xauth, xdotool, xwd are not installed");
    const previous = process.env.AGENTOOL_REQUIRE_SYSTEM;
    process.env.AGENTOOL_REQUIRE_SYSTEM = "1";
    try {
      expect(() => x11TestSkipReason("my gui tests", { path: emptyPath, tk: false })).toThrow(
        "my gui tests: AGENTOOL_REQUIRE_SYSTEM is set but Xvfb",
      );
    } finally {
      if (previous === undefined) delete process.env.AGENTOOL_REQUIRE_SYSTEM;
      else process.env.AGENTOOL_REQUIRE_SYSTEM = previous;
    }
  });
});
