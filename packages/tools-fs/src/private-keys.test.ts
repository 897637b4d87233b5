import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApplyPatchTool } from "./apply-patch.js";
import { planChangeSet } from "./change-set.js";
import { createEditFileTool } from "./edit-file.js";
import { createGrepSearchTool } from "./grep-search.js";
import { createMultiEditTool } from "./multi-edit.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import { createRipgrepSearcher } from "./node/ripgrep/index.js";
import { createReadFileTool } from "./read-file.js";
import { useTemporaryDirectories } from "./test-support/seams.js";
import { createWorkspace } from "./workspace.js";

const temporaryRoot = useTemporaryDirectories("agentool-keys-");

const BODY = ["MIIEowIBAAKCAQEAKEYLINEONE0000", "KEYLINETWO1111AAAABBBBCCCC", "KEYLINETHREE22"];
const KEY = `-----BEGIN RSA PRIVATE KEY-----\n${BODY.join("\n")}\n-----END RSA PRIVATE KEY-----\n`;
const PUTTY =
  "PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\nAAAAIFPUTTYKEYLINE0x9Q==\nPrivate-MAC: 00\n";

async function fixture() {
  const root = await temporaryRoot();
  await mkdir(join(root, "config"));
  await writeFile(join(root, "config", "deploy.txt"), `host: example\n${KEY}port: 22\n`);
  await writeFile(join(root, "config", "putty.txt"), `name: x\n${PUTTY}`);
  await writeFile(join(root, "app.ts"), "export const KEYLINE = 1;\n");
  await mkdir(join(root, "deploy"));
  await writeFile(join(root, "deploy", "SERVER.PEM"), "KEYLINE secret by name\n");
  await mkdir(join(root, "ops", ".kube"), { recursive: true });
  await writeFile(join(root, "ops", ".kube", "config"), "KEYLINE token\n");
  const fileSystem = createNodeFileSystem({ root });
  const workspace = createWorkspace({ fileSystem });
  return { root, fileSystem, workspace };
}

/** `count` lines of key body (base64-like, both letter cases, each marked KEYLINE). */
function keyBody(count: number): string[] {
  return Array.from(
    { length: count },
    (_, index) => `KEYLINE${String(index).padStart(5, "0")}AbCdEfGh0123456789+/xyzXYZ`,
  );
}

/** read_file with every page of a small file streamed, in both index modes (full pass, partial). */
function streamedReaders(workspace: ReturnType<typeof createWorkspace>) {
  return [undefined, 0].map((fullPassMaxBytes) => ({
    fullPassMaxBytes,
    read: createReadFileTool({
      workspace,
      streamThresholdBytes: 1024,
      ...(fullPassMaxBytes === undefined ? {} : { fullPassMaxBytes }),
    }),
  }));
}

