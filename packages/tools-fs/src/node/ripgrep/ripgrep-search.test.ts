import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DEFAULT_SECRET_PATHS, secretGlobAnywhere } from "@agentool/contract";
import { rgPath } from "@vscode/ripgrep";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGrepSearchTool } from "../../grep-search.js";
import type { SearchRequest } from "../../internal/search-types.js";
import { searchRequest as request } from "../../test-support/search-request.js";
import { createWorkspace } from "../../workspace.js";
import { createNodeFileSystem } from "../node-file-system.js";
import { createRipgrepLister, createRipgrepSearcher } from "./index.js";

let root: string;

/** rg processes whose command line contains `marker` (none once they are killed). */
function rgProcesses(marker: string): number[] {
  const output = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" });
  return output
    .split("\n")
    .filter((line) => line.includes(marker) && /\brg\b/.test(line) && !/\sZ/.test(line))
    .map((line) => Number.parseInt(line.trim(), 10));
}

async function waitFor(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "agentool-rg-"));
  const line = "match_me here is a line of text\n";
  for (let directory = 0; directory < 20; directory += 1) {
    await mkdir(join(root, "many", `d${directory}`), { recursive: true });
    for (let file = 0; file < 50; file += 1) {
      await writeFile(join(root, "many", `d${directory}`, `f${file}.txt`), line.repeat(200));
    }
  }
  execFileSync("mkfifo", [join(root, "blocking-fifo")]);
  await mkdir(join(root, ".cache"), { recursive: true });
  await writeFile(join(root, ".cache", "note.txt"), "only_in_the_hidden_dir\n");
  await writeFile(join(root, ".env"), "only_in_a_secret\n");
  await mkdir(join(root, "build"), { recursive: true });
  await writeFile(join(root, "build", "out.txt"), "only_in_build\n");
  await writeFile(join(root, ".gitignore"), "build/\n");
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("createRipgrepSearcher", () => {
  it("stops rg as soon as the cap is reached", async () => {
    const searcher = createRipgrepSearcher({ root });
    const started = performance.now();
    const outcome = await searcher.search(
      request({ pattern: "match_me", limit: 5 }),
      new AbortController().signal,
    );
    const elapsed = performance.now() - started;
    expect(outcome.files).toEqual([
      {
        path: "many/d0/f0.txt",
        count: 5,
        lines: [1, 2, 3, 4, 5].map((line) => ({
          line,
          text: "match_me here is a line of text",
          kind: "match",
        })),
      },
    ]);
    expect(outcome.total).toBeUndefined();
    expect(outcome.totalAtLeast).toBe(501);
    expect(elapsed).toBeLessThan(2_000);
    expect(rgProcesses("match_me")).toEqual([]);
    const full = await searcher.search(
      request({ pattern: "match_me", outputMode: "count", limit: 10_000 }),
      new AbortController().signal,
    );
    expect(full.files).toHaveLength(1_000);
    expect(full.files[0]).toEqual({ path: "many/d0/f0.txt", count: 200, lines: [] });
    expect(full.total).toBe(1_000);
    expect(full.totalMatches).toBe(200_000);
  });

  it("stops rows early too, keeping the first files in path order", async () => {
    const searcher = createRipgrepSearcher({ root });
    for (let run = 0; run < 5; run += 1) {
      const outcome = await searcher.search(
        request({ pattern: "match_me", outputMode: "files_with_matches", limit: 3, offset: 11 }),
        new AbortController().signal,
      );
      expect(outcome.files.map((file) => file.path)).toEqual([
        "many/d0/f18.txt",
        "many/d0/f19.txt",
        "many/d0/f2.txt",
      ]);
      expect(outcome.totalAtLeast).toBe(501);
    }
  });

  it("explains an empty result with at most one extra rg process", async () => {
    const log = join(root, "..", `rg-calls-${process.pid}-${Date.now()}.log`);
    const wrapper = join(root, "..", `rg-wrapper-${process.pid}-${Date.now()}.sh`);
    await writeFile(wrapper, `#!/bin/sh\necho run >> '${log}'\nexec '${rgPath}' "$@"\n`, {
      mode: 0o755,
    });
    const calls = async () =>
      (await readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean).length;
    const searcher = createRipgrepSearcher({ root, rgPath: wrapper });
    try {
      // Nothing hidden or ignored in many/: one process, no probe.
      const absent = await searcher.search(
        request({ pattern: "zzz_absent", path: "many", explainEmpty: true }),
        new AbortController().signal,
      );
      expect(absent.files).toEqual([]);
      expect(absent.total).toBe(0);
      expect(absent.searchedAnyFile).toBe(true);
      expect(absent.hiddenMatch).toBeUndefined();
      expect(await calls()).toBe(1);
      // Hidden and ignored entries exist at the root: one probe, into those only — in this
      // process for plain text, by a second rg for a regular expression; the same answers.
      const probes: Array<[string, string, string | undefined]> = [
        ["only_in_the_hidden_dir", "only_in_the_hidden_d.r", ".cache/note.txt"],
        ["only_in_a_secret", "only_in_a_secre[t]", undefined],
        ["only_in_build", "only_in_buil(d)", "build/out.txt"],
      ];
      for (const [text, expression, expected] of probes) {
        for (const pattern of [text, expression]) {
          const before = await calls();
          const outcome = await searcher.search(
            request({ pattern, explainEmpty: true }),
            new AbortController().signal,
          );
          expect({ pattern, total: outcome.total, hiddenMatch: outcome.hiddenMatch }).toEqual({
            pattern,
            total: 0,
            hiddenMatch: expected,
          });
          expect((await calls()) - before, pattern).toBe(pattern === text ? 1 : 2);
        }
      }
      // Files and count modes too.
      for (const outputMode of ["files_with_matches", "count"] as const) {
        const before = await calls();
        const rows = await searcher.search(
          request({ pattern: "zzz_absent", path: "many", outputMode, explainEmpty: true }),
          new AbortController().signal,
        );
        expect(rows.total).toBe(0);
        expect(rows.searchedAnyFile).toBe(true);
        expect((await calls()) - before).toBe(1);
      }
    } finally {
      await rm(log, { force: true });
      await rm(wrapper, { force: true });
    }
  });

  it("searches a path on the opened object with root-relative paths, globs and parent ignores", async () => {
    const base = await mkdtemp(join(tmpdir(), "agentool-rg-pinned-"));
    try {
      await writeFile(join(base, ".gitignore"), "*.log\nsub/gen/\n");
      await mkdir(join(base, "sub", "gen"), { recursive: true });
      await mkdir(join(base, "sub", "deep", ".hidden"), { recursive: true });
      await writeFile(join(base, "sub", "gen", "out.ts"), "pin_me generated\n");
      await writeFile(join(base, "sub", "a.log"), "pin_me log\n");
      await writeFile(join(base, "sub", "deep", ".hidden", "h.ts"), "pin_only_hidden\n");
      for (const name of ["b.ts", "a.ts", "c.md"])
        await writeFile(join(base, "sub", "deep", name), `pin_me ${name}\n`);
      await writeFile(join(base, "sub", "deep", ".env"), "pin_me secret\n");
      const searcher = createRipgrepSearcher({ root: base });
      const signal = new AbortController().signal;
      const all = await searcher.search(request({ pattern: "pin_me", path: "sub" }), signal);
      // The parent .gitignore (above the searched directory) is honoured; paths are root-relative.
      expect(all.files.map((file) => file.path)).toEqual([
        "sub/deep/a.ts",
        "sub/deep/b.ts",
        "sub/deep/c.md",
      ]);
      const globbed = await searcher.search(
        request({ pattern: "pin_me", path: "sub", glob: "sub/deep/*.ts" }),
        signal,
      );
      expect(globbed.files.map((file) => file.path)).toEqual(["sub/deep/a.ts", "sub/deep/b.ts"]);
      // Paging past the budget (second pass, --sort=path) keeps the root-relative order.
      const paged = await searcher.search(
        request({
          pattern: "pin_me",
          path: "sub/deep",
          outputMode: "files_with_matches",
          limit: 1,
          offset: 2,
        }),
        signal,
      );
      expect(paged.files.map((file) => file.path)).toEqual(["sub/deep/b.ts"]);
      const probed = await searcher.search(
        request({ pattern: "pin_only_hidden", path: "sub", explainEmpty: true }),
        signal,
      );
      expect(probed.total).toBe(0);
      expect(probed.hiddenMatch).toBe("sub/deep/.hidden/h.ts");
      const one = await searcher.search(
        request({ pattern: "pin_me", path: "sub/deep/b.ts", pathType: "file" }),
        signal,
      );
      expect(one.files.map((file) => [file.path, file.lines[0]?.text])).toEqual([
        ["sub/deep/b.ts", "pin_me b.ts"],
      ]);
      const lister = createRipgrepLister({ root: base });
      const listed = await lister.list(
        { ...request({ path: "sub" }), glob: "**/*.ts", limit: 10 },
        signal,
      );
      expect(listed.files.map((file) => file.path).sort()).toEqual([
        "sub/deep/a.ts",
        "sub/deep/b.ts",
      ]);
      expect(listed.files.every((file) => file.modifiedMs > 0)).toBe(true);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it("kills rg (its process group) on abort, leaving no orphan", async () => {
    const marker = `abort_marker_${process.pid}_${Date.now()}`;
    const searcher = createRipgrepSearcher({ root });
    const controller = new AbortController();
    const pending = searcher.search(
      request({ pattern: marker, path: "blocking-fifo", pathType: "file" }),
      controller.signal,
    );
    await waitFor(() => rgProcesses(marker).length === 1);
    const [pid] = rgProcesses(marker);
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
    await waitFor(() => rgProcesses(marker).length === 0);
    // Node reaps the killed child; then the pid no longer exists at all (no zombie either).
    await waitFor(() => {
      try {
        process.kill(pid as number, 0);
        return false;
      } catch {
        return true;
      }
    });
  });

  it("kills rg when the tool times out", async () => {
    const marker = `timeout_marker_${process.pid}_${Date.now()}`;
    const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
    const tool = createGrepSearchTool({ workspace, searcher: createRipgrepSearcher({ root }) });
    const result = await tool.run({ pattern: marker, path: "blocking-fifo" }, { timeoutMs: 300 });
    expect(result.success ? "ok" : result.error.code).toBe("TIMEOUT");
    await waitFor(() => rgProcesses(marker).length === 0);
  });

  it("reports DEPENDENCY_MISSING when rg cannot start", async () => {
    const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
    const searcher = createRipgrepSearcher({ root, rgPath: join(root, "no-such-rg") });
    const result = await createGrepSearchTool({ workspace, searcher }).run({ pattern: "x" });
    expect(result.success ? "ok" : result.error.code).toBe("DEPENDENCY_MISSING");
  });
});

describe("createRipgrepLister", () => {
  it("lists files newest first and counts the rest", async () => {
    const lister = createRipgrepLister({ root });
    const outcome = await lister.list(
      { ...request({}), glob: "many/d1/*.txt", limit: 10 },
      new AbortController().signal,
    );
    expect(outcome.files).toHaveLength(10);
    expect(outcome.total).toBe(50);
    const times = outcome.files.map((file) => file.modifiedMs);
    expect([...times].sort((left, right) => right - left)).toEqual(times);
    const last = await lister.list(
      { ...request({}), glob: "many/d1/*.txt", limit: 10, offset: 41 },
      new AbortController().signal,
    );
    expect(last.files).toHaveLength(10);
    expect(last.total).toBe(50);
    expect(last.files.some((file) => outcome.files.some((seen) => seen.path === file.path))).toBe(
      false,
    );
  });
});

/** One rg process a {@link loggedRipgrep} wrapper saw: its working directory, arguments, rules. */
interface LoggedRun {
  cwd: string;
  args: string[];
  /** The lines of every `--ignore-file` it was given. */
  rules: string[];
}

/**
 * An `rg` wrapper script that logs each process (real working directory, arguments, the rules
 * of its ignore files) before running the real rg, and a reader of that log.
 */
async function loggedRipgrep(
  base: string,
): Promise<{ path: string; runs(): Promise<LoggedRun[]> }> {
  const log = join(base, `rg-runs-${process.pid}-${Date.now()}.log`);
  const path = join(base, `rg-logged-${process.pid}-${Date.now()}.sh`);
  await writeFile(
    path,
    [
      "#!/bin/sh",
      "{",
      "  printf 'run\\t%s' \"$(pwd -P)\"",
      '  for a in "$@"; do printf \'\\t%s\' "$a"; done',
      "  printf '\\n'",
      "  prev=",
      '  for a in "$@"; do',
      '    if [ "$prev" = --ignore-file ]; then sed \'s/^/rule\t/\' "$a"; fi',
      "    prev=$a",
      "  done",
      `} >> '${log}'`,
      `exec '${rgPath}' "$@"`,
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  return {
    path,
    async runs() {
      const runs: LoggedRun[] = [];
      for (const line of (await readFile(log, "utf8").catch(() => "")).split("\n")) {
        const [kind, first, ...rest] = line.split("\t");
        if (kind === "run") runs.push({ cwd: first ?? "", args: rest, rules: [] });
        else if (kind === "rule") runs[runs.length - 1]?.rules.push(first ?? "");
      }
      return runs;
    },
  };
}

describe("createRipgrepSearcher: why an empty result is empty", () => {
  let base: string;
  let probeRoot: string;
  const signal = new AbortController().signal;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "agentool-rg-empty-"));
    probeRoot = join(base, "root");
    const files: Record<string, string> = {
      "src/a.ts": "plain_visible_word\n",
      "src/b.md": "markdown_text\n",
      ".cache/hit.txt": "only_hidden_text\n",
      ".tool.ts": "only_hidden_ts\n",
      ".eslintrc": "only_in_eslintrc\n",
      "build/out.js": "only_ignored_text\n",
      "logs/debug.log": "only_ignored_log\n",
      "logs/keep.txt": "kept_log_dir\n",
      "deep/visible/.hidden-deep/x.txt": "deep_hidden_text\n",
      "deep/visible/y.txt": "deep_visible_text\n",
      ".gitignore": "build/\n*.log\n",
      ".env": "only_secret_text\n",
    };
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(probeRoot, path)), { recursive: true });
      await writeFile(join(probeRoot, path), content);
    }
    await mkdir(join(base, "outside"));
    await writeFile(join(base, "outside", "leak.txt"), "only_outside_text\n");
    await symlink(join(base, "outside"), join(probeRoot, ".link"));
    await symlink(join(base, "outside", "leak.txt"), join(probeRoot, ".link-file"));
    await symlink(join(base, "outside"), join(probeRoot, "deep", "visible", ".link"));
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("tells absent from hidden from ignored from glob matched nothing, one probe into the skipped entries only", async () => {
    const rg = await loggedRipgrep(base);
    const searcher = createRipgrepSearcher({ root: probeRoot, rgPath: rg.path });
    const explain = (overrides: Partial<SearchRequest>) =>
      searcher.search(request({ explainEmpty: true, ...overrides }), signal);

    // Absent (a regular expression: rg probes): one search, then one probe whose walk reaches
    // only what the search skipped.
    const absent = await explain({ pattern: "zzz_absent_t.xt" });
    expect(absent).toMatchObject({ files: [], total: 0, searchedAnyFile: true });
    expect(absent.hiddenMatch).toBeUndefined();
    const [search, probe, ...more] = await rg.runs();
    expect(more).toEqual([]);
    expect(search?.args).toContain("--debug");
    expect(search?.args).not.toContain("--hidden");
    expect(probe?.args).toEqual(expect.arrayContaining(["--hidden", "--no-ignore", "--threads=1"]));
    // The probe is handed the scope, never an entry by name (a name would be followed if a symlink).
    expect(probe?.args.slice(probe.args.indexOf("--") + 1)).toEqual(["."]);
    expect(probe?.rules).toEqual(
      expect.arrayContaining(["/*", "!/.cache", "!/build", "!/.gitignore", "!/.tool.ts"]),
    );
    expect(probe?.rules).toEqual(
      expect.arrayContaining(["/logs/*", "!/logs/", "!/logs/debug.log"]),
    );
    expect(probe?.rules).toEqual(
      expect.arrayContaining(["/deep/visible/*", "!/deep/visible/.hidden-deep"]),
    );
    for (const visibleEntry of ["!/src", "!/src/", "!/logs/keep.txt", "!/deep/visible/y.txt"])
      expect(probe?.rules).not.toContain(visibleEntry);
    // Secrets and .git are never entries.
    expect(probe?.rules.some((rule) => rule.includes(".env"))).toBe(false);

    // Absent as plain text: the same entries searched here, no second process.
    const before = (await rg.runs()).length;
    expect((await explain({ pattern: "zzz_absent_text" })).hiddenMatch).toBeUndefined();
    expect((await rg.runs()).length - before).toBe(1);

    // Only in hidden or ignored files: the one matching file, hidden or ignored, at any depth —
    // plain text found here (one process), a regular expression by the rg probe (two), alike.
    const expectations: Array<[string, string]> = [
      ["only_hidden_text", ".cache/hit.txt"],
      ["only_hidden_ts", ".tool.ts"],
      ["only_ignored_text", "build/out.js"],
      ["only_ignored_log", "logs/debug.log"],
      ["deep_hidden_text", "deep/visible/.hidden-deep/x.txt"],
    ];
    for (const [text, path] of expectations) {
      for (const [pattern, runs] of [
        [text, 1],
        [text.replace("_", "."), 2],
        [text.toUpperCase(), 1],
      ] as const) {
        const before = (await rg.runs()).length;
        const outcome = await explain({ pattern, ignoreCase: pattern !== text.toLowerCase() });
        expect({ pattern, total: outcome.total, hiddenMatch: outcome.hiddenMatch }).toEqual({
          pattern,
          total: 0,
          hiddenMatch: path,
        });
        expect((await rg.runs()).length - before, pattern).toBe(runs);
      }
    }
    // Without ignoring case, other letter case is absent (plain text, searched here).
    expect(
      (await explain({ pattern: "ONLY_HIDDEN_TEXT", ignoreCase: false })).hiddenMatch,
    ).toBeUndefined();
    // A secret is never searched, not even to explain an empty result.
    for (const pattern of ["only_secret_text", "only_secret_t.xt"])
      expect((await explain({ pattern })).hiddenMatch, pattern).toBeUndefined();

    // The glob matched nothing: no file searched, nothing hidden or ignored that the glob matches.
    const noFile = await explain({ pattern: "plain_visible_word", glob: "*.nope" });
    expect(noFile).toMatchObject({ files: [], total: 0, searchedAnyFile: false });
    expect(noFile.hiddenMatch).toBeUndefined();
    // With a glob, the probe applies it to hidden and ignored files too (rg decides).
    const byGlob: Array<[string, string, string | undefined]> = [
      ["*.ts", "only_hidden_ts", ".tool.ts"],
      ["*.ts", "only_in_eslintrc", undefined],
      ["*.txt", "only_hidden_text", ".cache/hit.txt"],
      ["*.md", "only_hidden_text", undefined],
      ["build/**", "only_ignored_text", "build/out.js"],
      ["**/*.log", "only_ignored_log", "logs/debug.log"],
      ["!*.js", "only_ignored_text", undefined],
    ];
    for (const [glob, pattern, path] of byGlob) {
      const before = (await rg.runs()).length;
      const outcome = await explain({ pattern, glob });
      expect({ glob, pattern, total: outcome.total, hiddenMatch: outcome.hiddenMatch }).toEqual({
        glob,
        pattern,
        total: 0,
        hiddenMatch: path,
      });
      // rg would log every file the glob leaves out (dozens of writes each): no --debug then.
      const [globSearch, globProbe, ...rest] = (await rg.runs()).slice(before);
      expect(rest).toEqual([]);
      expect(globSearch?.args).not.toContain("--debug");
      expect(globProbe?.args.slice(globProbe.args.indexOf("--") + 1)).toEqual(["."]);
    }
  });

  it("leaves to the rg probe what only rg reads right (UTF-16, binary), with rg's answer", async () => {
    const other = join(base, "transcoded");
    await mkdir(join(other, ".cache"), { recursive: true });
    await writeFile(join(other, "visible.txt"), "nothing here\n");
    await writeFile(
      join(other, ".cache", "wide.txt"),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("wide_only_text\n", "utf16le")]),
    );
    await mkdir(join(other, ".bin"));
    await writeFile(
      join(other, ".bin", "blob.bin"),
      Buffer.concat([Buffer.from([0, 0, 0, 1]), Buffer.from("\nbinary_only_text\n")]),
    );
    const rg = await loggedRipgrep(base);
    const searcher = createRipgrepSearcher({ root: other, rgPath: rg.path });
    // rg transcodes UTF-16 (the text is found); it skips a file that starts binary (not found).
    for (const [pattern, expected] of [
      ["wide_only_text", ".cache/wide.txt"],
      ["binary_only_text", undefined],
    ] as const) {
      const before = (await rg.runs()).length;
      const outcome = await searcher.search(request({ pattern, explainEmpty: true }), signal);
      expect({ pattern, hiddenMatch: outcome.hiddenMatch }).toEqual({
        pattern,
        hiddenMatch: expected,
      });
      expect((await rg.runs()).length - before, pattern).toBe(2);
    }
  });

  it("is not led outside the root or into .git by a file name that forges rg's log", async () => {
    // A name with a line break prints a second "ignoring …" line in rg's --debug log.
    const forged = (path: string) => `\nrg: DEBUG|ignore::walk|x: ignoring ${path}`;
    const outside = join(base, "forged");
    const forgedRoot = join(outside, "root");
    await mkdir(join(forgedRoot, ".git"), { recursive: true });
    await writeFile(join(outside, "beside-the-root.txt"), "token_beside_root\n");
    await writeFile(join(forgedRoot, "visible.txt"), "nothing\n");
    await writeFile(join(forgedRoot, `p${forged("..")}`), "x\n");
    await writeFile(join(forgedRoot, ".git", "description"), "token_in_git\n");
    await mkdir(join(forgedRoot, `d${forged(".git")}`));
    await writeFile(join(forgedRoot, `d${forged(".git")}`, "description"), "x\n");
    await writeFile(join(forgedRoot, ".gitignore"), "p*\ndescription\n");
    const searcher = createRipgrepSearcher({ root: forgedRoot });
    for (const pattern of [
      "token_beside_root",
      "token_beside_r.ot",
      "token_in_git",
      "token_in_g.t",
    ]) {
      const outcome = await searcher.search(request({ pattern, explainEmpty: true }), signal);
      expect({ pattern, total: outcome.total, hiddenMatch: outcome.hiddenMatch }).toEqual({
        pattern,
        total: 0,
        hiddenMatch: undefined,
      });
    }
  });

  it("spawns no probe when nothing was skipped, or when the pattern is found", async () => {
    const rg = await loggedRipgrep(base);
    const searcher = createRipgrepSearcher({ root: probeRoot, rgPath: rg.path });
    const absent = await searcher.search(
      request({ pattern: "zzz_absent_text", path: "src", explainEmpty: true }),
      signal,
    );
    expect(absent).toMatchObject({ files: [], total: 0, searchedAnyFile: true });
    expect(await rg.runs()).toHaveLength(1);
    const found = await searcher.search(
      request({ pattern: "plain_visible_word", explainEmpty: true }),
      signal,
    );
    expect(found.files.map((file) => file.path)).toEqual(["src/a.ts"]);
    expect(await rg.runs()).toHaveLength(2);
  });

  it("never follows a symlink while probing hidden and ignored entries", async () => {
    const searcher = createRipgrepSearcher({ root: probeRoot });
    for (const overrides of [
      {},
      { glob: "*.txt" },
      { glob: "**" },
      { path: "deep", pathType: "directory" as const },
      { path: "deep", glob: "deep/**" },
    ]) {
      const outcome = await searcher.search(
        request({ pattern: "only_outside_text", explainEmpty: true, ...overrides }),
        signal,
      );
      expect({ overrides, files: outcome.files, hiddenMatch: outcome.hiddenMatch }).toEqual({
        overrides,
        files: [],
        hiddenMatch: undefined,
      });
    }
  });

  it("searches a directory from inside it unless a glob is anchored, with the same paths", async () => {
    const rg = await loggedRipgrep(base);
    const searcher = createRipgrepSearcher({ root: probeRoot, rgPath: rg.path });
    const inside = await searcher.search(
      request({ pattern: "deep_visible_text|deep_hidden_text", path: "deep" }),
      signal,
    );
    expect(inside.files.map((file) => file.path)).toEqual(["deep/visible/y.txt"]);
    const anchored = await searcher.search(
      request({
        pattern: "deep_visible_text|deep_hidden_text",
        path: "deep",
        glob: "deep/visible/*.txt",
      }),
      signal,
    );
    expect(anchored.files.map((file) => file.path)).toEqual(["deep/visible/y.txt"]);
    const hidden = await searcher.search(
      request({ pattern: "deep_hidden_text", path: "deep", glob: "deep/**", explainEmpty: true }),
      signal,
    );
    expect(hidden.hiddenMatch).toBe("deep/visible/.hidden-deep/x.txt");
    const runs = await rg.runs();
    const scopeDirectory = await realpath(join(probeRoot, "deep"));
    // No anchored glob: rg runs in the pinned directory itself and searches ".".
    expect(runs[0]?.cwd).toBe(scopeDirectory);
    expect(runs[0]?.args.at(-1)).toBe(".");
    // An anchored glob: rg runs in a private mirror where "deep" names the pinned directory.
    expect(runs[1]?.cwd).not.toBe(scopeDirectory);
    expect(runs[1]?.args.at(-1)).toBe("deep");
    // The probe of a glob search walks the scope from the mirror too, with the glob's rules.
    expect(runs.at(-1)?.rules).toEqual(["*", "!*/", "!deep/**"]);
    expect(runs.at(-1)?.args.at(-1)).toBe("deep");
    // The lister runs the same way.
    const lister = createRipgrepLister({ root: probeRoot, rgPath: rg.path });
    for (const glob of ["*.txt", "deep/**/*.txt"]) {
      const listed = await lister.list({ ...request({ path: "deep" }), glob, limit: 10 }, signal);
      expect(listed.files.map((file) => file.path)).toEqual(["deep/visible/y.txt"]);
    }
    const [listedInside, listedAnchored] = (await rg.runs()).slice(-2);
    expect(listedInside?.cwd).toBe(scopeDirectory);
    expect(listedAnchored?.cwd).not.toBe(scopeDirectory);
  });

  it("keeps every default secret path out of rg itself, with one combined glob", async () => {
    const secrets = join(base, "secrets");
    const samples = new Set<string>();
    for (const secret of DEFAULT_SECRET_PATHS) {
      const body = secretGlobAnywhere(secret).replace(/^\*\*\//, "");
      const sample = body.replace(/\*\*/g, "x/y").replace(/\*/g, "q");
      for (const variant of [sample, sample.toUpperCase()]) {
        samples.add(`top/${variant}`);
        samples.add(`nested/a/${variant}`);
        samples.add(`inside/${variant}/inner.txt`);
      }
    }
    for (const sample of samples) {
      await mkdir(dirname(join(secrets, sample)), { recursive: true }).catch(() => undefined);
      await writeFile(join(secrets, sample), "secret_marker\n").catch(() => undefined);
    }
    await writeFile(join(secrets, "plain.txt"), "secret_marker\n");
    const rg = await loggedRipgrep(base);
    const searcher = createRipgrepSearcher({ root: secrets, rgPath: rg.path });
    // The path check after rg is switched off: only rg's own exclusion keeps secrets out.
    const noCheck = {
      isSecret: () => false,
      pattern: "secret_marker",
      outputMode: "files_with_matches" as const,
    };
    for (const overrides of [{}, { path: "nested", pathType: "directory" as const }]) {
      const found = await searcher.search(request({ ...noCheck, ...overrides }), signal);
      expect(found.files.map((file) => file.path)).toEqual(
        overrides.path === undefined ? ["plain.txt"] : [],
      );
    }
    const probed = await searcher.search(
      request({ ...noCheck, pattern: "no_such_marker|secret_marker_x", explainEmpty: true }),
      signal,
    );
    expect(probed.hiddenMatch).toBeUndefined();
    const [first] = await rg.runs();
    expect(first?.args.filter((arg) => arg === "--iglob")).toHaveLength(1);
  });
});
