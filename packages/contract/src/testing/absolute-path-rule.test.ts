import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { normalizeRelativePath } from "../relative-path.js";
import { fail, ok } from "../result.js";
import { withAbsolutePaths } from "./absolute-path-rule.js";
import { checkConformance } from "./check-conformance.js";

const ROOT = "/work/project";

/** A read-only lookup of a path; `acceptsAbsolute` says whether it takes an in-root absolute path. */
function lookup(acceptsAbsolute: boolean) {
  return defineTool({
    name: "look_up",
    description: "Looks a path up in the probe workspace; a probe for the absolute-path rule.",
    annotations: { readOnly: true },
    input: z.object({ path: z.string().describe("A path relative to the root.") }),
    execute: ({ path }) => {
      const normalized = normalizeRelativePath(path, acceptsAbsolute ? { roots: [ROOT] } : {});
      if (normalized.problem !== undefined) return fail("INVALID_PATH", normalized.problem);
      return ok({ path: normalized.path });
    },
  });
}

describe("the absolute-path rule", () => {
  it("writes relative sample paths absolute under the root", () => {
    expect(withAbsolutePaths({ path: "src/a.ts", limit: 3 }, ROOT)).toEqual({
      path: `${ROOT}/src/a.ts`,
      limit: 3,
    });
    expect(withAbsolutePaths({ path: "." }, ROOT)).toEqual({ path: ROOT });
    expect(withAbsolutePaths({ path_prefix: "./docs/" }, `${ROOT}/`)).toEqual({
      path_prefix: `${ROOT}/docs/`,
    });
    expect(withAbsolutePaths({ path: "/elsewhere" }, ROOT)).toBeUndefined();
    expect(withAbsolutePaths({ query: "x" }, ROOT)).toBeUndefined();
  });

  it("passes a tool that takes an absolute path inside the root, reports one that refuses it", async () => {
    const passing = await checkConformance([lookup(true)], {
      samples: { look_up: { path: "src/a.ts" } },
      workspaceRoot: ROOT,
    });
    expect(passing.violations).toEqual([]);
    const refusing = await checkConformance([lookup(false)], {
      samples: { look_up: { path: "src/a.ts" } },
      workspaceRoot: ROOT,
    });
    expect(refusing.violations.map((violation) => violation.rule)).toEqual(["absolute-path"]);
  });
});
