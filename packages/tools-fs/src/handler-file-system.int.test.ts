import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BundledPage, openBundledPage } from "./test-support/bundled-page.js";
import type { IndexedDbHost } from "./test-support/indexed-db-host.js";

// The handler seam in real headless Chromium over IndexedDB: the root entry bundled for the
// browser (rolldown, platform "browser"), a host's read / write (and list / remove) over an
// object store, and the fs tools run inside the page. No Chromium is a failure, never a skip.
let browser: BundledPage;

beforeAll(async () => {
  browser = await openBundledPage(
    new URL("./test-support/indexed-db-host.ts", import.meta.url),
    "indexedDbHost",
  );
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

function host<Name extends keyof IndexedDbHost>(
  name: Name,
  ...args: Parameters<IndexedDbHost[Name]>
): Promise<Awaited<ReturnType<IndexedDbHost[Name]>>> {
  return browser.page.evaluate(
    ([method, values]) =>
      (
        (globalThis as unknown as { indexedDbHost: Record<string, (...a: unknown[]) => unknown> })
          .indexedDbHost[method as string] as (...a: unknown[]) => unknown
      )(...(values as unknown[])),
    [name, args] as const,
  ) as Promise<Awaited<ReturnType<IndexedDbHost[Name]>>>;
}

describe("createHandlerFileSystem over IndexedDB in Chromium", () => {
  it("write_file → read_file → edit_file → read_file, stored as one record per file", async () => {
    const id = await host("open", "round-trip", { list: true, remove: true });
    expect(
      await host("runTool", id, "write_file", {
        path: "site/index.html",
        content: "<h1>Draft</h1>\n<p>Body</p>\n",
      }),
    ).toMatchObject({ success: true, data: { created: true, bytes_written: 27 } });
    expect(await host("stored", id, "site/index.html")).toEqual({
      form: "string",
      text: "<h1>Draft</h1>\n<p>Body</p>\n",
    });

    const read = await host("runTool", id, "read_file", { path: "site/index.html" });
    expect(read).toMatchObject({
      success: true,
      data: { content: "<h1>Draft</h1>\n<p>Body</p>\n" },
    });
    const sha = (read as { data: { sha: string } }).data.sha;
    expect(
      await host("runTool", id, "edit_file", {
        path: "site/index.html",
        old_text: "Draft",
        new_text: "Final",
        expected_sha: sha,
      }),
    ).toMatchObject({ success: true });
    expect(await host("runTool", id, "read_file", { path: "site/index.html" })).toMatchObject({
      data: { content: "<h1>Final</h1>\n<p>Body</p>\n" },
    });

    // The user edits the record: the old sha is a CONFLICT and nothing is written.
    await host("put", id, "site/index.html", "<h1>Mine</h1>\n");
    expect(
      await host("runTool", id, "edit_file", {
        path: "site/index.html",
        old_text: "Mine",
        new_text: "Theirs",
        expected_sha: sha,
      }),
    ).toMatchObject({ success: false, error: { code: "CONFLICT" } });
    expect(await host("stored", id, "site/index.html")).toEqual({
      form: "string",
      text: "<h1>Mine</h1>\n",
    });

    await host("writeBytes", id, "site/logo.bin", [0, 255, 1, 128]);
    expect(await host("stored", id, "site/logo.bin")).toEqual({
      form: "Uint8Array",
      bytes: [0, 255, 1, 128],
    });
    expect(await host("runTool", id, "list_directory", { path: "site" })).toMatchObject({
      data: {
        entries: [
          expect.objectContaining({ name: "index.html", type: "file", size: 14 }),
          expect.objectContaining({ name: "logo.bin", type: "file", size: 4 }),
        ],
      },
    });
    expect(
      await host("runTool", id, "move_file", { source: "site", destination: "public" }),
    ).toMatchObject({ success: true });
    expect(await host("stored", id, "site/index.html")).toEqual({ form: "missing" });
    expect(await host("stored", id, "public/index.html")).toMatchObject({
      text: "<h1>Mine</h1>\n",
    });
  }, 30_000);

  it("keeps the files across a reload: a new seam over the same database reads them", async () => {
    const first = await host("open", "reload", { list: false, remove: false });
    await host("runTool", first, "write_file", { path: "notes.md", content: "# Kept\n" });
    await browser.page.reload();
    await browser.page.waitForFunction(() => "indexedDbHost" in globalThis);
    const second = await host("open", "reload", { list: false, remove: false });
    expect(await host("runTool", second, "read_file", { path: "notes.md" })).toMatchObject({
      success: true,
      data: { content: "# Kept\n" },
    });
    // Without list and remove, listing and deleting say what the host must pass.
    expect(await host("runTool", second, "list_directory", {})).toMatchObject({
      error: { code: "UNSUPPORTED", hint: expect.stringContaining("passes list") },
    });
    expect(await host("runTool", second, "delete_file", { path: "notes.md" })).toMatchObject({
      error: { code: "UNSUPPORTED", hint: expect.stringContaining("passes remove") },
    });
  }, 30_000);

  it("maps the browser's own DOMExceptions: an aborted transaction, an exhausted quota", async () => {
    const aborting = await host("open", "failures", {
      list: false,
      remove: false,
      failWrites: "abort",
    });
    expect(
      await host("runTool", aborting, "write_file", { path: "a.md", content: "x" }),
    ).toMatchObject({
      error: { code: "ABORTED", message: expect.stringContaining("(AbortError:") },
    });
    expect(await host("stored", aborting, "a.md")).toEqual({ form: "missing" });
    const full = await host("open", "failures", {
      list: false,
      remove: false,
      failWrites: "quota",
    });
    expect(await host("runTool", full, "write_file", { path: "a.md", content: "x" })).toMatchObject(
      {
        error: {
          code: "TOO_LARGE",
          message:
            "The host's storage is full: write a.md failed (QuotaExceededError: The quota has been exceeded.).",
        },
      },
    );
  }, 30_000);
});
