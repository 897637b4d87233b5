import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeMissingX11Programs, missingX11Programs } from "./missing-x11-programs.js";
import { startXvfbDisplay } from "./xvfb-display.js";

const folder = mkdtempSync(join(tmpdir(), "agentool-x11-programs-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A folder holding executable (or not) files of these names. */
function binFolder(name: string, programs: string[], executable = true): string {
  const bin = join(folder, name);
  mkdirSync(bin);
  for (const program of programs) {
    writeFileSync(join(bin, program), "#!/bin/sh\nexit 0\n");
    chmodSync(join(bin, program), executable ? 0o755 : 0o644);
  }
  return bin;
}

describe("missingX11Programs", () => {
  it("names every program an Xvfb display needs, with its Debian package, when none is on the path", () => {
    const empty = binFolder("empty", []);
    expect(missingX11Programs({ path: empty })).toEqual([
      { program: "Xvfb", debianPackage: "xvfb" },
      { program: "xauth", debianPackage: "xauth" },
      { program: "xdotool", debianPackage: "xdotool" },
      { program: "xwd", debianPackage: "x11-apps" },
    ]);
    expect(missingX11Programs({ path: empty, display: "existing" })).toEqual([
      { program: "xdotool", debianPackage: "xdotool" },
      { program: "xwd", debianPackage: "x11-apps" },
    ]);
  });

  it("finds programs across the folders of the path; a file that is not executable does not count", () => {
    const first = binFolder("first", ["Xvfb", "xwd"]);
    const second = binFolder("second", ["xdotool"]);
    const plain = binFolder("plain", ["xauth"], false);
    expect(missingX11Programs({ path: [first, plain, second].join(":") })).toEqual([
      { program: "xauth", debianPackage: "xauth" },
    ]);
    expect(missingX11Programs({ path: [first, second].join(":"), display: "existing" })).toEqual(
      [],
    );
  });

  it("describes the missing ones as one install command", () => {
    expect(
      describeMissingX11Programs([
        { program: "Xvfb", debianPackage: "xvfb" },
        { program: "xwd", debianPackage: "x11-apps" },
      ]),
    ).toBe("Xvfb, xwd are not installed (Debian: apt-get install xvfb x11-apps).");
    expect(describeMissingX11Programs([{ program: "xauth", debianPackage: "xauth" }])).toBe(
      "xauth is not installed (Debian: apt-get install xauth).",
    );
  });

  it("startXvfbDisplay fails with the install command, not a spawn ENOENT, when the programs are missing", async () => {
    const saved = process.env.PATH;
    process.env.PATH = binFolder("nothing", []);
    try {
      const error = await startXvfbDisplay({ width: 320, height: 200 }).then(
        () => undefined,
        (failure: unknown) => failure as Error,
      );
      expect(error?.message).toBe(
        "startXvfbDisplay: DEPENDENCY_MISSING: Xvfb, xauth, xdotool, xwd are not installed (Debian: apt-get install xvfb xauth xdotool x11-apps).",
      );
      expect((error?.cause as { code?: string } | undefined)?.code).toBe("DEPENDENCY_MISSING");
    } finally {
      process.env.PATH = saved;
    }
  });
});
