import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commitChangeSet, type FileChange, planChangeSet } from "./change-set.js";
import { type FileSystem, FileSystemError } from "./file-system.js";
import { sha256Hex } from "./internal/text-codec.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import { type NodeWorkspaceFixture, useNodeWorkspace, writeFiles } from "./test-support/seams.js";
import { snapshotTree } from "./test-support/tree-snapshot.js";
import { createWorkspace, type Workspace } from "./workspace.js";

let fixture: NodeWorkspaceFixture;
useNodeWorkspace("agentool-change-set-", (created) => {
  fixture = created;
});

const text = async (path: string) => readFile(join(fixture.root, path), "utf8");

async function plan(changes: FileChange[], workspace: Workspace = fixture.workspace) {
  const planned = await planChangeSet(workspace, changes);
  if (!planned.success) throw new Error(`${planned.error.code}: ${planned.error.message}`);
  return planned.data;
}

async function refused(changes: FileChange[], code: string) {
  const before = await snapshotTree(fixture.root);
  const planned = await planChangeSet(fixture.workspace, changes);
  expect(planned).toMatchObject({ success: false, error: { code } });
  expect(await snapshotTree(fixture.root)).toEqual(before);
  return planned.success ? undefined : planned.error;
}

const mixed: () => FileChange[] = () => [
  { kind: "update", path: "src/a.js", edit: (value) => value.replace("one", "uno") },
  { kind: "add", path: "src/new/b.js", text: "export const b = 2;\n" },
  { kind: "delete", path: "old.js" },
  {
    kind: "update",
    path: "src/c.js",
    moveTo: "lib/c.js",
    edit: (value) => `${value}// moved\n`,
  },
];