describe("read_file redacts private keys line for line", () => {
  it("whole files: the key lines become the note, the rest and the numbering stay", async () => {
    const { workspace } = await fixture();
    const read = createReadFileTool({ workspace });
    const result = await read.run({ path: "config/deploy.txt" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.content).not.toMatch(/KEYLINE/);
    expect(result.data.content).toContain("[private key redacted]");
    expect(result.data.total).toBe(7);
    const rendered = read.renderResult(result);
    expect(rendered).toContain("host: example");
    expect(rendered).toMatch(/7\tport: 22/);
    expect(result.data.redacted_private_keys).toBe(true);
    // Paging one line at a time never shows a piece of the key.
    for (let offset = 1; offset <= 7; offset += 1) {
      const page = await read.run({ path: "config/deploy.txt", offset, limit: 1 });
      expect(JSON.stringify(page)).not.toMatch(/KEYLINE/);
    }
    const putty = await read.run({ path: "config/putty.txt" });
    expect(JSON.stringify(putty)).not.toContain("PUTTYKEYLINE");
  });

  it("streamed files: a page that starts inside a key is redacted too", async () => {
    const { root, workspace } = await fixture();
    const filler = Array.from({ length: 300 }, (_, index) => `filler line ${index}`).join("\n");
    await writeFile(join(root, "big.txt"), `${filler}\n${KEY}${filler}\n`);
    const read = createReadFileTool({ workspace, streamThresholdBytes: 1024 });
    for (const offset of [290, 302, 303, 304]) {
      const page = await read.run({ path: "big.txt", offset, limit: 20 });
      expect(page.success, JSON.stringify(page)).toBe(true);
      expect(JSON.stringify(page), String(offset)).not.toMatch(/KEYLINE/);
      if (page.success) expect(page.data.streamed).toBe(true);
    }
    const after = await read.run({ path: "big.txt", offset: 306, limit: 3 });
    expect(JSON.stringify(after)).toContain("filler line 0");
  });

  it("files read only in part (no full pass): middle pages and tails inside a key are redacted", async () => {
    const { root, workspace } = await fixture();
    const filler = Array.from({ length: 300 }, (_, index) => `filler line ${index}`).join("\n");
    // The key ends 2 lines before the end: a tail of 3 lines starts inside it.
    await writeFile(join(root, "big.txt"), `${filler}\n${KEY}x\ny\n`);
    const read = createReadFileTool({ workspace, streamThresholdBytes: 1024, fullPassMaxBytes: 0 });
    for (const input of [
      { offset: 302, limit: 3 },
      { offset: 304, limit: 20 },
      { offset: -3 },
      { offset: -4, limit: 2 },
      { offset: -2 },
    ]) {
      const page = await read.run({ path: "big.txt", ...input });
      expect(page.success, JSON.stringify(page)).toBe(true);
      expect(JSON.stringify(page), JSON.stringify(input)).not.toMatch(/KEYLINE/);
      if (page.success) {
        expect(page.data.streamed).toBe(true);
        expect(page.data.sha).toBeUndefined();
      }
    }
    const tail = await read.run({ path: "big.txt", offset: -3 });
    expect(tail.success && tail.data.content).toBe("[private key redacted]\nx\ny\n");
  });

  it("a page deep inside a long PGP key block (its BEGIN over 256 lines back) is redacted", async () => {
    const { root, workspace } = await fixture();
    const filler = Array.from({ length: 300 }, (_, index) => `filler line ${index}`).join("\n");
    const body = keyBody(3000);
    const pgp = [
      "-----BEGIN PGP PRIVATE KEY BLOCK-----",
      "",
      ...body,
      "=KEYLINEsum",
      "-----END PGP PRIVATE KEY BLOCK-----",
    ].join("\n");
    // BEGIN is line 301, the body lines 303–3302, the checksum 3303, END 3304, then x and y.
    await writeFile(join(root, "pgp.txt"), `${filler}\n${pgp}\nx\ny\n`);
    for (const { fullPassMaxBytes, read } of streamedReaders(workspace)) {
      for (const input of [
        { offset: 900, limit: 20 },
        { offset: 2500, limit: 20 },
        { offset: 3290, limit: 30 },
        { offset: -10 },
        { offset: -1500, limit: 5 },
      ]) {
        const page = await read.run({ path: "pgp.txt", ...input });
        expect(page.success, JSON.stringify(page)).toBe(true);
        const label = JSON.stringify({ fullPassMaxBytes, ...input });
        expect(JSON.stringify(page), label).not.toMatch(/KEYLINE/);
        if (page.success) {
          expect(page.data.streamed, label).toBe(true);
          expect(page.data.redacted_private_keys, label).toBe(true);
        }
      }
      // After the block, the file reads as it is.
      const after = await read.run({ path: "pgp.txt", offset: 3305, limit: 5 });
      expect(after.success && after.data.content).toBe("x\ny\n");
    }
  });

  it("a window that starts on the armour's headers or blank line still widens to its BEGIN", async () => {
    const { root, workspace } = await fixture();
    // BEGIN on line 256: the headers and the blank line fall on line 257, where the line index
    // keeps a checkpoint (windows start there).
    const filler = Array.from({ length: 255 }, (_, index) => `filler line ${index}`);
    const layouts = {
      blank: ["-----BEGIN PGP PRIVATE KEY BLOCK-----", ""],
      headers: ["-----BEGIN PGP PRIVATE KEY BLOCK-----", "Version: GnuPG v2", "Comment: test", ""],
      encryptedPem: [
        "-----BEGIN RSA PRIVATE KEY-----",
        "Proc-Type: 4,ENCRYPTED",
        "DEK-Info: AES-128-CBC,00FF",
        "",
      ],
    };
    for (const [layout, head] of Object.entries(layouts)) {
      const lines = [
        ...filler,
        ...head,
        ...keyBody(20_000),
        "=KEYLINEsum",
        "-----END PGP PRIVATE KEY BLOCK-----",
        "x",
        "y",
      ];
      await writeFile(join(root, "armour.txt"), `${lines.join("\n")}\n`);
      for (const { fullPassMaxBytes, read } of streamedReaders(workspace)) {
        for (const input of [
          { offset: 600, limit: 5 },
          { offset: 2400, limit: 5 },
          { offset: 16_700, limit: 5 },
          { offset: -(lines.length - 558 + 1), limit: 2 },
          { offset: -(lines.length - 2350 + 1), limit: 2 },
        ]) {
          const page = await read.run({ path: "armour.txt", ...input });
          const label = JSON.stringify({ layout, fullPassMaxBytes, ...input });
          expect(page.success, label).toBe(true);
          expect(JSON.stringify(page), label).not.toMatch(/KEYLINE/);
        }
      }
    }
  });

  it("hex digests and numbers are not taken for key armour: no widening, no redaction", async () => {
    const { root, workspace } = await fixture();
    const digests = Array.from({ length: 30_000 }, (_, index) =>
      (index * 2654435761).toString(16).padStart(40, "0").slice(0, 40),
    );
    await writeFile(join(root, "digests.txt"), `${digests.join("\n")}\n`);
    const numbers = Array.from({ length: 30_000 }, (_, index) => String(10_000 + index));
    await writeFile(join(root, "numbers.txt"), `${numbers.join("\n")}\n`);
    const read = createReadFileTool({ workspace, streamThresholdBytes: 1024, fullPassMaxBytes: 0 });
    const digestPage = await read.run({ path: "digests.txt", offset: 25_000, limit: 3 });
    expect(digestPage.success && digestPage.data.content).toBe(
      `${digests.slice(24_999, 25_002).join("\n")}\n`,
    );
    const numberPage = await read.run({ path: "numbers.txt", offset: 25_000, limit: 3 });
    expect(numberPage.success && numberPage.data.content).toBe(
      `${numbers.slice(24_999, 25_002).join("\n")}\n`,
    );
  });

  it("base64 data that is not a key stays readable when its start is in reach", async () => {
    const { root, workspace } = await fixture();
    const data = Array.from(
      { length: 3000 },
      (_, index) => `DATALINE${String(index).padStart(5, "0")}AbCdEfGh0123456789+/xyzXYZ`,
    );
    await writeFile(join(root, "blob.txt"), `payload:\n${data.join("\n")}\n`);
    const read = createReadFileTool({ workspace, streamThresholdBytes: 1024, fullPassMaxBytes: 0 });
    const page = await read.run({ path: "blob.txt", offset: 2000, limit: 3 });
    expect(page.success && page.data.content).toBe(`${data.slice(1998, 2001).join("\n")}\n`);
    expect(page.success && page.data.redacted_private_keys).toBeFalsy();
    // Past the widest window (16,384 lines) of base64, leading base64 lines are taken for a key.
    const long = Array.from({ length: 20_000 }, (_, index) => `DATA${index}AbCd0123+/`);
    await writeFile(join(root, "long.txt"), `payload:\n${long.join("\n")}\nplain tail\n`);
    const deep = await read.run({ path: "long.txt", offset: 19_999, limit: 5 });
    expect(deep.success && deep.data.content).toBe(
      "[private key redacted]\n[private key redacted]\n[private key redacted]\nplain tail\n",
    );
    const near = await read.run({ path: "long.txt", offset: 10_000, limit: 1 });
    expect(near.success && near.data.content).toBe(`${long[9_998]}\n`);
  });
});

describe.each([
  { name: "ripgrep", engine: (root: string) => createRipgrepSearcher({ root }) },
  { name: "js engine", engine: () => undefined },
])("grep_search ($name)", ({ engine }) => {
  async function grep(input: Record<string, unknown>) {
    const { root, workspace } = await fixture();
    const searcher = engine(root);
    const tool = createGrepSearchTool({ workspace, ...(searcher ? { searcher } : {}) });
    const result = await tool.run(input);
    return `${JSON.stringify(result)}\n${tool.renderResult(result)}`;
  }

  it("redacts matched lines and context inside a key block", async () => {
    for (const input of [
      { pattern: "KEYLINE" },
      { pattern: "KEYLINE", context_lines: 3 },
      { pattern: "PRIVATE KEY" },
      { pattern: "host", context_lines: 5 },
      { pattern: "PuTTY|Private", context_lines: 2 },
    ]) {
      const text = await grep(input);
      expect(text, JSON.stringify(input)).not.toMatch(/KEYLINEONE|KEYLINETWO|KEYLINETHREE/);
      expect(text, JSON.stringify(input)).not.toContain("PUTTYKEYLINE");
      expect(text, JSON.stringify(input)).not.toContain("BEGIN RSA PRIVATE KEY");
    }
    const text = await grep({ pattern: "KEYLINE" });
    expect(text).toContain("[private key redacted]");
    expect(text).toContain("app.ts");
  });

  it("never searches secret paths in other cases or deeper down", async () => {
    const text = await grep({ pattern: "KEYLINE", output_mode: "files_with_matches" });
    expect(text).toContain("app.ts");
    expect(text).not.toContain("SERVER.PEM");
    expect(text).not.toContain(".kube");
  });
});

describe("the edit tools' diffs redact private keys line for line", () => {
  it("edit_file, multi_edit, apply_patch (dry run and applied) and planChangeSet", async () => {
    const { root, workspace } = await fixture();
    const path = "config/deploy.txt";
    const shown: string[] = [];
    const patch = `*** Begin Patch\n*** Update File: ${path}\n@@\n-port: 22\n+port: 2222\n*** End Patch`;
    const applyPatch = createApplyPatchTool({ workspace });
    for (const dryRun of [true, false]) {
      const result = await applyPatch.run({ patch, dry_run: dryRun });
      if (!result.success) throw new Error(result.error.message);
      shown.push(JSON.stringify(result.data), JSON.stringify(applyPatch.renderResult(result)));
    }
    const planned = await planChangeSet(workspace, [
      { kind: "update", path, edit: (text) => text.replace("port: 2222", "port: 22") },
      { kind: "delete", path: "config/putty.txt" },
    ]);
    if (!planned.success) throw new Error(planned.error.message);
    shown.push(...planned.data.files.map((file) => file.diff.text));
    const edit = createEditFileTool({ workspace });
    const edited = await edit.run({ path, old_text: "port: 2222", new_text: "port: 23" });
    if (!edited.success) throw new Error(edited.error.message);
    shown.push(JSON.stringify(edited.data), JSON.stringify(edit.renderResult(edited)));
    const multi = createMultiEditTool({ workspace });
    const multiEdited = await multi.run({
      path,
      edits: [
        { old_text: "host: example", new_text: "host: example.org" },
        { old_text: "port: 23", new_text: "port: 24" },
      ],
    });
    if (!multiEdited.success) throw new Error(multiEdited.error.message);
    shown.push(JSON.stringify(multiEdited.data), JSON.stringify(multi.renderResult(multiEdited)));
    for (const text of shown) {
      expect(text).not.toMatch(/KEYLINE|PRIVATE KEY-----/);
    }
    expect(shown[0]).toContain("[private key redacted]");
    expect(shown.at(-1)).toContain("-host: example");
    expect(shown.at(-1)).toContain("+port: 24");
    // A hunk that is not found shows the closest region with the key lines redacted.
    const missing = await applyPatch.run({
      patch: `*** Begin Patch\n*** Update File: ${path}\n@@\n host: example.org\n-${KEY.split("\n")[0]}\n-not in the file\n+x\n*** End Patch`,
    });
    expect(missing).toMatchObject({ success: false, error: { code: "PATTERN_NOT_FOUND" } });
    const message = missing.success ? "" : missing.error.message;
    expect(message).toContain("     1\thost: example.org");
    expect(message).toContain("     2\t[private key redacted]");
    expect(message).not.toMatch(/KEYLINE/);
    // The file itself keeps its key.
    expect(await readFile(join(root, path), "utf8")).toBe(`host: example.org\n${KEY}port: 24\n`);
  });
});
