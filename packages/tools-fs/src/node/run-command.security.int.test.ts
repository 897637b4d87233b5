// Attacks on run_command, tried as a prompt-injected model would: every one of these got through
// before the sandbox and the argument checks (see issue 10). Real processes, real files.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  bubblewrapStatus,
  setBubblewrapStatusForTesting,
} from "./run-command/bubblewrap-status.js";
import type { RunCommandToolData } from "./run-command/run-command-data.js";
import type { RunCommandToolOptions } from "./run-command/run-command-options.js";
import { createRunCommandTool } from "./run-command.js";

const SECRET = "agentool-fake-secret-4f1c9e";
const linux = process.platform === "linux";
const sandboxWorks = linux && bubblewrapStatus().available;
const MODES: Array<"none" | "bubblewrap"> = sandboxWorks ? ["none", "bubblewrap"] : ["none"];

let root: string;
let outside: string;
const started: ChildProcess[] = [];

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "agentool-run-attack-")));
  outside = await realpath(await mkdtemp(join(tmpdir(), "agentool-run-attack-outside-")));
});

afterEach(async () => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

type Outcome =
  | { success: true; data: RunCommandToolData }
  | { success: false; error: { code: string; message: string } };

function tool(mode: "none" | "bubblewrap", options: Omit<RunCommandToolOptions, "root">) {
  return createRunCommandTool({ root, sandbox: mode, killGraceMs: 200, ...options });
}

/** Everything the command printed, or the refusal; never a silent success. */
function shown(outcome: Outcome): string {
  return outcome.success
    ? `${outcome.data.stdout.text}\n${outcome.data.stdout.tail}\n${outcome.data.stderr.text}\n${outcome.data.stderr.tail}`
    : `${outcome.error.code}: ${outcome.error.message}`;
}

/** Host processes whose command line holds `marker`. */
function hostProcessesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker))
        found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}

async function waitFor(check: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

function gitRepo(directory: string) {
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
      cwd: directory,
      env: { PATH: process.env.PATH ?? "", HOME: directory, GIT_CONFIG_NOSYSTEM: "1" },
      encoding: "utf8",
    }).trim();
  git("init", "-q");
  return git;
}

