import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The README's find_references ground truth, CI-sized: the script compares find_references (from
// dist/) with the TypeScript language service's findReferences on zod's shipped sources, for 12
// sampled symbols, and the floors below pin what the README reports (recall is the promise;
// precision is what following imports and Type.member buy over plain text; never lower a floor).
const require = createRequire(import.meta.url);
const script = fileURLToPath(new URL("../scripts/ground-truth-references.mjs", import.meta.url));

function zodSources(): string | undefined {
  try {
    const source = join(dirname(require.resolve("zod/package.json")), "src");
    return existsSync(source) ? source : undefined;
  } catch {
    return undefined;
  }
}

/** Floors of the 12-symbol run (measured 1.000 and 0.836; plain exports 0.838). */
const PRECISION_DEFINED_IN = 0.9;
const PRECISION_TYPE_MEMBER = 0.7;

describe("find_references against the TypeScript language service", () => {
  const folder = zodSources();
  it.runIf(folder !== undefined)(
    "finds nearly every type-resolved reference on zod's sources",
    () => {
      const out = execFileSync(process.execPath, [script, folder as string, "--symbols", "12"], {
        encoding: "utf8",
        maxBuffer: 16 * 1024 * 1024,
      });
      const rows = new Map(
        out
          .split("\n")
          .filter((line) => /^\| (top|class|members|all)/.test(line))
          .map((line) => {
            const cells = line.split("|").map((cell) => cell.trim());
            return [cells[1], { precision: Number(cells[6]), recall: Number(cells[7]) }] as const;
          }),
      );
      expect(rows.get("top-level exports")?.recall).toBeGreaterThanOrEqual(0.95);
      expect(rows.get("all (top-level + Type.member)")?.recall).toBeGreaterThanOrEqual(0.9);
      expect(rows.get("top-level exports")?.precision).toBeGreaterThanOrEqual(0.7);
      // Following imports: one definition's references, with defined_in.
      const narrowed = rows.get("top-level exports, with defined_in");
      expect(narrowed?.recall).toBeGreaterThanOrEqual(0.95);
      expect(narrowed?.precision).toBeGreaterThanOrEqual(PRECISION_DEFINED_IN);
      // Members asked as Type.member.
      const qualified = rows.get("members as Type.member");
      expect(qualified?.recall).toBeGreaterThanOrEqual(0.95);
      expect(qualified?.precision).toBeGreaterThanOrEqual(PRECISION_TYPE_MEMBER);
    },
    300_000,
  );
});
