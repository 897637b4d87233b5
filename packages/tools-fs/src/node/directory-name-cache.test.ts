import { mkdir, mkdtemp, rename, rm, symlink, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DirectoryNameCache } from "./directory-name-cache.js";
import { createNodeFileSystem } from "./node-file-system.js";

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "agentool-name-cache-"));
  await writeFile(join(folder, "a.txt"), "a");
  await writeFile(join(folder, "b.txt"), "b");
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Past the kernel's coarse clock tick, so a change gets a new timestamp. */
const tick = () => sleep(30);

describe("DirectoryNameCache", () => {
  it("hands back the remembered entries while the stamp is unchanged", async () => {
    const cache = new DirectoryNameCache(0);
    await tick();
    const stamp = cache.stampOf(folder);
    expect(stamp).toBeDefined();
    const handedOut = cache.set("dir", stamp as string, [
      { name: "a.txt", type: "file" },
      { name: "b.txt", type: "file" },
    ]);
    const again = cache.get("dir", cache.stampOf(folder) as string);
    expect(again).toEqual(handedOut);
    // The same entry objects, in a new array (a caller may sort its copy).
    expect(again?.[0]).toBe(handedOut[0]);
    expect(again).not.toBe(handedOut);
  });

  it("forgets a directory once an entry is added, removed, renamed or turned into a link", async () => {
    const changes: Array<() => Promise<void>> = [
      () => writeFile(join(folder, "c.txt"), "c"),
      () => unlink(join(folder, "a.txt")),
      () => rename(join(folder, "a.txt"), join(folder, "z.txt")),
      async () => {
        await unlink(join(folder, "b.txt"));
        await symlink("a.txt", join(folder, "b.txt"));
      },
      () => mkdir(join(folder, "sub")),
    ];
    for (const [index, change] of changes.entries()) {
      await rm(folder, { recursive: true });
      await mkdir(folder);
      await writeFile(join(folder, "a.txt"), "a");
      await writeFile(join(folder, "b.txt"), "b");
      const cache = new DirectoryNameCache(0);
      await tick();
      const stamp = cache.stampOf(folder) as string;
      cache.set("dir", stamp, [{ name: "a.txt", type: "file" }]);
      await tick();
      await change();
      const now = cache.stampOf(folder);
      expect(now, `change ${index}`).not.toBe(stamp);
      expect(cache.get("dir", now as string), `change ${index}`).toBeUndefined();
      // Forgotten, not only missed: the old stamp no longer answers either.
      expect(cache.get("dir", stamp), `change ${index}`).toBeUndefined();
    }
  });

  it("gives no stamp for a directory changed within the settle time (a change in the same clock tick would keep its stamp)", async () => {
    const cache = new DirectoryNameCache();
    await writeFile(join(folder, "new.txt"), "n");
    expect(cache.stampOf(folder)).toBeUndefined();
  });

  it("keeps at most 64 directories, forgetting the least recently used", async () => {
    const cache = new DirectoryNameCache(0);
    const entries = () => [{ name: "x", type: "file" as const }];
    for (let index = 0; index < 65; index += 1) cache.set(`dir-${index}`, "stamp", entries());
    expect(cache.get("dir-0", "stamp")).toBeUndefined();
    expect(cache.get("dir-1", "stamp")).toBeDefined();
    // dir-1 was just used: dir-2 goes first now.
    cache.set("dir-65", "stamp", entries());
    expect(cache.get("dir-1", "stamp")).toBeDefined();
    expect(cache.get("dir-2", "stamp")).toBeUndefined();
  });

  it("does not keep a listing larger than its whole budget", () => {
    const cache = new DirectoryNameCache(0);
    const huge = Array.from({ length: 200_001 }, (_, index) => ({
      name: `f-${index}`,
      type: "file" as const,
    }));
    expect(cache.set("huge", "stamp", huge)).toBe(huge);
    expect(cache.get("huge", "stamp")).toBeUndefined();
  });

  it("reads a listing again once it is a minute old, whatever its stamp", async () => {
    const cache = new DirectoryNameCache(0);
    cache.set("dir", "stamp", [{ name: "a.txt", type: "file" }]);
    expect(cache.get("dir", "stamp")).toBeDefined();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect(cache.get("dir", "stamp")).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not keep listings past its budget of name characters", () => {
    const cache = new DirectoryNameCache(0);
    const long = (prefix: string) =>
      Array.from({ length: 40_000 }, (_, index) => ({
        name: `${prefix}-${String(index).padStart(6, "0")}-${"x".repeat(100)}`,
        type: "file" as const,
      }));
    // 40,000 names of ~110 characters: 4.4 M each; two fit in the 8 M budget only one at a time.
    cache.set("one", "stamp", long("one"));
    cache.set("two", "stamp", long("two"));
    expect(cache.get("one", "stamp")).toBeUndefined();
    expect(cache.get("two", "stamp")).toBeDefined();
  });

  it("never trusts procfs, whose directories keep their times while their entries change", async () => {
    const cache = new DirectoryNameCache(0);
    expect(cache.stampOf("/proc/self/fd")).toBeUndefined();
    // Through the seam: the process's open descriptors, listed, then listed again after opening
    // more (the folder's times unchanged): the new ones are there.
    const seam = createNodeFileSystem({ root: "/proc/self" });
    await sleep(2_100);
    const before = (await seam.readDirectoryNames?.("fd"))?.map((entry) => entry.name) ?? [];
    const { open } = await import("node:fs/promises");
    const handles = await Promise.all(
      Array.from({ length: 3 }, () => open(join(folder, "a.txt"), "r")),
    );
    try {
      const after = (await seam.readDirectoryNames?.("fd"))?.map((entry) => entry.name) ?? [];
      for (const handle of handles) expect(after).toContain(String(handle.fd));
      expect(after.length).toBeGreaterThanOrEqual(before.length + 3);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
    }
  }, 10_000);
});
