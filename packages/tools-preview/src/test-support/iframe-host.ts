// The host page's script for the iframe backend test: bundled with the package's root entry and
// loaded in Chromium. Exposes `window.previewHost.run(input, threadId)`.
import { createPreviewTool } from "../index.js";

declare global {
  interface Window {
    previewHost: { run(input: unknown, threadId: string): Promise<unknown>; frames(): string[] };
    ARTIFACTS: Record<string, string>;
    /** Binary files, base64. */
    BINARY_ARTIFACTS?: Record<string, string>;
  }
}

const tool = createPreviewTool({
  read: async (path) => {
    const binary = window.BINARY_ARTIFACTS?.[path];
    if (binary !== undefined)
      return Uint8Array.from(atob(binary), (character) => character.charCodeAt(0));
    if (/(^|\/)\.env$/.test(path))
      throw Object.assign(new Error(`${path} is a secret`), { code: "BLOCKED" });
    const html = window.ARTIFACTS[path];
    if (html === undefined)
      throw Object.assign(new Error(`${path} is missing`), { code: "FILE_NOT_FOUND" });
    return html;
  },
  timeoutMs: 4_000,
  idleMs: 60_000,
});

window.previewHost = {
  run: (input, threadId) => tool.run(input, { threadId }),
  frames: () =>
    Array.from(
      document.querySelectorAll("iframe"),
      (frame) => frame.getAttribute("sandbox") ?? "(none)",
    ),
};
localStorage.setItem("host-secret", "do-not-leak");
// biome-ignore lint/suspicious/noDocumentCookie: the test plants a host cookie the artifact must not reach
document.cookie = "host_cookie=secret";
