import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkOptionalDependencies,
  DependencyMissingError,
  PREVIEW_DEPENDENCY_INSTALL,
} from "./optional-dependencies.js";
import { startHttpProcess } from "./test-support/http-process.js";
import {
  CLI_PATH,
  PACKAGE_DIRECTORY,
  requireBuiltCli,
  temporaryDirectory,
} from "./test-support/spawn-server.js";

/**
 * A Node loader hook that makes playwright-core unresolvable — as on a machine where the optional
 * peer was not installed — and writes every attempt to resolve it to a log file.
 */
const HOOKS = `import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  if (specifier === "playwright-core" || specifier.startsWith("playwright-core/")) {
    appendFileSync(log, specifier + " from " + context.parentURL + "\\n");
    const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
    error.code = "ERR_MODULE_NOT_FOUND";
    throw error;
  }
  return next(specifier, context);
}
`;

let folder: ReturnType<typeof temporaryDirectory>;
let attempts: string;
let hideImport: string[];

beforeAll(() => {
  requireBuiltCli();
  folder = temporaryDirectory({ "index.html": "<!doctype html><title>x</title>" });
  attempts = join(folder.path, "attempts.log");
  writeFileSync(attempts, "");
  writeFileSync(join(folder.path, "hooks.mjs"), HOOKS);
  writeFileSync(
    join(folder.path, "register.mjs"),
    `import { register } from "node:module";\nregister(new URL("./hooks.mjs", import.meta.url), { data: { log: ${JSON.stringify(attempts)} } });\n`,
  );
  hideImport = ["--import", join(folder.path, "register.mjs")];
});

afterAll(() => folder?.cleanup());

function runToExit(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...hideImport, CLI_PATH, ...args], {
      cwd: PACKAGE_DIRECTORY,
      stdio: ["pipe", "ignore", "pipe"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: folder.path },
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGTERM"), 20_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe("playwright-core, an optional peer", () => {
  it("the default families start and serve without ever resolving playwright-core", async () => {
    writeFileSync(attempts, "");
    const server = await startHttpProcess(
      ["--http", "0", "--no-auth", "--root", folder.path],
      {},
      hideImport,
    );
    const client = new Client({ name: "no-playwright", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(server.url));
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["think", "read_file", "web_fetch"]));
      expect(names).not.toContain("preview");
    } finally {
      await client.close();
      await server.stop();
    }
    expect(readFileSync(attempts, "utf8")).toBe("");
  });

  it("--families preview without it exits 1 with DEPENDENCY_MISSING and the install line", async () => {
    writeFileSync(attempts, "");
    const run = await runToExit(["--root", folder.path, "--families", "core,preview"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "agentool-mcp: Error [DEPENDENCY_MISSING]: the preview family needs playwright-core, which is not installed. Install it next to @agentool/mcp-server: npm install playwright-core",
    );
    expect(run.stderr).not.toContain("listening on");
    // The check really asked the loader for it (the hook saw the attempt).
    expect(readFileSync(attempts, "utf8")).toContain("playwright-core from file://");
  });

  it("--families browser without it exits 1 with DEPENDENCY_MISSING naming the browser family", async () => {
    writeFileSync(attempts, "");
    const run = await runToExit(["--families", "web,browser", "--mode", "read-write"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "agentool-mcp: Error [DEPENDENCY_MISSING]: the browser family needs playwright-core, which is not installed. Install it next to @agentool/mcp-server: npm install playwright-core (and a Chromium, e.g. apt-get install -y chromium), or drop browser from --families.",
    );
    expect(readFileSync(attempts, "utf8")).toContain("playwright-core from file://");
  });

  it("--families preview with it installed starts (the check passes without the hook)", async () => {
    const server = await startHttpProcess([
      "--http",
      "0",
      "--no-auth",
      "--root",
      folder.path,
      "--families",
      "preview",
    ]);
    try {
      expect(server.stderr()).toContain("families preview");
    } finally {
      await server.stop();
    }
  });
});

describe("checkOptionalDependencies", () => {
  it("loads nothing unless preview or browser is asked for", async () => {
    const asked: string[] = [];
    const load = async (specifier: string) => {
      asked.push(specifier);
    };
    await checkOptionalDependencies(["core", "fs", "git", "web", "knowledge", "interact"], load);
    expect(asked).toEqual([]);
    await checkOptionalDependencies(["preview"], load);
    expect(asked).toEqual(["playwright-core"]);
    await checkOptionalDependencies(["web", "browser"], load);
    expect(asked).toEqual(["playwright-core", "playwright-core"]);
  });

  it("turns a failed import into DependencyMissingError naming the install line", async () => {
    const missing = Object.assign(new Error("Cannot find package 'playwright-core'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const error = await checkOptionalDependencies(["preview"], () => Promise.reject(missing)).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DependencyMissingError);
    expect((error as DependencyMissingError).code).toBe("DEPENDENCY_MISSING");
    expect((error as Error).message).toContain("which is not installed");
    expect((error as Error).message).toContain(PREVIEW_DEPENDENCY_INSTALL);
    await expect(
      checkOptionalDependencies(["preview"], () => Promise.reject(new Error("bad build"))),
    ).rejects.toThrow("which does not load (bad build)");
    await expect(
      checkOptionalDependencies(["preview", "browser"], () => Promise.reject(missing)),
    ).rejects.toThrow(
      "the preview and browser families need playwright-core, which is not installed. Install it next to @agentool/mcp-server: npm install playwright-core (and a Chromium, e.g. apt-get install -y chromium), or drop preview and browser from --families.",
    );
  });
});
