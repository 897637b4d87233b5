// The directory saver inside a git repository: the save folder it creates carries a `.gitignore`
// of `*`, so fetched pages never show in `git status` and a commit of everything leaves them out
// (and an `.ignore` of `!*`, so ripgrep-based searches still see them); a folder that already
// existed is the user's and gets no ignore file.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "@agentool/contract";
import { afterAll, describe, expect, it } from "vitest";
import type { FetchedDocument } from "../web-fetch.js";
import { createDirectorySaver } from "./directory-saver.js";

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(
    directories.map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

/** A fresh git repository with one committed file. */
async function repository(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "agentool-saver-"));
  directories.push(directory);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
      cwd: directory,
    });
  git("init", "-q");
  git("commit", "-q", "--allow-empty", "-m", "start");
  return directory;
}

function status(directory: string): string {
  return execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], {
    cwd: directory,
    encoding: "utf8",
  });
}

const context = {} as ToolContext;

const PAGE: FetchedDocument = {
  url: "https://example.com/docs/intro",
  final_url: "https://example.com/docs/intro",
  title: "Intro",
  content_type: "text/html",
  kind: "html",
  text: "# Intro\n\nHello.",
  main_content: true,
  body_truncated: false,
  fetched: "2026-01-01T00:00:00.000Z",
};

describe("createDirectorySaver in a git repository", () => {
  it("writes a .gitignore of * into the folder it creates: git status lists no saved page", async () => {
    const root = await repository();
    const save = createDirectorySaver(join(root, "web-pages"));
    expect(await save(PAGE, context)).toBe("example.com-docs-intro.md");
    expect(await readFile(join(root, "web-pages", ".gitignore"), "utf8")).toMatch(/^\*$/m);
    // ripgrep (and the fs family) read .ignore before .gitignore: the pages stay searchable.
    expect(await readFile(join(root, "web-pages", ".ignore"), "utf8")).toMatch(/^!\*$/m);
    expect(await save({ ...PAGE, url: "https://example.com/b", final_url: "x" }, context)).toBe(
      "example.com-b.md",
    );
    expect(status(root)).toBe("");
    execFileSync("git", ["add", "--all"], { cwd: root });
    expect(execFileSync("git", ["diff", "--cached", "--name-only"], { cwd: root }).toString()).toBe(
      "",
    );
  });

  it("leaves a folder that already existed without an ignore file (the user's own folder)", async () => {
    const root = await repository();
    await mkdir(join(root, "sources"));
    await createDirectorySaver(join(root, "sources"))(PAGE, context);
    expect(await readdir(join(root, "sources"))).toEqual(["example.com-docs-intro.md"]);
    expect(status(root)).toBe("?? sources/example.com-docs-intro.md\n");
  });
});
