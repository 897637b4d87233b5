import { describe, expect, it } from "vitest";
import { subscribeToAbort } from "./abort-listeners.js";

describe("subscribeToAbort", () => {
  it("calls every subscribed callback once, but not unsubscribed ones", () => {
    const controller = new AbortController();
    const called: string[] = [];
    subscribeToAbort(controller.signal, () => called.push("a"));
    const unsubscribe = subscribeToAbort(controller.signal, () => called.push("b"));
    subscribeToAbort(controller.signal, () => {
      throw new Error("broken callback");
    });
    subscribeToAbort(controller.signal, () => called.push("c"));
    unsubscribe();
    controller.abort();
    controller.abort();
    expect(called).toEqual(["a", "c"]);
  });

  it("keeps signals apart", () => {
    const first = new AbortController();
    const second = new AbortController();
    const called: string[] = [];
    subscribeToAbort(first.signal, () => called.push("first"));
    subscribeToAbort(second.signal, () => called.push("second"));
    second.abort();
    expect(called).toEqual(["second"]);
  });
});
