import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  chmod,
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { AnyTool, ToolResult } from "@agentool/contract";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFsTools } from "./create-fs-tools.js";
import type { FileSystem } from "./file-system.js";
import { createNodeFsTools } from "./node/create-node-fs-tools.js";
import { createNodeFileSystem } from "./node/node-file-system.js";

const run = promisify(execFile);

let root: string;
let outside: string;
let children: ChildProcess[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agentool-races-root-"));
  outside = await mkdtemp(join(tmpdir(), "agentool-races-outside-"));
});

afterEach(async () => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) done();
          else child.once("exit", () => done());
        }),
    ),
  );
  children = [];
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

type ToolName =
  | "read_file"
  | "write_file"
  | "edit_file"
  | "copy_file"
  | "move_file"
  | "delete_file"
  | "create_directory"
  | "grep_search"
  | "count_words"
  | "extract_toc"
  | "file_stats"
  | "glob_search";

function tools(): Record<ToolName, AnyTool> & Record<string, AnyTool | undefined> {
  const all = createNodeFsTools({ root, mode: "read-write" });
  return Object.fromEntries(all.map((tool) => [tool.name, tool])) as Record<ToolName, AnyTool>;
}

function codeOf(result: ToolResult<unknown>): string {
  return result.success ? "success" : result.error.code;
}

/**
 * A second process that swaps `root/<name>` between a real directory (holding `inner`) and a
 * symlink to `target`, as fast as it can, until killed.
 */
async function startSwapper(name: string, target: string): Promise<ChildProcess> {
  // d is a directory, then (d moved aside) a symlink to `target`, then a directory again.
  const script = `
    const fs = require("node:fs");
    const link = ${JSON.stringify(join(root, name))};
    const real = link + ".real";
    const spin = (ns) => { const end = process.hrtime.bigint() + ns; while (process.hrtime.bigint() < end) {} };
    for (let i = 0; ; i += 1) {
      try { fs.renameSync(real, link); } catch {}
      spin(BigInt(50000 + (i % 7) * 40000));
      try { fs.renameSync(link, real); } catch {}
      try { fs.symlinkSync(${JSON.stringify(target)}, link); } catch {}
      spin(BigInt(50000 + (i % 5) * 40000));
      try { fs.unlinkSync(link); } catch {}
    }
  `;
  const child = spawn(process.execPath, ["-e", script], { stdio: "ignore" });
  children.push(child);
  // Wait until it runs (the link seen as a symlink once).
  const end = Date.now() + 5_000;
  while (Date.now() < end) {
    const info = await lstat(join(root, name)).catch(() => undefined);
    if (info?.isSymbolicLink()) break;
    await new Promise((done) => setTimeout(done, 5));
  }
  return child;
}

/** Stops a swapper and waits for it to exit, so the tree holds still for the final checks. */
async function stopSwapper(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once("exit", done));
  child.kill("SIGKILL");
  await exited;
}

/** Runs `attempt` repeatedly for `ms` milliseconds (at most `max` times). */
async function hammer(ms: number, max: number, attempt: (i: number) => Promise<void>) {
  const end = Date.now() + ms;
  for (let i = 0; i < max && Date.now() < end; i += 1) await attempt(i);
}

describe("check-then-use races: parallel tool calls of one model", () => {
  it("copy_file racing two move_file calls never writes through a shipped symlink", async () => {
    const { copy_file: copy, move_file: move } = tools();
    for (let round = 0; round < 120; round += 1) {
      const dir = join(root, `r${round}`);
      await mkdir(join(dir, "w"), { recursive: true });
      await mkdir(join(dir, "h"), { recursive: true });
      await writeFile(join(dir, "src"), `ssh-ed25519 AAAA attacker ${round}\n`);
      await symlink(join(outside, `authorized_keys_${round}`), join(dir, "h", "dst"));
      // The moves start a few event-loop turns after the copy (a model's parallel calls).
      const moves = async () => {
        for (let turn = 0; turn < round % 60; turn += 1) await new Promise(setImmediate);
        await Promise.all([
          move.run({ source: `r${round}/w`, destination: `r${round}/w_old` }),
          move.run({ source: `r${round}/h`, destination: `r${round}/w` }),
        ]);
      };
      await Promise.all([
        copy.run({ source: `r${round}/src`, destination: `r${round}/w/dst` }),
        moves(),
      ]);
    }
    expect(await readdir(outside)).toEqual([]);
  });
});

