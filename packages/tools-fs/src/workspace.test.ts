import { describe, expect, it } from "vitest";
import { FileSystemError } from "./file-system.js";
import { createMemoryFileSystem } from "./memory-file-system.js";
import { createWorkspace, normalizeWorkspacePath } from "./workspace.js";

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return FileSystemError.isInstance(error) ? error.code : `thrown: ${String(error)}`;
  }
}

describe("normalizeWorkspacePath", () => {
  it("normalises ./, //, \\ and inner .. that stay inside", () => {
    expect(normalizeWorkspacePath("./src//a.ts", "/repo")).toBe("src/a.ts");
    expect(normalizeWorkspacePath("src\\lib\\..\\a.ts", "/repo")).toBe("src/a.ts");
    expect(normalizeWorkspacePath("", "/repo")).toBe("");
    expect(normalizeWorkspacePath(".", "/repo")).toBe("");
    expect(normalizeWorkspacePath("/repo/src/a.ts", "/repo")).toBe("src/a.ts");
    expect(normalizeWorkspacePath("/repo", "/repo")).toBe("");
  });

  it("refuses escapes, NUL bytes, home and drive paths, and sibling prefixes", () => {
    for (const attack of [
      "../etc/passwd",
      "src/../../x",
      "..\\..\\windows",
      "/etc/passwd",
      "/repo-evil/a.txt",
      "/repository/a.txt",
      "a\0b",
      "~/.ssh/id_rsa",
      "~",
      "C:/Windows/system32",
      "C:\\Windows",
      "//server/share",
    ]) {
      expect(() => normalizeWorkspacePath(attack, "/repo"), attack).toThrow(FileSystemError);
    }
  });
});

describe("createWorkspace", () => {
  const fileSystem = createMemoryFileSystem(
    {
      "README.md": "# Demo",
      ".env": "API_KEY=1",
      ".env.example": "API_KEY=",
      "config/.env.production": "X=1",
      "deploy/server.pem": "-----BEGIN",
      "home/.ssh/id_ed25519": "key",
      ".git/config": "[remote]",
      ".git/HEAD": "ref: refs/heads/main",
      "docs/guide.md": "# Guide",
    },
    { symlinks: { "innocent.txt": ".env", "docs-link": "docs", escape: "/etc", up: "../.." } },
  );
  const workspace = createWorkspace({ fileSystem });

  it("resolves ordinary paths, following symlinks inside the root", async () => {
    expect(await workspace.resolve("docs-link/guide.md")).toEqual({
      path: "docs-link/guide.md",
      real: "docs/guide.md",
      display: "docs-link/guide.md",
    });
    expect((await workspace.resolve(undefined)).display).toBe(".");
  });

  it("refuses secret paths directly, in subdirectories and through symlinks", async () => {
    for (const path of [
      ".env",
      "config/.env.production",
      "deploy/server.pem",
      "home/.ssh/id_ed25519",
      "home/.ssh",
      ".git/config",
      "innocent.txt",
    ]) {
      expect(await codeOf(workspace.resolve(path)), path).toBe("BLOCKED");
    }
    expect(await codeOf(workspace.resolve(".env.example"))).toBeUndefined();
    expect(await codeOf(workspace.resolve(".git/HEAD"))).toBeUndefined();
  });

  it("refuses symlinks that lead outside and the root where it is not allowed", async () => {
    expect(await codeOf(workspace.resolve("escape/passwd"))).toBe("INVALID_PATH");
    expect(await codeOf(workspace.resolve("up/x"))).toBe("INVALID_PATH");
    expect(await codeOf(workspace.resolve("../README.md"))).toBe("INVALID_PATH");
    expect(await codeOf(workspace.resolve(".", { allowRoot: false }))).toBe("INVALID_PATH");
  });

  it("names the argument in messages", async () => {
    await expect(workspace.resolve("../x", { argument: "destination" })).rejects.toThrow(
      /destination/,
    );
  });

  it("lets hosts replace the secret list", async () => {
    const strict = createWorkspace({ fileSystem, secretPaths: ["docs/**"], secretExceptions: [] });
    expect(await codeOf(strict.resolve("docs/guide.md"))).toBe("BLOCKED");
    expect(await codeOf(strict.resolve(".env"))).toBeUndefined();
  });

  it("serialises work on the same path and keeps going after a failure", async () => {
    const order: string[] = [];
    const slow = workspace.withLock("a", async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push("first");
      throw new Error("first failed");
    });
    const fast = workspace.withLock("a", async () => {
      order.push("second");
      return 2;
    });
    const other = workspace.withLock("b", async () => {
      order.push("other path");
      return 3;
    });
    await expect(slow).rejects.toThrow("first failed");
    expect(await fast).toBe(2);
    expect(await other).toBe(3);
    expect(order).toEqual(["other path", "first", "second"]);
  });
});
