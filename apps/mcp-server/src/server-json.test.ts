import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FLAGS } from "./flags.js";

interface Manifest {
  name: string;
  version: string;
  mcpName?: string;
  files?: string[];
  bin?: Record<string, string>;
  repository?: { url?: string; directory?: string };
  homepage?: string;
}

interface ServerJson {
  $schema: string;
  name: string;
  description: string;
  version: string;
  repository?: { url: string; source: string; subfolder?: string };
  websiteUrl?: string;
  packages: {
    registryType: string;
    registryBaseUrl?: string;
    identifier: string;
    version: string;
    transport: { type: string };
    packageArguments?: { type: string; name?: string; choices?: string[] }[];
    environmentVariables?: { name: string; isSecret?: boolean; isRequired?: boolean }[];
  }[];
}

const manifest = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
) as Manifest;
const server = JSON.parse(
  readFileSync(new URL("../server.json", import.meta.url), "utf8"),
) as ServerJson;

describe("server.json, the MCP Registry entry", () => {
  it("agrees with package.json: name = mcpName, the versions, the npm identifier", () => {
    expect(manifest.mcpName).toBe("io.github.agentool/mcp-server");
    expect(server.name).toBe(manifest.mcpName);
    expect(server.version).toBe(manifest.version);
    expect(server.packages).toHaveLength(1);
    const [npm] = server.packages;
    expect(npm).toMatchObject({
      registryType: "npm",
      identifier: manifest.name,
      version: manifest.version,
      transport: { type: "stdio" },
    });
    // The registry's default for npm; no registry host name is committed.
    expect(npm?.registryBaseUrl).toBeUndefined();
  });

  it("is published with the package and follows the registry's schema rules", () => {
    expect(manifest.files).toContain("server.json");
    expect(server.$schema).toBe(
      "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
    );
    // The schema: one slash in a reverse-DNS name, a description of at most 100 characters.
    expect(server.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(server.description.length).toBeGreaterThan(0);
    expect(server.description.length).toBeLessThanOrEqual(100);
    // A GitHub namespace is proven by the GitHub owner of the repository.
    const owner = /^io\.github\.([^/]+)\//.exec(server.name)?.[1];
    expect(server.repository?.url).toBe(`https://github.com/${owner}/agentool`);
    expect(manifest.repository?.url).toContain(`github.com/${owner}/agentool`);
    expect(server.repository?.subfolder).toBe(manifest.repository?.directory);
    expect(server.websiteUrl).toBe(manifest.homepage);
  });

  it("names only flags the bin has, with the choices it accepts", () => {
    const flags = new Set(FLAGS.map((flag) => `--${flag.name}`));
    for (const argument of server.packages[0]?.packageArguments ?? []) {
      expect(argument.type).toBe("named");
      expect(flags.has(argument.name as string), argument.name).toBe(true);
    }
    const mode = server.packages[0]?.packageArguments?.find((entry) => entry.name === "--mode");
    expect(mode?.choices).toEqual(["read-only", "read-write"]);
  });

  it("declares the Figma token as an optional secret the bin reads from its environment", () => {
    const variables = server.packages[0]?.environmentVariables ?? [];
    expect(variables).toEqual([
      expect.objectContaining({ name: "FIGMA_API_KEY", isSecret: true, isRequired: false }),
    ]);
    const help = readFileSync(new URL("./command-line.ts", import.meta.url), "utf8");
    expect(help).toContain("FIGMA_API_KEY");
  });
});
