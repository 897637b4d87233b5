import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { walkCorpus } from "./corpus-walk.js";

const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folderOf(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "agentool-walk-")));
  folders.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const walk = (root: string, extensions = [".md", ".txt"]) =>
  walkCorpus({ root, extensions, skipFolders: new Set(["node_modules"]) });

describe("walkCorpus", () => {
  it("lists wanted files sorted by /-separated path with their size and mtime", async () => {
    const root = folderOf({
      "b.md": "bb",
      "a/z.txt": "zzz",
      "a/y.MD": "y",
      "a/b/c.md": "",
      "skip.json": "{}",
    });
    const files = await walk(root);
    expect(files.map((file) => file.path)).toEqual(["a/b/c.md", "a/y.MD", "a/z.txt", "b.md"]);
    const z = files.find((file) => file.path === "a/z.txt");
    expect(z).toEqual({
      path: "a/z.txt",
      absolute: join(root, "a", "z.txt"),
      size: 3,
      mtime_ms: statSync(join(root, "a", "z.txt")).mtimeMs,
    });
  });

  it("skips hidden entries, skipped folders and secret paths", async () => {
    const root = folderOf({
      "keep.md": "k",
      ".knowledge/index.md": "x",
      ".git/notes.md": "x",
      ".hidden.md": "x",
      "node_modules/a.md": "x",
      "sub/node_modules/b.md": "x",
      "id_rsa.md": "x",
      "keys/id_ed25519.txt": "x",
      "config.env/inside.md": "x",
    });
    expect((await walk(root)).map((file) => file.path)).toEqual(["keep.md"]);
  });

  it("follows symlinks inside the root, never outside, and walks a linked folder once", async () => {
    const outside = folderOf({ "out.md": "o", "dir/deep.md": "d" });
    const root = folderOf({ "docs/page.md": "p", "top.md": "t" });
    symlinkSync(join(outside, "out.md"), join(root, "out-link.md"));
    symlinkSync(join(outside, "dir"), join(root, "out-dir"));
    symlinkSync(join(root, "top.md"), join(root, "top-link.md"));
    // Links that sort before and after the real folder: the real path wins either way.
    symlinkSync(join(root, "docs"), join(root, "a-docs-link"));
    symlinkSync(join(root, "docs"), join(root, "z-docs-link"));
    symlinkSync(root, join(root, "docs", "loop"));
    symlinkSync(join(root, "missing.md"), join(root, "dangling.md"));
    const files = await walk(root);
    expect(files.map((file) => file.path)).toEqual(["docs/page.md", "top-link.md", "top.md"]);
    expect(files.find((file) => file.path === "top-link.md")?.absolute).toBe(join(root, "top.md"));
  });

  it("judges a link by its target's real path: never a hidden, skipped or secret one", async () => {
    // Before issue 27 a hidden folder linked from a visible name was walked under the link's
    // path; a link now lists only what the walk would list at the target's own path.
    const root = folderOf({
      ".store/linked/page.md": "p",
      "node_modules/pkg/readme.md": "r",
      ".env": "SECRET=1",
      "keys/id_rsa": "k",
      "docs/page.md": "d",
    });
    symlinkSync(join(root, ".store", "linked"), join(root, "visible"));
    symlinkSync(join(root, "node_modules", "pkg"), join(root, "vendored"));
    symlinkSync(join(root, ".env"), join(root, "notes.md"));
    symlinkSync(join(root, "keys", "id_rsa"), join(root, "key.txt"));
    symlinkSync(join(root, "docs"), join(root, "manual"));
    expect((await walk(root)).map((file) => file.path)).toEqual(["docs/page.md"]);
  });

  it("returns nothing for a folder that vanished and stops on an aborted signal", async () => {
    const root = folderOf({});
    expect(await walk(join(root, "gone"))).toEqual([]);
    const many: Record<string, string> = {};
    for (let index = 0; index < 300; index += 1) many[`f${index}.md`] = "x";
    const big = folderOf(many);
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(
      walkCorpus({
        root: big,
        extensions: [".md"],
        skipFolders: new Set(),
        signal: controller.signal,
        sliceMs: 0,
      }),
    ).rejects.toThrow("stop");
  });
});