describe("check-then-use races: parallel tool calls, one interleaving forced", () => {
  // The copy is held exactly between the tool's checks (destination w/dst absent, w a directory
  // inside) and the seam's use of the path, while the two moves run. Without the workspace-wide
  // lock the moves complete in that gap (w is then the old h, whose dst is a shipped symlink) and a
  // copy by name writes through it; with it, the moves wait for the copy.
  it("copy_file held between check and use while w is moved away and h moved in", async () => {
    await mkdir(join(root, "w"));
    await mkdir(join(root, "h"));
    await writeFile(join(root, "src"), "ssh-ed25519 AAAA attacker\n");
    await symlink(join(outside, "authorized_keys"), join(root, "h", "dst"));
    const node = createNodeFileSystem({ root });
    let reachCopy = () => {};
    const copyReached = new Promise<void>((done) => {
      reachCopy = done;
    });
    let settleMoves = () => {};
    const movesSettled = new Promise<void>((done) => {
      settleMoves = done;
    });
    const held: FileSystem = Object.create(node);
    held.copy = async (source, destination) => {
      reachCopy();
      // Until the moves are done, or (held back by a lock) for half a second.
      await Promise.race([movesSettled, new Promise((done) => setTimeout(done, 500))]);
      return node.copy(source, destination);
    };
    const t = Object.fromEntries(
      createFsTools({ fileSystem: held, mode: "read-write" }).map((tool) => [tool.name, tool]),
    ) as Record<string, AnyTool>;
    const copying = (t.copy_file as AnyTool).run({ source: "src", destination: "w/dst" });
    await copyReached;
    // One after the other (run together, the second may find w still there).
    const moving = (async () => [
      await (t.move_file as AnyTool).run({ source: "w", destination: "w_old" }),
      await (t.move_file as AnyTool).run({ source: "h", destination: "w" }),
    ])().finally(settleMoves);
    const [copied, moved] = await Promise.all([copying, moving]);
    expect(await readdir(outside)).toEqual([]);
    expect([codeOf(copied), ...moved.map(codeOf)]).toEqual(["success", "success", "success"]);
    // The copy landed in the directory it checked, which was then moved aside.
    expect(await readFile(join(root, "w_old", "dst"), "utf8")).toContain("attacker");
    expect((await lstat(join(root, "w", "dst"))).isSymbolicLink()).toBe(true);
  });
});

