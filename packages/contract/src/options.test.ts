import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentoolError } from "./agentool-error.js";
import { parseOptions, toolOverridesShape } from "./options.js";

const schema = z.object({ ...toolOverridesShape, limit: z.number().int().positive().default(5) });

describe("parseOptions", () => {
  it("applies defaults and accepts undefined", () => {
    expect(parseOptions("createThing", schema, undefined)).toEqual({ limit: 5 });
    expect(parseOptions("createThing", schema, { name: "thing", limit: 2 })).toEqual({
      name: "thing",
      limit: 2,
    });
  });

  it("rejects an unknown key and names it and the known ones", () => {
    let caught: unknown;
    try {
      parseOptions("createThing", schema, { limt: 3 });
    } catch (error) {
      caught = error;
    }
    expect(AgentoolError.isInstance(caught)).toBe(true);
    const message = (caught as Error).message;
    expect(message).toContain('createThing: invalid options — (input): unknown field "limt"');
    expect(message).toContain("Known options: name, description, limit.");
  });

  it("names a wrongly typed option and what was expected", () => {
    expect(() => parseOptions("createThing", schema, { limit: "many" })).toThrow(
      /limit: expected number, received string/,
    );
    expect(() => parseOptions("createThing", schema, { name: "Bad Name" })).toThrow(/name:/);
  });
});
