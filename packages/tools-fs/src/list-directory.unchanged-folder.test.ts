import { appendFile, mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createListDirectoryTool, type ListDirectoryToolData } from "./list-directory.js";
import { useNodeWorkspace } from "./test-support/seams.js";
import type { Workspace } from "./workspace.js";

let root: string;
let workspace: Workspace;

useNodeWorkspace("agentool-list-unchanged-", (fixture) => {
  ({ root, workspace } = fixture);
});

/** Over the seam's settle time: a folder unchanged this long has its names remembered. */
const SETTLED_MS = 2_100;

describe("list_directory on a folder whose names the Node seam remembers", () => {
  it("shows every change on the next call: sizes, added, removed and renamed entries, hidden ones asked for, never a secret", async () => {
    const folder = join(root, "wide");
    await mkdir(folder);
    await mkdir(join(folder, "sub"));
    for (let index = 0; index < 600; index += 1) {
      await writeFile(
        join(folder, `entry-${String(index).padStart(3, "0")}.txt`),
        "x".repeat(index),
      );
    }
    await writeFile(join(folder, ".hidden"), "h");
    await writeFile(join(folder, ".env"), "KEY=1");
    await writeFile(join(folder, "id_rsa"), "PRIVATE");
    await writeFile(join(folder, ".gitignore"), "entry-599.txt\n");
    const tool = createListDirectoryTool({ workspace });
    const list = async (input: Record<string, unknown>) => {
      const result = await tool.run({ path: "wide", limit: 500, ...input });
      if (!result.success) throw new Error(JSON.stringify(result.error));
      return result.data as ListDirectoryToolData;
    };
    const names = (data: ListDirectoryToolData) => data.entries.map((entry) => entry.name);
    const sizeOf = (data: ListDirectoryToolData, name: string) =>
      data.entries.find((entry) => entry.name === name)?.size;
    await sleep(SETTLED_MS);

    const first = await list({});
    const second = await list({});
    expect(second).toEqual(first);
    expect(first.total).toBe(601);
    expect(first.skipped_hidden).toBe(2);
    expect(names(first).slice(0, 2)).toEqual(["sub", "entry-000.txt"]);
    expect(sizeOf(first, "entry-010.txt")).toBe(10);

    // A file grows without its folder changing: its size is read again on every call.
    await appendFile(join(folder, "entry-010.txt"), "more");
    expect(sizeOf(await list({}), "entry-010.txt")).toBe(14);

    // The hidden entry only when asked; the secrets never, whichever listing came first.
    const withHidden = await list({ include_hidden: true });
    expect(names(withHidden)).toContain(".hidden");
    expect(withHidden.total).toBe(603);
    expect(names(await list({}))).not.toContain(".hidden");
    for (const data of [first, withHidden]) {
      expect(names(data)).not.toContain(".env");
      expect(names(data)).not.toContain("id_rsa");
    }

    // The folder's ignore file is read on every call: rewritten in place (the folder unchanged),
    // its new rules apply at once.
    const ignoredOf = async () =>
      (await list({ limit: 5000 })).entries
        .filter((entry) => entry.ignored)
        .map((entry) => entry.name);
    expect(await ignoredOf()).toEqual(["entry-599.txt"]);
    await writeFile(join(folder, ".gitignore"), "entry-598.txt\n");
    expect(await ignoredOf()).toEqual(["entry-598.txt"]);

    // Added, removed and renamed entries, on the very next call.
    await writeFile(join(folder, "aaa-new.txt"), "new");
    await unlink(join(folder, "entry-000.txt"));
    await rename(join(folder, "entry-001.txt"), join(folder, "entry-zzz.txt"));
    const changed = await list({ limit: 5000 });
    expect(names(changed)).toContain("aaa-new.txt");
    expect(names(changed)).not.toContain("entry-000.txt");
    expect(names(changed)).not.toContain("entry-001.txt");
    expect(names(changed)).toContain("entry-zzz.txt");
    expect(changed.total).toBe(601);

    // Settled again after the changes: remembered again, and still right.
    await sleep(SETTLED_MS);
    expect(names(await list({}))).toContain("entry-002.txt");
    await unlink(join(folder, "entry-002.txt"));
    await mkdir(join(folder, "entry-002.txt"));
    const retyped = await list({});
    expect(retyped.entries.find((entry) => entry.name === "entry-002.txt")?.type).toBe("directory");
    expect(names(retyped).slice(0, 3)).toEqual(["entry-002.txt", "sub", "aaa-new.txt"]);
  }, 20_000);
});