describe("check-then-use races: a second process swapping a directory for a symlink", () => {
  it("read_file never returns an outside file", async () => {
    await mkdir(join(root, "d.real"));
    await writeFile(join(root, "d.real", "note.txt"), "INSIDE-CONTENT\n");
    await writeFile(join(outside, "note.txt"), "OUTSIDE-SECRET\n");
    const { read_file: read } = tools();
    await startSwapper("d", outside);
    let leaked = 0;
    let inside = 0;
    await hammer(3_000, 1_000_000, async () => {
      const result = await read.run({ path: "d/note.txt" });
      const text = JSON.stringify(result);
      if (text.includes("OUTSIDE-SECRET")) leaked += 1;
      if (text.includes("INSIDE-CONTENT")) inside += 1;
    });
    expect(leaked).toBe(0);
    expect(inside).toBeGreaterThan(0);
  });

  it("write_file never plants a file outside", async () => {
    await mkdir(join(root, "d.real"));
    const { write_file: write } = tools();
    const swapper = await startSwapper("d", outside);
    let written = 0;
    await hammer(3_000, 1_000_000, async (i) => {
      const result = await write.run({ path: `d/planted-${i}.txt`, content: "planted\n" });
      if (result.success) written += 1;
    });
    await stopSwapper(swapper);
    expect(await readdir(outside)).toEqual([]);
    expect(written).toBeGreaterThan(0);
    // Stopped mid-loop, the real directory sits at d.real or (renamed back) at d.
    const real = (await lstat(join(root, "d.real")).catch(() => undefined))?.isDirectory()
      ? "d.real"
      : "d";
    expect((await readdir(join(root, real))).some((name) => name.startsWith("planted-"))).toBe(
      true,
    );
  });

  it("recursive delete_file never deletes an outside file", async () => {
    const victims = 200;
    for (let i = 0; i < victims; i += 1) await writeFile(join(outside, `keep-${i}`), "x");
    await mkdir(join(outside, "deep"));
    await writeFile(join(outside, "deep", "keep"), "x");
    await mkdir(join(root, "d.real"));
    const { delete_file: remove } = tools();
    await startSwapper("d", outside);
    let deleted = 0;
    await hammer(3_000, 1_000_000, async () => {
      // A fresh tree each round (the swapper moves it between d and d.real).
      // Only through d.real, which is never a symlink (d may be one at any moment).
      await writeFile(join(root, "d.real", "a"), "a").catch(() => undefined);
      await mkdir(join(root, "d.real", "sub")).catch(() => undefined);
      await writeFile(join(root, "d.real", "sub", "c"), "c").catch(() => undefined);
      if (
        (await lstat(join(root, "d.real")).catch(() => undefined)) === undefined &&
        (await lstat(join(root, "d")).catch(() => undefined))?.isDirectory() !== true
      ) {
        await mkdir(join(root, "d.real")).catch(() => undefined);
      }
      const result = await remove.run({ path: "d", recursive: true });
      if (result.success) deleted += 1;
    });
    const left = await readdir(outside);
    expect(left.length).toBe(victims + 1);
    expect(await readdir(join(outside, "deep"))).toEqual(["keep"]);
    expect(deleted).toBeGreaterThan(0);
  });

  // rg follows a symlink given as its path argument: it must be started on the opened directory.
  it("grep_search {path} never returns outside lines", async () => {
    await mkdir(join(root, "d.real"));
    await writeFile(join(root, "d.real", "a.txt"), "needle inside\n");
    await writeFile(join(outside, "a.txt"), "needle OUTSIDE-SECRET\n");
    const { grep_search: grep } = tools();
    await startSwapper("d", outside);
    let leaked = 0;
    let found = 0;
    await hammer(3_000, 1_000_000, async () => {
      const result = await grep.run({ pattern: "needle", path: "d" });
      const text = JSON.stringify(result);
      if (text.includes("OUTSIDE-SECRET")) leaked += 1;
      if (text.includes("needle inside")) found += 1;
    });
    expect(leaked).toBe(0);
    expect(found).toBeGreaterThan(0);
  });

  it("grep_search {path: a file} never returns outside lines", async () => {
    await writeFile(join(root, "f.txt.real"), "needle inside\n");
    await writeFile(join(outside, "a.txt"), "needle OUTSIDE-SECRET\n");
    const { grep_search: grep } = tools();
    await startSwapper("f.txt", join(outside, "a.txt"));
    let leaked = 0;
    let found = 0;
    await hammer(3_000, 1_000_000, async () => {
      const result = await grep.run({ pattern: "needle", path: "f.txt" });
      const text = JSON.stringify(result);
      if (text.includes("OUTSIDE-SECRET")) leaked += 1;
      if (text.includes("needle inside")) found += 1;
    });
    expect(leaked).toBe(0);
    expect(found).toBeGreaterThan(0);
  });

  it("glob_search {path} never lists outside files", async () => {
    await mkdir(join(root, "d.real"));
    await writeFile(join(root, "d.real", "inside.txt"), "x\n");
    await writeFile(join(outside, "OUTSIDE-SECRET.txt"), "x\n");
    const { glob_search: glob } = tools();
    await startSwapper("d", outside);
    let leaked = 0;
    let found = 0;
    await hammer(3_000, 1_000_000, async () => {
      const result = await glob.run({ pattern: "**/*.txt", path: "d" });
      const text = JSON.stringify(result);
      if (text.includes("OUTSIDE-SECRET")) leaked += 1;
      if (text.includes("inside.txt")) found += 1;
    });
    expect(leaked).toBe(0);
    expect(found).toBeGreaterThan(0);
  });
});

