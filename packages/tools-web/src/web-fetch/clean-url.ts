import { fail, type ToolFailure } from "@agentool/contract";

/**
 * Checks and normalises the model's URL: absolute, http(s), no embedded credentials, no fragment.
 *
 * @param raw - the URL as sent
 * @returns the URL, or the failure to report
 */
export function cleanUrl(raw: string): { url: string } | { failure: ToolFailure } {
  const trimmed = raw.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return {
      failure: fail("INVALID_INPUT", `"${trimmed.slice(0, 200)}" is not an absolute URL.`, {
        hint: /^[\w.-]+\.[a-z]{2,}/i.test(trimmed)
          ? `Add the scheme: https://${trimmed.slice(0, 200)}`
          : "Pass a full http(s) URL, e.g. https://example.com/page.",
      }),
    };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return {
      failure: fail(
        "BLOCKED",
        `Only http: and https: URLs can be fetched, not ${parsed.protocol}.`,
        {
          hint: "Pass an http(s) URL; local files are read with the file tools, if any.",
        },
      ),
    };
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return {
      failure: fail("BLOCKED", "URLs with embedded credentials (user:password@) are not fetched.", {
        hint: "Remove the credentials from the URL; authenticated access is host configuration.",
      }),
    };
  }
  parsed.hash = "";
  return { url: parsed.href };
}
