import { AgentoolError } from "@agentool/contract";
import { httpUrl } from "../internal/text.js";

/** Checks the key and endpoint of a keyed provider at set-up time. */
export function checkKeyedOptions(
  owner: string,
  options: { apiKey?: unknown; endpoint?: unknown } | undefined,
  defaultEndpoint: string,
): { apiKey: string; endpoint: string } {
  if (typeof options?.apiKey !== "string" || options.apiKey.trim().length === 0) {
    throw new AgentoolError(
      `${owner}: \`apiKey\` is required (the provider's key, or your gateway's token). It is host configuration, never model input.`,
    );
  }
  const endpoint = options.endpoint === undefined ? defaultEndpoint : httpUrl(options.endpoint);
  if (endpoint === undefined) {
    throw new AgentoolError(`${owner}: \`endpoint\` must be an absolute http(s) URL.`);
  }
  return { apiKey: options.apiKey, endpoint };
}