describe("git's private directory", () => {
  it("refuses writes, copies, moves and deletes under .git at any depth and in any case", async () => {
    await mkdir(join(root, ".git", "hooks"), { recursive: true });
    await mkdir(join(root, "sub", ".GIT"), { recursive: true });
    await writeFile(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
    await writeFile(join(root, ".git", "index"), "index");
    await writeFile(join(root, ".git", "hooks", "pre-commit.sample"), "#!/bin/sh\necho pwned\n");
    await chmod(join(root, ".git", "hooks", "pre-commit.sample"), 0o755);
    await writeFile(join(root, "payload"), "[core]\n\tfsmonitor = touch /tmp/pwned\n");
    const before = await snapshot(join(root, ".git"));
    const t = tools();
    const attempts: Array<[string, Record<string, unknown>]> = [
      ["write_file", { path: ".git/commondir", content: "../../elsewhere\n" }],
      ["write_file", { path: ".git/hooks/pre-commit", content: "#!/bin/sh\n" }],
      ["write_file", { path: "sub/.GIT/config", content: "[core]\n" }],
      ["write_file", { path: ".Git/info/attributes", content: "* filter=x\n" }],
      [
        "copy_file",
        { source: ".git/hooks/pre-commit.sample", destination: ".git/hooks/pre-commit" },
      ],
      ["copy_file", { source: "payload", destination: ".git/config.d" }],
      ["move_file", { source: "payload", destination: ".git/commondir" }],
      ["move_file", { source: ".git/index", destination: "index.bak" }],
      ["delete_file", { path: ".git/index" }],
      ["delete_file", { path: ".git/hooks", recursive: true }],
      ["create_directory", { path: ".git/objects/info" }],
      ["edit_file", { path: ".git/HEAD", old_string: "main", new_string: "evil" }],
    ];
    for (const [name, input] of attempts) {
      const result = await (t[name] as AnyTool).run(input);
      expect([name, input, codeOf(result)]).toEqual([name, input, "BLOCKED"]);
      if (!result.success) expect(result.error.message).toMatch(/git's private|secret path/);
    }
    expect(await snapshot(join(root, ".git"))).toEqual(before);
    expect(await readdir(join(root, "sub", ".GIT"))).toEqual([]);
    expect(await readFile(join(root, "payload"), "utf8")).toContain("fsmonitor");
    // Reads stay allowed.
    expect(codeOf(await (t.read_file as AnyTool).run({ path: ".git/HEAD" }))).toBe("success");
  });
});

async function snapshot(directory: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(directory, { recursive: true })) {
    const info = await lstat(join(directory, entry));
    out.push(`${entry}:${info.mode}:${info.size}`);
  }
  return out.sort();
}

describe("hard-linked destinations", () => {
  it("copy_file, write_file and edit_file never write into an existing inode", async () => {
    const store = join(outside, "store-file.js");
    await writeFile(store, "module.exports = 'original';\n");
    await mkdir(join(root, "node_modules"));
    for (const name of ["a.js", "b.js", "c.js"])
      await link(store, join(root, "node_modules", name));
    await writeFile(join(root, "evil.js"), "module.exports = 'evil';\n");
    const t = tools();
    const copied = await (t.copy_file as AnyTool).run({
      source: "evil.js",
      destination: "node_modules/a.js",
      overwrite: true,
    });
    expect(codeOf(copied)).toBe("success");
    expect(
      codeOf(await (t.write_file as AnyTool).run({ path: "node_modules/b.js", content: "w\n" })),
    );
    await (t.read_file as AnyTool).run({ path: "node_modules/c.js" });
    const edited = await (t.edit_file as AnyTool).run({
      path: "node_modules/c.js",
      old_string: "original",
      new_string: "edited",
    });
    expect(codeOf(edited)).toBe("success");
    expect(await readFile(store, "utf8")).toBe("module.exports = 'original';\n");
    expect(await readFile(join(root, "node_modules", "a.js"), "utf8")).toContain("evil");
    expect(await readFile(join(root, "node_modules", "c.js"), "utf8")).toContain("edited");
    expect((await stat(store)).nlink).toBe(1);
  });
});

describe("FIFOs and devices", () => {
  it("answers promptly for a FIFO where a file is wanted, and fs keeps working", async () => {
    await run("mkfifo", [join(root, "pipe.md")]);
    await writeFile(join(root, "ok.md"), "# Fine\n\nSome words here.\n");
    const t = tools();
    const calls: Array<[string, Record<string, unknown>]> = [
      ["count_words", { path: "pipe.md" }],
      ["extract_toc", { path: "pipe.md" }],
      ["file_stats", { path: "pipe.md" }],
      ["copy_file", { source: "pipe.md", destination: "copy.md" }],
      ["read_file", { path: "pipe.md" }],
      ["count_words", { path: "pipe.md" }],
    ];
    const started = Date.now();
    const results = await Promise.all(
      calls.map(async ([name, input]) => {
        const result = await Promise.race([
          (t[name] as AnyTool).run(input),
          new Promise<"hung">((done) => setTimeout(() => done("hung"), 3_000).unref()),
        ]);
        return [name, result === "hung" ? "hung" : codeOf(result)];
      }),
    );
    expect(results).toEqual(calls.map(([name]) => [name, "UNSUPPORTED"]));
    const failure = await (t.read_file as AnyTool).run({ path: "pipe.md" });
    if (!failure.success) expect(failure.error.message).toMatch(/FIFO|not a regular file/i);
    const read = await (t.read_file as AnyTool).run({ path: "ok.md" });
    expect(codeOf(read)).toBe("success");
    // Directory walks skip it.
    const stats = await (t.file_stats as AnyTool).run({ path: "." });
    expect(codeOf(stats)).toBe("success");
    await mkdir(join(root, "dir"));
    await run("mkfifo", [join(root, "dir", "pipe")]);
    await writeFile(join(root, "dir", "a.md"), "a\n");
    const copyDir = await Promise.race([
      (t.copy_file as AnyTool).run({ source: "dir", destination: "dir2" }),
      new Promise<"hung">((done) => setTimeout(() => done("hung"), 3_000).unref()),
    ]);
    expect(copyDir === "hung" ? "hung" : codeOf(copyDir)).toBe("success");
    expect(await readdir(join(root, "dir2"))).toEqual(["a.md"]);
    expect(Date.now() - started).toBeLessThan(8_000);
  }, 20_000);
});
