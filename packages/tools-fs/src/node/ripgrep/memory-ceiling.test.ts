import { spawn } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { describe, expect, it } from "vitest";
import { anchorIgnoreLine } from "./collected-ignore-rules.js";
import { ceilingCommand, ripgrepBinary, watchMemory } from "./memory-ceiling.js";

describe("watchMemory", () => {
  it("sees rg pass a resident ceiling (rg started without prlimit, reading a .gitignore linked to /dev/zero)", async () => {
    const root = await mkdtemp(join(tmpdir(), "agentool-rg-watch-"));
    try {
      await writeFile(join(root, "a.txt"), "needle\n");
      await symlink("/dev/zero", join(root, ".gitignore"));
      const child = spawn(rgPath, ["--no-config", "--no-require-git", "needle", "."], {
        cwd: root,
        env: {},
        stdio: "ignore",
      });
      const ceiling = 64 * 1024 * 1024;
      const seen = await new Promise<number>((resolve, reject) => {
        const safety = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new Error("the watchdog never fired"));
        }, 20_000);
        watchMemory(child.pid as number, ceiling, (bytes) => {
          clearTimeout(safety);
          child.kill("SIGKILL");
          resolve(bytes);
        });
      });
      expect(seen).toBeGreaterThan(ceiling);
      // One reading late at most (50 ms at rg's ~0.7 GiB/s), with a wide margin.
      expect(seen).toBeLessThan(ceiling + 256 * 1024 * 1024);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("ceilingCommand", () => {
  it("puts rg under prlimit's data limit where prlimit exists, and leaves a missing rg to fail as itself", () => {
    const binary = ripgrepBinary({ memoryCeilingBytes: 32 * 1024 * 1024 }, rgPath);
    const command = ceilingCommand(binary, ["--files"]);
    if (command.file === rgPath) expect(command.args).toEqual(["--files"]);
    else expect(command.args).toEqual([`--data=${32 * 1024 * 1024}`, "--", rgPath, "--files"]);
    const missing = ripgrepBinary({ rgPath: "/no/such/rg" }, rgPath);
    expect(ceilingCommand(missing, []).file).toBe("/no/such/rg");
    expect(() => ripgrepBinary({ memoryCeilingBytes: 1000 }, rgPath)).toThrow(/16 MiB/);
  });
});

describe("anchorIgnoreLine", () => {
  it("anchors a nested file's patterns below its directory", () => {
    expect(anchorIgnoreLine("*.log", "", false)).toBe("*.log");
    expect(anchorIgnoreLine("/build", "", false)).toBe("/build");
    expect(anchorIgnoreLine("*.log", "src/a b", false)).toBe("/src/a\\ b/**/*.log");
    expect(anchorIgnoreLine("!keep/*.log  ", "src", false)).toBe("!/src/keep/*.log");
    expect(anchorIgnoreLine("out/", "src", false)).toBe("/src/**/out/");
    expect(anchorIgnoreLine("/out/", "src", false)).toBe("/src/out/");
    expect(anchorIgnoreLine("# comment", "src", false)).toBeUndefined();
    expect(anchorIgnoreLine("   ", "src", false)).toBeUndefined();
    expect(anchorIgnoreLine("a/b", "", true)).toBeUndefined();
    expect(anchorIgnoreLine("*.tmp", "", true)).toBe("*.tmp");
  });
});