describe("planChangeSet / commitChangeSet", () => {
  it("updates, adds, deletes and moves in one set; planning writes nothing", async () => {
    await writeFiles(fixture.root, {
      "src/a.js": "const one = 1;\n",
      "old.js": "gone\n",
      "src/c.js": "const c = 3;\n",
    });
    const before = await snapshotTree(fixture.root);
    const planned = await plan(mixed());
    expect(await snapshotTree(fixture.root)).toEqual(before);
    expect(planned.files.map((file) => [file.kind, file.path, file.moveTo])).toEqual([
      ["update", "src/a.js", undefined],
      ["add", "src/new/b.js", undefined],
      ["delete", "old.js", undefined],
      ["update", "src/c.js", "lib/c.js"],
    ]);
    expect(planned.files[0]?.diff.text).toBe(
      "--- a/src/a.js\n+++ b/src/a.js\n@@ -1,1 +1,1 @@\n-const one = 1;\n+const uno = 1;",
    );
    expect(planned.files[1]?.diff.text.split("\n").slice(0, 2)).toEqual([
      "--- /dev/null",
      "+++ b/src/new/b.js",
    ]);
    expect(planned.files[2]?.diff.text.split("\n").slice(0, 2)).toEqual([
      "--- a/old.js",
      "+++ /dev/null",
    ]);
    expect(planned.files[3]?.diff.text.split("\n").slice(0, 2)).toEqual([
      "--- a/src/c.js",
      "+++ b/lib/c.js",
    ]);
    expect([planned.added, planned.removed]).toEqual([3, 2]);

    const committed = await commitChangeSet(fixture.workspace, planned);
    if (!committed.success) throw new Error(committed.error.message);
    expect(await text("src/a.js")).toBe("const uno = 1;\n");
    expect(await text("src/new/b.js")).toBe("export const b = 2;\n");
    expect(await text("lib/c.js")).toBe("const c = 3;\n// moved\n");
    const after = await snapshotTree(fixture.root);
    expect(Object.keys(after).sort()).toEqual(
      ["lib", "lib/c.js", "src", "src/a.js", "src/new", "src/new/b.js"].sort(),
    );
    expect(committed.data.files[0]?.sha).toBe(
      await fixture.workspace.fileSystem.digest("src/a.js"),
    );
    expect(committed.data.files[2]).toMatchObject({ kind: "delete", sha: undefined });
  });

  it("keeps CRLF, a BOM and the permission bits; the edit sees LF text without BOM", async () => {
    await writeFile(join(fixture.root, "win.txt"), "\uFEFFa\r\nb\r\n");
    await writeFile(join(fixture.root, "run.sh"), "#!/bin/sh\necho hi\n", { mode: 0o755 });
    const seen: string[] = [];
    const planned = await plan([
      {
        kind: "update",
        path: "win.txt",
        edit: (value) => {
          seen.push(value);
          return value.replace("b\n", "b\nc\n");
        },
      },
      { kind: "update", path: "run.sh", edit: (value) => value.replace("hi", "ho") },
    ]);
    expect(seen).toEqual(["a\nb\n"]);
    expect(planned.files[0]).toMatchObject({ encoding: "utf-8-bom", lineEnding: "crlf" });
    const committed = await commitChangeSet(fixture.workspace, planned);
    expect(committed.success).toBe(true);
    expect(await readFile(join(fixture.root, "win.txt"))).toEqual(
      Buffer.from("\uFEFFa\r\nb\r\nc\r\n"),
    );
    expect((await stat(join(fixture.root, "run.sh"))).mode & 0o777).toBe(0o755);
  });

  it("refuses everything on an expected sha mismatch or an edit's refusal", async () => {
    await writeFiles(fixture.root, { "a.js": "a\n", "b.js": "b\n" });
    const sha = await sha256Hex(new TextEncoder().encode("a\n"));
    await plan([{ kind: "update", path: "a.js", expectedSha: sha.slice(0, 12), edit: (v) => v }]);
    await refused(
      [
        { kind: "update", path: "a.js", edit: (v) => `${v}x\n` },
        { kind: "delete", path: "b.js", expectedSha: "0123456789ab" },
      ],
      "CONFLICT",
    );
    const error = await refused(
      [
        { kind: "update", path: "a.js", edit: (v) => `${v}x\n` },
        {
          kind: "update",
          path: "b.js",
          edit: () => ({ error: "hunk 2 not found", code: "PATTERN_NOT_FOUND", hint: "re-read" }),
        },
      ],
      "PATTERN_NOT_FOUND",
    );
    expect(error).toMatchObject({ message: "hunk 2 not found", hint: "re-read" });
    await refused(
      [{ kind: "update", path: "a.js", edit: () => ({ error: "no" }) }],
      "INVALID_INPUT",
    );
  });

  it("refuses adds and moves onto existing files, a file named twice, missing and binary files", async () => {
    await writeFiles(fixture.root, {
      "a.js": "a\n",
      "b.js": "b\n",
      "bin.dat": new Uint8Array([0, 1, 2, 0]),
    });
    const onto = await refused([{ kind: "add", path: "a.js", text: "x" }], "FILE_ALREADY_EXISTS");
    expect(onto?.hint).toBe(
      "Change the existing file with an update instead (or delete it in a separate call first).",
    );
    // Deleting then adding one path is refused with a hint that is true (not "delete it first").
    const replaced = await refused(
      [
        { kind: "delete", path: "a.js" },
        { kind: "add", path: "./a.js", text: "x" },
      ],
      "INVALID_INPUT",
    );
    expect(replaced?.message).toBe(
      "a.js is deleted and then added in the same change set; a change set names each file once.",
    );
    expect(replaced?.hint).toMatch(/update it instead with the whole new text/);
    expect(replaced?.hint).not.toMatch(/same change set/);
    await refused(
      [{ kind: "update", path: "a.js", moveTo: "b.js", edit: (v) => v }],
      "FILE_ALREADY_EXISTS",
    );
    await refused(
      [
        { kind: "update", path: "a.js", edit: (v) => `${v}1` },
        { kind: "delete", path: "./a.js" },
      ],
      "INVALID_INPUT",
    );
    await refused([{ kind: "update", path: "missing.js", edit: (v) => v }], "FILE_NOT_FOUND");
    await refused([{ kind: "delete", path: "missing.js" }], "FILE_NOT_FOUND");
    await refused([{ kind: "update", path: "bin.dat", edit: (v) => v }], "UNSUPPORTED");
    await refused([], "INVALID_INPUT");
  });

  it("refuses secrets, .git, paths outside the root and symlink escapes", async () => {
    await writeFiles(fixture.root, { ".env": "KEY=1\n", ".git/config": "[core]\n", "a.js": "a\n" });
    await writeFile(join(fixture.outside, "victim.txt"), "outside\n");
    await symlink(join(fixture.outside, "victim.txt"), join(fixture.root, "escape.txt"));
    await symlink(fixture.outside, join(fixture.root, "out"));
    await refused([{ kind: "update", path: ".env", edit: (v) => `${v}X=2\n` }], "BLOCKED");
    await refused([{ kind: "add", path: "keys/id_rsa", text: "x" }], "BLOCKED");
    await refused([{ kind: "add", path: ".git/hooks/pre-commit", text: "#!/bin/sh\n" }], "BLOCKED");
    await refused(
      [{ kind: "update", path: "a.js", moveTo: ".git/hooks/post-merge", edit: (v) => v }],
      "BLOCKED",
    );
    await refused([{ kind: "add", path: "../evil.js", text: "x" }], "INVALID_PATH");
    await refused([{ kind: "add", path: "/etc/evil.js", text: "x" }], "INVALID_PATH");
    await refused([{ kind: "update", path: "escape.txt", edit: (v) => `${v}!` }], "INVALID_PATH");
    await refused([{ kind: "add", path: "out/new.js", text: "x" }], "INVALID_PATH");
    expect(await readFile(join(fixture.outside, "victim.txt"), "utf8")).toBe("outside\n");
  });

  it("aborts before any rename when a file changed or a new path appeared since planning", async () => {
    await writeFiles(fixture.root, { "a.js": "a\n", "b.js": "b\n" });
    const planned = await plan([
      { kind: "update", path: "a.js", edit: (v) => `${v}1\n` },
      { kind: "add", path: "c/new.js", text: "new\n" },
    ]);
    await writeFile(join(fixture.root, "a.js"), "changed\n");
    const before = await snapshotTree(fixture.root);
    const committed = await commitChangeSet(fixture.workspace, planned);
    expect(committed).toMatchObject({ success: false, error: { code: "CONFLICT" } });
    expect(committed.success ? "" : committed.error.message).toMatch(
      /^a\.js changed while apply_patch was applying the changes: its sha is now [0-9a-f]{12}; read it again\. Nothing was written\.$/,
    );
    expect(committed.success ? "" : committed.error.hint).toMatch(/^Re-read a\.js with read_file/);
    expect(await snapshotTree(fixture.root)).toEqual(before);

    const again = await plan([
      { kind: "update", path: "a.js", edit: (v) => `${v}1\n` },
      { kind: "add", path: "b.d/new.js", text: "new\n" },
    ]);
    await mkdir(join(fixture.root, "b.d/new.js"), { recursive: true });
    const snapshot = await snapshotTree(fixture.root);
    expect(await commitChangeSet(fixture.workspace, again)).toMatchObject({
      success: false,
      error: { code: "CONFLICT" },
    });
    expect(await snapshotTree(fixture.root)).toEqual(snapshot);

    // A folder swapped for a symlink into .git after planning: refused, naming the file, never
    // the temporary file written beside it.
    await mkdir(join(fixture.root, ".git/hooks"), { recursive: true });
    const hook = await plan([{ kind: "add", path: "gl/pre-commit", text: "#!/bin/sh\n" }]);
    await symlink(".git/hooks", join(fixture.root, "gl"));
    const blocked = await commitChangeSet(fixture.workspace, hook, { tool: "ast_rewrite" });
    expect(blocked).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    const message = blocked.success ? "" : blocked.error.message;
    expect(message).toMatch(/^gl\/pre-commit is inside git's private directory/);
    expect(message).not.toMatch(/agentool|\.pre-commit/);
    expect(await readdir(join(fixture.root, ".git/hooks"))).toEqual([]);

    const deleted = await plan([{ kind: "delete", path: "b.js" }]);
    await rm(join(fixture.root, "b.js"));
    expect(
      await commitChangeSet(fixture.workspace, deleted, { tool: "ast_rewrite" }),
    ).toMatchObject({
      success: false,
      error: {
        code: "CONFLICT",
        message:
          "b.js was deleted or replaced while ast_rewrite was applying the changes. Nothing was written.",
      },
    });
  });

  it("undoes every step when a rename fails part-way: all files byte-identical", async () => {
    await writeFiles(fixture.root, {
      "a.js": "a\n",
      "b.js": "b\n",
      "gone.js": "gone\n",
      "m/src.js": "move me\n",
    });
    await writeFile(join(fixture.root, "x.sh"), "#!/bin/sh\n", { mode: 0o750 });
    const node = createNodeFileSystem({ root: fixture.root });
    for (const failAt of [1, 2, 3, 4, 5, 6]) {
      let renames = 0;
      const failing = new Proxy(node, {
        get(target, key) {
          if (key === "rename") {
            return async (source: string, destination: string) => {
              renames += 1;
              if (renames === failAt) {
                throw new FileSystemError("PERMISSION_DENIED", `cannot rename to ${destination}.`);
              }
              return target.rename(source, destination);
            };
          }
          const value = Reflect.get(target, key) as unknown;
          return typeof value === "function" ? value.bind(target) : value;
        },
      }) as FileSystem;
      const workspace = createWorkspace({ fileSystem: failing });
      const before = await snapshotTree(fixture.root);
      const planned = await plan(
        [
          { kind: "update", path: "a.js", edit: (v) => `${v}A\n` },
          { kind: "update", path: "x.sh", edit: (v) => `${v}exit 0\n` },
          { kind: "add", path: "deep/er/new.js", text: "new\n" },
          { kind: "delete", path: "gone.js" },
          { kind: "update", path: "m/src.js", moveTo: "n/dst.js", edit: (v) => v },
        ],
        workspace,
      );
      const committed = await commitChangeSet(workspace, planned);
      expect(committed).toMatchObject({ success: false, error: { code: "PERMISSION_DENIED" } });
      expect(await snapshotTree(fixture.root)).toEqual(before);
    }
  });

  it("refuses a plan made with another workspace", async () => {
    await writeFiles(fixture.root, { "a.js": "a\n" });
    const planned = await plan([{ kind: "update", path: "a.js", edit: (v) => `${v}1` }]);
    const other = createWorkspace({ fileSystem: createNodeFileSystem({ root: fixture.root }) });
    await expect(commitChangeSet(other, planned)).rejects.toThrow(/not made by planChangeSet/);
  });
});
