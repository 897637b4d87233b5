// run_command's sandbox empties /tmp (a fresh tmpfs), yet a user may clone a project under /tmp
// or keep the workspace there: the program and the workspace must still be found and run, while
// the rest of /tmp stays out of sight. Real bubblewrap, real files under the host's /tmp.
import { copyFile, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { programTree } from "./run-command/bubblewrap-arguments.js";
import { bubblewrapStatus } from "./run-command/bubblewrap-status.js";
import type { RunCommandToolData } from "./run-command/run-command-data.js";
import { createRunCommandTool } from "./run-command.js";

const sandboxWorks = process.platform === "linux" && bubblewrapStatus().available;
const NEIGHBOUR_TEXT = "agentool-neighbour-in-tmp-7d2e";

let folders: string[] = [];

async function temporaryFolder(prefix: string): Promise<string> {
  const folder = await realpath(await mkdtemp(join("/tmp", prefix)));
  folders.push(folder);
  return folder;
}

beforeEach(() => {
  folders = [];
});

afterEach(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

type Outcome =
  | { success: true; data: RunCommandToolData }
  | { success: false; error: { code: string; message: string } };

function printed(outcome: Outcome): string {
  return outcome.success
    ? `${outcome.data.stdout.text}${outcome.data.stderr.text}`
    : `${outcome.error.code}: ${outcome.error.message}`;
}

describe("programTree", () => {
  it("keeps an npm binary's outermost node_modules, a lone program's file, nothing outside", () => {
    const pnpmBinary = "/tmp/clone/node_modules/.pnpm/a@1/node_modules/a/bin/a";
    expect(programTree(pnpmBinary, ["/tmp"])).toBe("/tmp/clone/node_modules");
    expect(programTree("/tmp/tools/rg", ["/tmp", "/var/tmp"])).toBe("/tmp/tools/rg");
    expect(programTree("/usr/bin/rg", ["/tmp", "/var/tmp"])).toBeUndefined();
    expect(programTree("/tmpfoo/rg", ["/tmp"])).toBeUndefined();
  });
});

describe.skipIf(!sandboxWorks)("run_command with the program and the workspace under /tmp", () => {
  it("runs a program that lives under /tmp in a workspace under /tmp, and hides the rest of /tmp", async () => {
    const clone = await temporaryFolder("agentool-clone-");
    const binaryFolder = join(clone, "node_modules", ".pnpm", "rg@1", "node_modules", "rg", "bin");
    await mkdir(binaryFolder, { recursive: true });
    const program = join(binaryFolder, "rg");
    await copyFile(rgPath, program);
    const root = await temporaryFolder("agentool-workspace-");
    await writeFile(join(root, "notes.txt"), "hello from the workspace\n");
    const neighbour = await temporaryFolder("agentool-neighbour-");
    await writeFile(join(neighbour, "private.txt"), `${NEIGHBOUR_TEXT}\n`);

    const tool = createRunCommandTool({
      root,
      sandbox: "bubblewrap",
      allowedCommands: [program, "cat", "ls"],
    });
    const search = (await tool.run({ command: [program, "--no-heading", "hello"] })) as Outcome;
    expect(printed(search)).toContain("notes.txt:hello from the workspace");
    expect(search.success && search.data.exit_code).toBe(0);
    expect(search.success && search.data.sandbox).toBe("bubblewrap");

    const peek = (await tool.run({ command: ["cat", join(neighbour, "private.txt")] })) as Outcome;
    expect(printed(peek)).not.toContain(NEIGHBOUR_TEXT);
    expect(peek.success && peek.data.exit_code).not.toBe(0);

    const listing = (await tool.run({ command: ["ls", "/tmp"] })) as Outcome;
    expect(listing.success && listing.data.exit_code).toBe(0);
    expect(printed(listing)).toContain("agentool-workspace-");
    expect(printed(listing)).not.toContain("agentool-neighbour-");
    expect(printed(listing)).not.toContain("agentool-clone-");

    // A script of an npm package: its package (lib/) is visible, and read-only.
    const packageFolder = join(clone, "node_modules", "tool");
    await mkdir(join(packageFolder, "lib"), { recursive: true });
    await writeFile(join(packageFolder, "lib", "data.txt"), "data of the package\n");
    const script = join(packageFolder, "run.sh");
    await writeFile(
      script,
      '#!/bin/sh\ncat "$(dirname "$0")/lib/data.txt"\ntouch "$(dirname "$0")/planted" && echo planted\n',
      { mode: 0o755 },
    );
    const scripted = createRunCommandTool({
      root,
      sandbox: "bubblewrap",
      allowedCommands: [script],
    });
    const ran = (await scripted.run({ command: [script] })) as Outcome;
    expect(printed(ran)).toContain("data of the package");
    expect(printed(ran)).toMatch(/Read-only file system/);
    expect(printed(ran)).not.toContain("planted\n");
  });
});