describe.each(MODES)("run_command attacks (sandbox: %s)", (mode) => {
  it.skipIf(!linux)("never shows a host process's environment through /proc", async () => {
    // A host process started with a (fake) secret in its environment, like the agent's own.
    const holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
      env: { AGENTOOL_TEST_SECRET: SECRET, PATH: process.env.PATH ?? "" },
      stdio: "ignore",
    });
    started.push(holder);
    // Wait until it has exec'd (before that its environ is ours, without the secret).
    expect(
      await waitFor(() => {
        try {
          return readFileSync(`/proc/${holder.pid}/environ`, "utf8").includes(SECRET);
        } catch {
          return false;
        }
      }),
    ).toBe(true);
    const run = tool(mode, { allowedCommands: ["cat", "head", "grep"] });
    for (const command of [
      ["cat", `/proc/${holder.pid}/environ`],
      ["head", "-c", "100000", `/proc/${holder.pid}/environ`],
      ["grep", "-a", "AGENTOOL_TEST_SECRET", `/proc/${holder.pid}/environ`],
      ["cat", `/proc/${process.pid}/environ`],
      ["grep", "-ra", "--include=environ", "AGENTOOL_TEST_SECRET", "/proc/"],
    ]) {
      const outcome = (await run.run({ command, timeout_ms: 20_000 })) as Outcome;
      expect(shown(outcome), command.join(" ")).not.toContain(SECRET);
      // The agent's own environment (its PATH, as started) is not shown either.
      if (command[1] === `/proc/${process.pid}/environ`) {
        expect(shown(outcome)).not.toMatch(/VITEST|NODE_OPTIONS|npm_/);
      }
    }
  });

  it("refuses git's program-running options, naming the flag", async () => {
    gitRepo(root);
    await writeFile(join(root, "a.txt"), "a\n");
    const run = tool(mode, { allowedCommands: ["git"] });
    for (const [command, flag] of [
      [["git", "-c", "alias.x=!touch pwned-alias", "x"], "-c"],
      [["git", "-c", "core.pager=touch pwned-pager", "-p", "log"], "-c"],
      [["git", "-c", "diff.external=touch", "diff", "--no-index", "a.txt", "a.txt"], "-c"],
      [["git", "--config-env=alias.x=HOME", "x"], "--config-env"],
      [["git", "--exec-path=.", "status"], "--exec-path"],
      [["git", "-C", "/", "status"], "-C"],
      [["git", "fetch", "--upload-pack=touch pwned-upload", "."], "--upload-pack"],
      [["git", "config", "alias.y", "!touch pwned-config"], "config"],
    ] as const) {
      const outcome = (await run.run({ command: [...command] })) as Outcome;
      expect(outcome.success, command.join(" ")).toBe(false);
      if (outcome.success) continue;
      expect(outcome.error.code).toBe("BLOCKED");
      expect(outcome.error.message).toContain(flag);
    }
    expect(readdirSync(root).filter((name) => name.startsWith("pwned"))).toEqual([]);
    // Reading stays possible.
    const status = (await run.run({ command: ["git", "status", "--short"] })) as Outcome;
    expect(status.success).toBe(true);
  });

  it("refuses rg --pre, tar's command options and sed's e and w commands", async () => {
    await writeFile(join(root, "a.txt"), "hello\n");
    await writeFile(join(root, "pre.sh"), '#!/bin/sh\ntouch pwned-pre\ncat "$1"\n', {
      mode: 0o755,
    });
    const run = tool(mode, { allowedCommands: [rgPath, "tar", "sed", "find"] });
    for (const [command, flag] of [
      [[rgPath, "--pre", "./pre.sh", "hello"], "--pre"],
      [[rgPath, "--pre=./pre.sh", "hello"], "--pre"],
      [
        [
          "tar",
          "-cf",
          "/dev/null",
          "--checkpoint=1",
          "--checkpoint-action=exec=touch pwned-tar",
          "a.txt",
        ],
        "--checkpoint-action",
      ],
      [
        [
          "tar",
          "-cf",
          "/dev/null",
          "--checkpoint=1",
          "--checkpoint-act=exec=touch pwned-tar",
          "a.txt",
        ],
        "--checkpoint-act",
      ],
      [["tar", "--to-command=touch pwned-tar", "-xf", "x.tar"], "--to-command"],
      [["tar", "-I", "touch pwned-tar", "-cf", "x.tar", "a.txt"], "-I"],
      [["tar", "-cIf", "touch pwned-tar", "x.tar", "a.txt"], "-I"],
      [
        ["tar", "--use-compress-program=touch pwned-tar", "-cf", "x.tar", "a.txt"],
        "--use-compress-program",
      ],
      [["sed", "1e touch pwned-sed", "a.txt"], "e"],
      [["sed", "-e", "s/hello/touch pwned-sed/e", "a.txt"], "e"],
      [["sed", "--expression=w pwned-sed", "a.txt"], "w"],
      [["sed", "-n", "s/x/y/w pwned-sed", "a.txt"], "w"],
      [["find", ".", "-exec", "touch", "pwned-find", ";"], "-exec"],
      [["find", ".", "-delete"], "-delete"],
    ] as const) {
      const outcome = (await run.run({ command: [...command] })) as Outcome;
      expect(outcome.success, command.join(" ")).toBe(false);
      if (outcome.success) continue;
      expect(outcome.error.code, command.join(" ")).toBe("BLOCKED");
      expect(outcome.error.message, command.join(" ")).toContain(flag);
    }
    expect(readdirSync(root).filter((name) => name.startsWith("pwned"))).toEqual([]);
    // Harmless uses still run.
    const sed = (await run.run({ command: ["sed", "-n", "s/hello/bye/p", "a.txt"] })) as Outcome;
    expect(shown(sed)).toContain("bye");
    const rg = (await run.run({ command: [rgPath, "-n", "hello", "a.txt"] })) as Outcome;
    expect(shown(rg)).toContain("1:hello");
  });

  it.skipIf(!linux)(
    "holds timeout_ms when a child starts its own session (setsid), and leaves nothing running in the sandbox",
    async () => {
      const marker = `${Math.floor(Math.random() * 1e6) + 100}.${Date.now() % 1000}`;
      const script = `require('child_process').spawn('setsid', ['sleep', '${marker}'], { stdio: 'inherit', detached: true }).unref(); setInterval(() => {}, 1000);`;
      const run = tool(mode, { allowedCommands: [process.execPath] });
      const began = Date.now();
      const outcome = (await run.run({
        command: [process.execPath, "-e", script],
        timeout_ms: 800,
      })) as Outcome;
      expect(Date.now() - began).toBeLessThan(4_000);
      expect(outcome.success).toBe(false);
      if (!outcome.success) expect(outcome.error.code).toBe("TIMEOUT");
      if (mode === "bubblewrap") {
        expect(await waitFor(() => hostProcessesWith(`sleep\0${marker}`).length === 0)).toBe(true);
      } else {
        for (const pid of hostProcessesWith(`sleep\0${marker}`)) process.kill(pid, "SIGKILL");
      }
    },
  );

  it("does not let an argument reach a secret or an outside file", async () => {
    await writeFile(join(root, ".env"), `API_KEY=${SECRET}\n`);
    await mkdir(join(root, "sub"));
    await writeFile(join(root, "sub", "secrets.json"), `{"k":"${SECRET}"}`);
    await writeFile(join(outside, "id_ed25519"), `${SECRET}\n`);
    await writeFile(join(outside, "notes.txt"), `${SECRET}\n`);
    await symlink(join(root, ".env"), join(root, "innocent.txt"));
    await symlink(join(outside, "notes.txt"), join(root, "outside-notes.txt"));
    await symlink(outside, join(root, "outdir"));
    const run = tool(mode, { allowedCommands: ["cat", "grep", "head"] });
    for (const command of [
      ["cat", "innocent.txt"],
      ["cat", "outside-notes.txt"],
      ["head", "outdir/notes.txt"],
      ["cat", join(outside, "notes.txt")],
      ["grep", "-r", SECRET.slice(0, 12), "."],
      ["grep", "-r", SECRET.slice(0, 12), outside],
      ["grep", "-rR", SECRET.slice(0, 12), "outdir"],
    ]) {
      const outcome = (await run.run({ command })) as Outcome;
      expect(shown(outcome), command.join(" ")).not.toContain(SECRET);
    }
  });

  it("does not show a committed secret file through git log -p, git show or git cat-file", async () => {
    const git = gitRepo(root);
    await writeFile(join(root, ".env"), `API_KEY=${SECRET}\n`);
    await writeFile(join(root, "readme.md"), "hi\n");
    git("add", "-f", ".env", "readme.md");
    git("commit", "-qm", "oops");
    const blob = git("rev-parse", "HEAD:.env");
    const run = tool(mode, { allowedCommands: ["git"] });
    for (const command of [
      ["git", "log", "-p"],
      ["git", "show", "HEAD"],
      ["git", "show", "HEAD:.env"],
      ["git", "cat-file", "-p", blob],
      ["git", "cat-file", "blob", blob],
      ["git", "grep", SECRET.slice(0, 12)],
    ]) {
      const outcome = (await run.run({ command })) as Outcome;
      expect(shown(outcome), command.join(" ")).not.toContain(SECRET);
    }
    const log = (await run.run({ command: ["git", "log", "--oneline"] })) as Outcome;
    expect(shown(log)).toContain("oops");
  });

  it("resolves argv[0] on the filtered, real PATH: never the cwd, never inside the workspace", async () => {
    await mkdir(join(root, "bin"));
    const planted = "#!/bin/sh\necho planted-ran\n";
    await writeFile(join(root, "echo"), planted, { mode: 0o755 });
    await writeFile(join(root, "bin", "echo"), planted, { mode: 0o755 });
    // A PATH entry outside the root that is a symlink into it (unresolved string comparison).
    await symlink(join(root, "bin"), join(outside, "bin-link"));
    const saved = process.env.PATH;
    try {
      process.env.PATH = `${join(outside, "bin-link")}:${saved}`;
      const run = tool(mode, { allowedCommands: ["echo"] });
      expect(shown((await run.run({ command: ["echo", "real"] })) as Outcome)).not.toContain(
        "planted-ran",
      );
      // Only workspace entries: the filtered PATH is empty, and an empty PATH must not mean the cwd.
      process.env.PATH = join(outside, "bin-link");
      const empty = (await run.run({ command: ["echo", "real"] })) as Outcome;
      expect(shown(empty)).not.toContain("planted-ran");
      expect(empty.success).toBe(false);
    } finally {
      process.env.PATH = saved;
    }
    await chmod(join(root, "echo"), 0o644);
  });
});

