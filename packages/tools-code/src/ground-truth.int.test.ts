import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The README's ground truth, CI-sized: the scripts compare the engine (from dist/) with the
// TypeScript compiler API on zod's shipped sources and TypeScript's lib.*.d.ts, and with Python's
// ast on the standard library when a python3 with one is installed.
const require = createRequire(import.meta.url);
const scripts = fileURLToPath(new URL("../scripts/", import.meta.url));

function table(script: string, paths: string[]): Array<{ precision: number; recall: number }> {
  const out = execFileSync(process.execPath, [join(scripts, script), ...paths], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return out
    .split("\n")
    .filter(
      (line) =>
        /^\| [a-z]/.test(line) &&
        !line.startsWith("| declarations") &&
        !line.startsWith("| definitions"),
    )
    .map((line) => {
      const cells = line.split("|").map((cell) => cell.trim());
      return { precision: Number(cells[5]), recall: Number(cells[6]) };
    });
}

describe("ground truth", () => {
  it("TypeScript: declarations agree with the compiler API (zod's src, lib.*.d.ts)", () => {
    const zod = join(dirname(require.resolve("zod/package.json")), "src");
    const lib = join(dirname(require.resolve("typescript/package.json")), "lib");
    const libFiles = readdirSync(lib)
      .filter((name) => /^lib\..*\.d\.ts$/.test(name))
      .map((name) => join(lib, name));
    const rows = table("ground-truth-typescript.mjs", [zod, ...libFiles]);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.precision).toBeGreaterThanOrEqual(0.98);
      expect(row.recall).toBeGreaterThanOrEqual(0.98);
    }
  }, 120_000);

  const python = ["/usr/lib/python3.11", "/usr/lib/python3.12", "/usr/lib/python3.13"].find(
    (path) => existsSync(join(path, "json")),
  );
  it.skipIf(python === undefined)(
    "Python: definitions agree with ast (json, email, asyncio)",
    () => {
      const base = python as string;
      const rows = table(
        "ground-truth-python.mjs",
        ["json", "email", "asyncio"].map((name) => join(base, name)),
      );
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.precision).toBeGreaterThanOrEqual(0.98);
        expect(row.recall).toBeGreaterThanOrEqual(0.98);
      }
    },
    120_000,
  );
});
