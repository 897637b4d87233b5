import { ToolFailureError } from "@agentool/contract";
import { describe, expect, it } from "vitest";
import { createHandlerFileSystem, type FileSystemHandler } from "./index.js";
import { fsToolsOver, mapStorage } from "./test-support/map-handler.js";

const errno = (code: string) => Object.assign(new Error(`${code}: refused`), { code });

/** The fs tools over a handler whose `write` (or `read`) throws `thrown`. */
function failing(where: "read" | "write", thrown: () => unknown) {
  const storage = mapStorage({ "a.md": "A" });
  const handler: FileSystemHandler = {
    ...storage.handler,
    [where]: async () => {
      throw thrown();
    },
  };
  return fsToolsOver(createHandlerFileSystem(handler));
}

describe("a handler's errors, mapped to the contract's codes", () => {
  const cases: Array<[string, () => unknown, string, RegExp]> = [
    ["ENOENT", () => errno("ENOENT"), "FILE_NOT_FOUND", /a\.md does not exist/],
    [
      "NotFoundError",
      () => new DOMException("gone", "NotFoundError"),
      "FILE_NOT_FOUND",
      /does not exist/,
    ],
    ["EACCES", () => errno("EACCES"), "PERMISSION_DENIED", /refused to write a\.md \(EACCES/],
    ["EPERM", () => errno("EPERM"), "PERMISSION_DENIED", /refused to write/],
    [
      "NotAllowedError",
      () => new DOMException("the user said no", "NotAllowedError"),
      "PERMISSION_DENIED",
      /\(NotAllowedError: the user said no\)/,
    ],
    [
      "SecurityError",
      () => new DOMException("insecure", "SecurityError"),
      "PERMISSION_DENIED",
      /SecurityError/,
    ],
    [
      "QuotaExceededError",
      () => new DOMException("quota", "QuotaExceededError"),
      "TOO_LARGE",
      /storage is full: write a\.md failed \(QuotaExceededError: quota\)/,
    ],
    ["ENOSPC", () => errno("ENOSPC"), "TOO_LARGE", /storage is full/],
    [
      "AbortError",
      () => new DOMException("stopped", "AbortError"),
      "ABORTED",
      /cancelled the write of a\.md/,
    ],
    [
      "TimeoutError",
      () => new DOMException("slow", "TimeoutError"),
      "TIMEOUT",
      /timed out during the write/,
    ],
    [
      "a coded ToolFailureError",
      () => new ToolFailureError("BLOCKED", "the host keeps a.md read-only", { hint: "ask" }),
      "BLOCKED",
      /the host keeps a\.md read-only/,
    ],
    [
      "any other Error",
      () => new TypeError("disk on fire"),
      "INTERNAL",
      /^The host's write handler failed for a\.md: TypeError: disk on fire$/,
    ],
  ];

  it.each(cases)("write throwing %s → %s", async (_name, thrown, code, message) => {
    const tools = failing("write", thrown);
    const result = await tools.write_file?.({ path: "a.md", content: "new" });
    expect(result).toMatchObject({ success: false, error: { code, message } });
    expect((result as { error: { hint?: string } }).error.hint).toEqual(expect.any(String));
  });

  it("read throwing ENOENT or NotFoundError is a missing file, not a failure", async () => {
    for (const thrown of [() => errno("ENOENT"), () => new DOMException("x", "NotFoundError")]) {
      const tools = failing("read", thrown);
      expect(await tools.read_file?.({ path: "a.md" })).toMatchObject({
        error: { code: "FILE_NOT_FOUND", message: "a.md does not exist." },
      });
      // write_file sees nothing there and creates the file.
      expect(await tools.write_file?.({ path: "a.md", content: "x" })).toMatchObject({
        success: true,
        data: { created: true },
      });
    }
  });

  it("names the read handler and its message when read fails otherwise", async () => {
    const tools = failing("read", () => new RangeError("bad offset"));
    expect(await tools.read_file?.({ path: "a.md" })).toMatchObject({
      error: {
        code: "INTERNAL",
        message: "The host's read handler failed for a.md: RangeError: bad offset",
        hint: expect.stringContaining("the read function given to createHandlerFileSystem"),
      },
    });
  });

  it("describes thrown values that are not errors, hostile ones included", async () => {
    const thrownValues: Array<[unknown, string]> = [
      ["disk on fire", "disk on fire"],
      [42, "42"],
      [undefined, "undefined"],
      [{ message: "a plain object" }, "a plain object"],
      [{ code: "EACCES" }, "PERMISSION_DENIED"],
      [
        {
          get message() {
            throw new Error("hostile getter");
          },
          toString() {
            throw new Error("hostile toString");
          },
        },
        "unknown error",
      ],
    ];
    for (const [value, expected] of thrownValues) {
      const result = await failing("write", () => value).write_file?.({
        path: "a.md",
        content: "x",
      });
      expect(result, String(expected)).toMatchObject({ success: false });
      const error = (result as { error: { code: string; message: string } }).error;
      if (expected === "PERMISSION_DENIED") expect(error.code).toBe(expected);
      else {
        expect(error.code).toBe("INTERNAL");
        expect(error.message).toBe(`The host's write handler failed for a.md: ${expected}`);
      }
    }
    // A handler that throws synchronously (not a rejected promise) is caught the same way.
    const sync = createHandlerFileSystem({
      read: () => {
        throw "sync throw";
      },
      write: () => {},
    });
    await expect(sync.readFile("a.md")).rejects.toMatchObject({
      code: "INTERNAL",
      message: "The host's read handler failed for a.md: sync throw",
    });
  });
});

describe("a hostile handler", () => {
  it("answers of the wrong type are INTERNAL, naming the handler and what it must return", async () => {
    const fileSystem = createHandlerFileSystem({
      read: async () => 42 as never,
      write: async () => {},
      list: async () => "not an array" as never,
    });
    await expect(fileSystem.readFile("a.md")).rejects.toMatchObject({
      code: "INTERNAL",
      message: expect.stringMatching(
        /^The host's read handler returned a number for a\.md; it must return the file's content/,
      ),
    });
    await expect(fileSystem.readDirectory("")).rejects.toMatchObject({
      code: "INTERNAL",
      message: expect.stringContaining("The host's list handler returned a string for ."),
    });
    const entries = createHandlerFileSystem({
      read: async () => undefined,
      write: async () => {},
      list: async () => [{ name: "a", type: "symlink" }] as never,
    });
    await expect(entries.readDirectory("")).rejects.toMatchObject({
      message: expect.stringContaining('returned a with type "symlink"'),
    });
    const tools = fsToolsOver(fileSystem);
    expect(await tools.read_file?.({ path: "a.md" })).toMatchObject({
      error: { code: "INTERNAL", message: expect.stringContaining("returned a number") },
    });
  });

  it("a handler that never answers: the tool's deadline answers, and the seam's frees the path", async () => {
    const signals: AbortSignal[] = [];
    let hang = true;
    const storage = mapStorage({ "a.md": "A" });
    const fileSystem = createHandlerFileSystem(
      {
        read: (path, signal) => {
          if (signal !== undefined) signals.push(signal);
          return hang ? new Promise(() => {}) : storage.handler.read(path);
        },
        write: storage.handler.write,
      },
      { timeoutMs: 300 },
    );
    const tools = fsToolsOver(fileSystem);
    const started = Date.now();
    expect(await tools.read_file?.({ path: "a.md" }, { timeoutMs: 50 })).toMatchObject({
      error: { code: "TIMEOUT" },
    });
    // write_file holds a.md's lock while its stuck read runs on past the tool's deadline.
    expect(
      await tools.write_file?.({ path: "a.md", content: "B" }, { timeoutMs: 50 }),
    ).toMatchObject({ error: { code: "TIMEOUT" } });
    expect(Date.now() - started).toBeLessThan(250);
    // The seam's own limit ends the stuck calls (their signals abort), so once the storage
    // answers again the same path is free: the next write waits for the lock, then succeeds.
    hang = false;
    expect(await tools.write_file?.({ path: "a.md", content: "B" })).toMatchObject({
      success: true,
    });
    expect(signals.length).toBeGreaterThanOrEqual(2);
    expect(signals.slice(0, 2).every((signal) => signal.aborted)).toBe(true);
    hang = true;
    await expect(fileSystem.readFile("a.md")).rejects.toMatchObject({
      code: "TIMEOUT",
      message: "The host's read handler did not answer within 300 ms for a.md.",
    });
    expect(storage.files.get("a.md")).toBe("B");
  });
});