describe.skipIf(!sandboxWorks)("run_command in the bubblewrap sandbox", () => {
  const make = (options: Omit<RunCommandToolOptions, "root">) =>
    createRunCommandTool({ root, killGraceMs: 200, ...options });

  it("is on by default, says so in its description and its result", async () => {
    const run = make({ allowedCommands: ["echo"] });
    expect(run.description).toContain("sandbox (bubblewrap)");
    const outcome = (await run.run({ command: ["echo", "hi"] })) as Outcome;
    expect(outcome.success && outcome.data.sandbox).toBe("bubblewrap");
    const bare = make({ allowedCommands: ["echo"], sandbox: "none" });
    expect(bare.description).toContain("without a sandbox");
    const data = (await bare.run({ command: ["echo", "hi"] })) as Outcome;
    expect(data.success && data.data.sandbox).toBe("none");
  });

  it("writes only in the workspace, hides its secrets and the host's /tmp, has no network", async () => {
    await writeFile(join(root, ".env"), `API_KEY=${SECRET}\n`);
    await mkdir(join(root, ".ssh"));
    await writeFile(join(root, ".ssh", "id_ed25519"), SECRET);
    await writeFile(join(outside, "notes.txt"), SECRET);
    const script = [
      "const fs = require('fs'); const out = {};",
      "for (const [k, f] of Object.entries({ env: '.env', key: '.ssh/id_ed25519', outside: process.argv[1] })) { try { out[k] = fs.readFileSync(f, 'utf8'); } catch (e) { out[k] = e.code; } }",
      "try { fs.writeFileSync('made.txt', 'ok'); out.inside = 'written'; } catch (e) { out.inside = e.code; }",
      "try { fs.writeFileSync('/usr/agentool-x', 'x'); out.usr = 'written'; } catch (e) { out.usr = e.code; }",
      "const net = require('net'); const s = net.connect(53, '1.1.1.1'); s.on('error', (e) => { out.net = e.code; console.log(JSON.stringify(out)); }); s.on('connect', () => { out.net = 'connected'; console.log(JSON.stringify(out)); s.destroy(); });",
    ].join("\n");
    const run = make({ allowedCommands: [process.execPath] });
    const outcome = (await run.run({
      command: [process.execPath, "-e", script, join(outside, "notes.txt")],
    })) as Outcome;
    expect(outcome.success).toBe(true);
    if (!outcome.success) return;
    const seen = JSON.parse(outcome.data.stdout.text) as Record<string, string>;
    expect(seen.env).toBe("");
    expect(["", "ENOENT"]).toContain(seen.key);
    expect(seen.outside).toBe("ENOENT");
    expect(seen.inside).toBe("written");
    expect(seen.usr).toBe("EROFS");
    expect(seen.net).not.toBe("connected");
    expect(readFileSync(join(root, "made.txt"), "utf8")).toBe("ok");
    // The secret files on disk are untouched.
    expect(readFileSync(join(root, ".env"), "utf8")).toContain(SECRET);
  });

  for (const ending of ["timeout", "abort", "exit"] as const) {
    it(`leaves no process behind on ${ending}, setsid and double forks included`, async () => {
      const marker = `${Math.floor(Math.random() * 1e6) + 100}.${ending.length}${Date.now() % 1000}`;
      const script = [
        "const { spawn } = require('child_process');",
        `spawn('setsid', ['sleep', '${marker}'], { stdio: 'ignore', detached: true }).unref();`,
        `spawn('sh', ['-c', 'sleep ${marker} &'], { stdio: 'ignore', detached: true }).unref();`,
        "console.log('started');",
        ending === "exit"
          ? "setTimeout(() => process.exit(0), 300);"
          : "setInterval(() => {}, 1000);",
      ].join("\n");
      const run = make({ allowedCommands: [process.execPath] });
      const controller = new AbortController();
      const running = run.run(
        {
          command: [process.execPath, "-e", script],
          timeout_ms: ending === "timeout" ? 800 : 20_000,
        },
        { signal: controller.signal },
      );
      expect(await waitFor(() => hostProcessesWith(`sleep\0${marker}`).length === 2)).toBe(true);
      if (ending === "abort") controller.abort();
      const outcome = (await running) as Outcome;
      if (ending === "exit") expect(outcome.success).toBe(true);
      else
        expect(!outcome.success && outcome.error.code).toBe(
          ending === "timeout" ? "TIMEOUT" : "ABORTED",
        );
      expect(await waitFor(() => hostProcessesWith(`sleep\0${marker}`).length === 0)).toBe(true);
    });
  }
});

