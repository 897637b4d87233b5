/** The sandbox every preview frame gets: scripts only, so its origin is opaque. */
export const PREVIEW_FRAME_SANDBOX = "allow-scripts";

/** The shell's policy: no frame of its own may navigate anywhere but to its srcdoc. */
const SHELL_CONTENT_SECURITY_POLICY =
  "frame-src 'none'; child-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

/**
 * The shell frame's document: it holds the artifact's sandboxed frame. The shell's CSP
 * (`frame-src 'none'`) is what Chromium checks on every navigation of the artifact's frame, its
 * own included, so a location change, a link or a meta refresh is refused before any request.
 *
 * @param artifact - the prepared artifact document
 * @param path - the artifact's path (the shell's title)
 * @returns the shell's HTML
 */
export function shellDocument(artifact: string, path: string): string {
  return `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${SHELL_CONTENT_SECURITY_POLICY}"><title>${escapeAttribute(path).replace(/</g, "&lt;")}</title><style>html,body{margin:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100%;height:100%}</style></head><body><iframe sandbox="${PREVIEW_FRAME_SANDBOX}" srcdoc="${escapeAttribute(artifact)}"></iframe></body></html>`;
}
