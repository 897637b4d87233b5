import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareClientWorkspace } from "../test-support/client-workspace.js";
import { type HttpProcess, startHttpProcess } from "../test-support/http-process.js";
import { CLI_PATH, type temporaryDirectory } from "../test-support/spawn-server.js";
import {
  APPLICABLE_SCENARIOS,
  HTTP_ONLY_REASON,
  NOT_APPLICABLE_SCENARIOS,
} from "./conformance-scenarios.js";
import {
  type Node22Run,
  type Node22Toolbox,
  runNode22,
  TOOLBOX_INSTALL_TIMEOUT_MS,
} from "./node22.js";
import { type StdioRelay, startStdioRelay } from "./stdio-relay.js";

// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, Node >= 22) run by
// the toolbox's Node 22 against the built agentool-mcp: over Streamable HTTP (`--http 0
// --no-auth`, loopback) with every server scenario, and over stdio through stdio-relay.ts (the
// suite only speaks HTTP) with the scenarios that do not test the HTTP transport itself. Each
// applicable scenario must pass; every other scenario the suite lists must be in
// conformance-scenarios.ts with its reason, and fail the way the reason says.

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | string;
  errorMessage?: string;
}

let toolbox: Node22Toolbox;
let workspace: ReturnType<typeof temporaryDirectory>;
let serverArgs: string[];

beforeAll(async () => {
  ({ toolbox, workspace, serverArgs } = await prepareClientWorkspace(
    {
      "project/README.md": "# Project\n",
      "skills/review-code/SKILL.md":
        "---\nname: review-code\ndescription: Review a change before it is merged.\n---\n# Review\n",
    },
    (path) => [
      "--root",
      join(path, "project"),
      "--skills-dir",
      join(path, "skills"),
      "--memory-dir",
      join(path, "memory"),
    ],
  ));
}, TOOLBOX_INSTALL_TIMEOUT_MS);

afterAll(() => workspace?.cleanup());

describe("the README's Tested with real clients section", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("## Tested with real clients"));

  it("names every applicable scenario and every other one with its reason", () => {
    expect(section.length).toBeLessThan(readme.length);
    for (const { scenario } of APPLICABLE_SCENARIOS) expect(section).toContain(`\`${scenario}\``);
    for (const { scenario, reason } of NOT_APPLICABLE_SCENARIOS) {
      expect(section).toContain(`| \`${scenario}\` | ${reason} |`);
    }
  });
});

function conformance(args: readonly string[]): Promise<Node22Run> {
  return runNode22(toolbox, [toolbox.entries.conformance, ...args], {
    cwd: workspace.path,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: workspace.path },
    timeoutMs: 180_000,
  });
}

/** Each scenario's checks, from the `server-<scenario>-<timestamp>/checks.json` the suite saved. */
function readResults(directory: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const entry of readdirSync(directory)) {
    const scenario = entry.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    const checks = JSON.parse(readFileSync(join(directory, entry, "checks.json"), "utf8"));
    results.set(scenario, checks as Check[]);
  }
  return results;
}

/** Every string in the checks (error messages, the details of the requests and responses). */
function texts(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(texts);
  return [];
}

function expectPassed(scenario: string, checks: Check[] | undefined): void {
  expect(checks, `${scenario} was not run`).toBeDefined();
  const verdicts = (checks ?? []).filter((check) => check.status !== "INFO");
  const failed = verdicts.filter((check) => check.status !== "SUCCESS");
  expect(failed, `${scenario}: ${JSON.stringify(failed, null, 2)}`).toEqual([]);
  expect(verdicts.length, `${scenario} made no check`).toBeGreaterThan(0);
}

describe("MCP conformance suite 0.1.16 under Node 22", { timeout: 60_000 }, () => {
  let listed: string[];

  beforeAll(async () => {
    const run = await conformance(["list", "--server"]);
    expect(run.code, run.stderr).toBe(0);
    listed = [...run.stdout.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1] as string);
  });

  it("lists server scenarios, and each is classified exactly once here", () => {
    expect(listed.length).toBeGreaterThan(0);
    const classified = [
      ...APPLICABLE_SCENARIOS.map((entry) => entry.scenario),
      ...NOT_APPLICABLE_SCENARIOS.map((entry) => entry.scenario),
    ];
    expect(new Set(classified).size).toBe(classified.length);
    expect([...classified].sort()).toEqual([...listed].sort());
  });

  describe("over Streamable HTTP (agentool-mcp --http 0 --no-auth)", () => {
    let server: HttpProcess;
    let results: Map<string, Check[]>;

    beforeAll(async () => {
      server = await startHttpProcess([...serverArgs, "--http", "0", "--no-auth"]);
      const output = join(workspace.path, "results-http");
      mkdirSync(output);
      // every server scenario, pending ones included; the exit code is 1 while any fails
      await conformance(["server", "--url", server.url.href, "--suite", "all", "-o", output]);
      results = readResults(output);
    }, 180_000);

    afterAll(() => server?.stop());

    it.each(APPLICABLE_SCENARIOS.map((entry) => entry.scenario))("%s passes", (scenario) => {
      expectPassed(scenario, results.get(scenario));
    });

    it.each(NOT_APPLICABLE_SCENARIOS.map((entry) => [entry.scenario, entry]))(
      "%s does not apply, and fails for that reason",
      (scenario, entry) => {
        const checks = results.get(scenario);
        expect(checks, `${scenario} was not run`).toBeDefined();
        expect(checks?.filter((check) => check.status === "SUCCESS")).toEqual([]);
        expect(texts(checks).join("\n"), `${scenario}: ${entry.reason}`).toMatch(entry.failsWith);
      },
    );
  });

  describe("over stdio (stdio-relay.ts: each HTTP session spawns agentool-mcp over stdio)", () => {
    let relay: StdioRelay;
    const results = new Map<string, Check[]>();
    const overStdio = APPLICABLE_SCENARIOS.filter((entry) => entry.overStdio);

    beforeAll(async () => {
      relay = await startStdioRelay({
        command: process.execPath,
        args: [CLI_PATH, ...serverArgs],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: workspace.path },
      });
      for (const { scenario } of overStdio) {
        const output = join(workspace.path, `results-stdio-${scenario}`);
        mkdirSync(output);
        await conformance([
          "server",
          "--url",
          relay.url.href,
          "--scenario",
          scenario,
          "-o",
          output,
        ]);
        for (const [name, checks] of readResults(output)) results.set(name, checks);
      }
    }, 180_000);

    afterAll(() => relay?.close());

    it.each(overStdio.map((entry) => entry.scenario))("%s passes", (scenario) => {
      expectPassed(scenario, results.get(scenario));
    });

    it("reached agentool over stdio (one stdio server per scenario session)", () => {
      expect(relay.sessionsStarted()).toBeGreaterThanOrEqual(overStdio.length);
    });

    it.each(
      APPLICABLE_SCENARIOS.filter((entry) => !entry.overStdio).map((entry) => entry.scenario),
    )(`%s is not run over stdio: ${HTTP_ONLY_REASON}`, (scenario) => {
      expect(results.has(scenario)).toBe(false);
    });
  });
});