describe("run_command without bubblewrap (the documented fallback)", () => {
  afterEach(() => setBubblewrapStatusForTesting(undefined));

  it("runs on the host under auto, says so, and refuses every call under sandbox: bubblewrap", async () => {
    setBubblewrapStatusForTesting({ available: false, reason: "bwrap is not installed" });
    const auto = createRunCommandTool({ root, allowedCommands: ["echo"] });
    expect(auto.description).toContain("without a sandbox");
    const ran = (await auto.run({ command: ["echo", "hi"] })) as Outcome;
    expect(ran.success && ran.data.sandbox).toBe("none");
    const strict = createRunCommandTool({ root, allowedCommands: ["echo"], sandbox: "bubblewrap" });
    const refused = (await strict.run({ command: ["echo", "hi"] })) as Outcome;
    expect(!refused.success && refused.error.code).toBe("DEPENDENCY_MISSING");
    expect(!refused.success && refused.error.message).toContain("bwrap is not installed");
  });

  it("uses the sandbox wherever bwrap works (this machine: reported, never skipped silently)", async () => {
    const status = bubblewrapStatus();
    const run = createRunCommandTool({ root, allowedCommands: ["echo"] });
    const ran = (await run.run({ command: ["echo", "hi"] })) as Outcome;
    expect(ran.success && ran.data.sandbox).toBe(status.available ? "bubblewrap" : "none");
    if (!status.available) console.warn(`run_command sandbox unavailable here: ${status.reason}`);
  });
});
