// Every package that is published carries what npm and the MCP Registry show a user: where the
// code lives, where to report a bug, what it is about, which Node it runs on, and its README.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const repository = resolve(import.meta.dirname, "../../..");

interface Manifest {
  name: string;
  private?: boolean;
  description?: string;
  license?: string;
  repository?: { type?: string; url?: string; directory?: string };
  homepage?: string;
  bugs?: { url?: string };
  keywords?: string[];
  engines?: { node?: string };
  files?: string[];
  publishConfig?: { access?: string };
}

/** Every workspace package under packages/ and apps/, with its folder relative to the root. */
function workspacePackages(): Array<{ folder: string; manifest: Manifest }> {
  return ["packages", "apps"].flatMap((group) =>
    readdirSync(join(repository, group))
      .map((name) => `${group}/${name}`)
      .filter((folder) => existsSync(join(repository, folder, "package.json")))
      .map((folder) => ({
        folder,
        manifest: JSON.parse(
          readFileSync(join(repository, folder, "package.json"), "utf8"),
        ) as Manifest,
      })),
  );
}

const published = workspacePackages().filter(({ manifest }) => manifest.private !== true);

describe("published package metadata", () => {
  it("finds the published packages", () => {
    expect(published.map(({ manifest }) => manifest.name)).toContain("@agentool/contract");
    expect(published.length).toBeGreaterThanOrEqual(10);
  });

  it.each(published.map((entry) => [entry.manifest.name, entry] as const))(
    "%s names its repository folder, homepage, bug tracker, keywords, Node range and README",
    (_name, { folder, manifest }) => {
      expect(manifest.description?.length ?? 0).toBeGreaterThan(20);
      expect(manifest.license).toBe("MIT");
      expect(manifest.repository).toEqual({
        type: "git",
        url: "git+https://github.com/agentool/agentool.git",
        directory: folder,
      });
      expect(manifest.homepage).toBe(
        `https://github.com/agentool/agentool/tree/main/${folder}#readme`,
      );
      expect(manifest.bugs?.url).toBe("https://github.com/agentool/agentool/issues");
      expect(manifest.keywords?.length ?? 0).toBeGreaterThanOrEqual(3);
      expect(manifest.engines?.node).toBe(">=20.19");
      expect(manifest.files).toContain("README.md");
      expect(manifest.publishConfig?.access).toBe("public");
      expect(existsSync(join(repository, folder, "README.md"))).toBe(true);
    },
  );
});
