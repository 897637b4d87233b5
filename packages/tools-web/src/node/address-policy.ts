// The classification is runtime-neutral (no node: imports) so the root entry can use it too.
export * from "../internal/address-policy.js";
