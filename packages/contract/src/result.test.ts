import { describe, expect, it } from "vitest";
import { ERROR_CODES, isErrorCode } from "./error-codes.js";
import { fail, isToolResult, ok } from "./result.js";

describe("envelope", () => {
  it("ok wraps data", () => {
    expect(ok({ a: 1 })).toEqual({ success: true, data: { a: 1 } });
  });

  it("fail builds an error with optional hint and retryable only when given", () => {
    expect(fail("TIMEOUT", "slow")).toEqual({
      success: false,
      error: { code: "TIMEOUT", message: "slow" },
    });
    expect(fail("TIMEOUT", "slow", { hint: "retry", retryable: true })).toEqual({
      success: false,
      error: { code: "TIMEOUT", message: "slow", hint: "retry", retryable: true },
    });
  });

  it("recognises well-formed envelopes only", () => {
    expect(isToolResult(ok(undefined))).toBe(true);
    expect(isToolResult(fail("INTERNAL", "x"))).toBe(true);
    expect(isToolResult({ success: true })).toBe(false);
    expect(isToolResult({ success: false, error: { code: "NOPE", message: "x" } })).toBe(false);
    expect(isToolResult({ success: false, error: { code: "INTERNAL", message: "" } })).toBe(false);
    expect(
      isToolResult({ success: false, error: { code: "INTERNAL", message: "x", hint: 3 } }),
    ).toBe(false);
    expect(isToolResult(null)).toBe(false);
    expect(isToolResult("ok")).toBe(false);
  });

  it("has the closed list of codes from the design", () => {
    expect(ERROR_CODES).toHaveLength(20);
    expect(ERROR_CODES).toContain("CONFLICT");
    expect(isErrorCode("BLOCKED")).toBe(true);
    expect(isErrorCode("blocked")).toBe(false);
  });
});
