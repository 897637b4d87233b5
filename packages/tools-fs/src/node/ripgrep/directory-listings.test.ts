import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SearchScope } from "../../internal/search-types.js";
import { listDirectory } from "./directory-listings.js";
import { inspectIgnoreFiles } from "./inspect-ignore-files.js";

const WANTED = new Set([".git", ".gitignore", ".ignore", ".rgignore"]);
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function directory(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "agentool-listings-")));
  roots.push(root);
  return root;
}

/** Dates a directory an hour back, so its listing is remembered. */
function settle(path: string): void {
  const past = new Date(Date.now() - 3_600_000);
  utimesSync(path, past, past);
}

describe("listDirectory", () => {
  it("sees an ignore file added after the listing was remembered", () => {
    const root = directory();
    mkdirSync(join(root, "src"));
    settle(root);
    expect(listDirectory(root, WANTED)?.present.has(".gitignore")).toBe(false);
    writeFileSync(join(root, ".gitignore"), "build/\n");
    const listing = listDirectory(root, WANTED);
    expect(listing?.present.has(".gitignore")).toBe(true);
    expect(listing?.subdirectories).toEqual(["src"]);
  });

  it("sees a change even when the modification time is put back (the ctime moves)", () => {
    const root = directory();
    settle(root);
    expect(listDirectory(root, WANTED)?.present.size).toBe(0);
    writeFileSync(join(root, ".ignore"), "*.log\n");
    settle(root);
    expect(listDirectory(root, WANTED)?.present.has(".ignore")).toBe(true);
  });

  it("never remembers a directory changed within the last seconds", () => {
    const root = directory();
    expect(listDirectory(root, WANTED)?.subdirectories).toEqual([]);
    mkdirSync(join(root, "new"));
    expect(listDirectory(root, WANTED)?.subdirectories).toEqual(["new"]);
  });

  it("reports .git only as a directory, and nothing for a folder that cannot be read", () => {
    const root = directory();
    writeFileSync(join(root, ".git"), "gitdir: elsewhere\n");
    expect(listDirectory(root, WANTED)?.present.has(".git")).toBe(false);
    expect(listDirectory(join(root, "missing"), WANTED)).toBeUndefined();
  });
});

describe("the ignore-file check with remembered listings", () => {
  it("still finds an ignore file turned into a link after an earlier search", async () => {
    const root = directory();
    const module = join(root, "module");
    mkdirSync(module);
    writeFileSync(join(module, ".gitignore"), "out/\n");
    settle(module);
    settle(root);
    const scope: SearchScope = {
      path: "",
      pathType: "directory",
      glob: undefined,
      includeHiddenAndIgnored: false,
      isSecret: () => false,
      secretGlobs: [],
    };
    const signal = new AbortController().signal;
    expect((await inspectIgnoreFiles(root, scope, signal)).unsafe).toEqual([]);
    rmSync(join(module, ".gitignore"));
    symlinkSync("/dev/zero", join(module, ".gitignore"));
    const second = await inspectIgnoreFiles(root, scope, signal);
    expect(second.unsafe).toHaveLength(1);
    expect(second.unsafe[0]).toContain("module/.gitignore");
  });
});
