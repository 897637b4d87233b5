import {
  containsPrivateKey,
  createPrivateKeyLineScanner,
  PRIVATE_KEY_REDACTION,
} from "@agentool/contract";
import type { FileSystem } from "../file-system.js";
import type { SearchFileResult, SearchLine } from "./search-types.js";

/** Largest file read whole to locate its key blocks exactly (beyond it: suspicious lines go). */
const MAX_KEY_SCAN_BYTES = 16 * 1024 * 1024;

/** A line of base64 (the body of a PEM, OpenSSH or PuTTY key). Anchored, one class: linear. */
const BASE64_LINE = /^[A-Za-z0-9+/=]{4,}$/;

/**
 * Whether a (trimmed) line looks like the base64 body of a key: base64 of key material mixes
 * digits, `+/=` or both cases; a plain word (`constructor`) does not.
 *
 * @param text - the line, trimmed
 * @returns whether it could be a line of a key's body
 */
function looksLikeKeyBase64(text: string): boolean {
  if (!BASE64_LINE.test(text)) return false;
  return /[0-9+/=]/.test(text) || (/[a-z]/.test(text) && /[A-Z]/.test(text));
}

/** The header names key armour carries before its body (PGP, encrypted PEM, PuTTY). */
const ARMOUR_HEADER =
  /^(?:Version|Comment|Hash|Charset|MessageID|Proc-Type|DEK-Info|Encryption|Public-Lines|Private-Lines|Key-Derivation|Argon2-[A-Za-z]+): /;

/**
 * Whether a (trimmed) line could sit inside key armour before its END line: a body line of
 * base64 (at most 100 characters, both letter cases — real bodies are 64–76 characters wide, so
 * a hex digest or a number is not one), a PGP checksum (`=` and a few characters), an armour
 * header (`Version: …`, `Proc-Type: …`) or the blank line after the headers.
 *
 * @param text - the line, trimmed
 * @returns whether it could be part of a key block between BEGIN and END
 */
export function looksLikeArmourLine(text: string): boolean {
  if (text.length === 0 || ARMOUR_HEADER.test(text)) return true;
  if (text.length > 100 || !BASE64_LINE.test(text)) return false;
  if (text.startsWith("=")) return text.length <= 8;
  return /[a-z]/.test(text) && /[A-Z]/.test(text);
}

/** Whether a shown line could belong to a private key: a marker, or a line of bare base64. */
function suspicious(text: string): boolean {
  const trimmed = text.trim();
  return (
    trimmed.includes("PRIVATE KEY") ||
    trimmed.includes("PuTTY-User-Key-File-") ||
    trimmed.startsWith("Private-") ||
    looksLikeKeyBase64(trimmed)
  );
}

/** The 1-based numbers of the lines of `text` that belong to a key block, among `wanted`. */
function keyLineNumbers(text: string, wanted: ReadonlySet<number>, last: number): Set<number> {
  const found = new Set<number>();
  const isKeyLine = createPrivateKeyLineScanner();
  let start = 0;
  for (let number = 1; number <= last && start <= text.length; number += 1) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    if (isKeyLine(text.slice(start, end)) && wanted.has(number)) found.add(number);
    if (newline === -1) break;
    start = newline + 1;
  }
  return found;
}

function redactLine(line: SearchLine): SearchLine {
  return { line: line.line, text: PRIVATE_KEY_REDACTION, kind: line.kind };
}

/**
 * Redacts the lines of a grep page that belong to a private key. Only a file whose shown lines
 * look like key material (a BEGIN/END or PuTTY marker, or bare base64) is read — whole, up to
 * 16 MiB — to find its key blocks exactly; an ordinary page costs no extra read. A file that
 * cannot be read (or is larger) loses every suspicious line instead.
 *
 * @param files - the page's files (content mode)
 * @param fileSystem - the workspace's file system (paths are workspace paths)
 * @returns the files, key lines replaced by `[private key redacted]`
 */
export async function redactPrivateKeyLines(
  files: readonly SearchFileResult[],
  fileSystem: FileSystem,
): Promise<SearchFileResult[]> {
  return Promise.all(
    files.map(async (file) => {
      const flagged = file.lines.filter((line) => suspicious(line.text));
      if (flagged.length === 0) return file;
      let keyLines: Set<number> | undefined;
      try {
        const stat = await fileSystem.stat(file.path);
        if (stat !== undefined && stat.type === "file" && stat.size <= MAX_KEY_SCAN_BYTES) {
          const text = new TextDecoder("utf-8").decode(await fileSystem.readFile(file.path));
          const wanted = new Set(file.lines.map((line) => line.line));
          const last = file.lines.reduce((most, line) => Math.max(most, line.line), 0);
          keyLines = containsPrivateKey(text) ? keyLineNumbers(text, wanted, last) : new Set();
        }
      } catch {
        keyLines = undefined;
      }
      const redact = (line: SearchLine) =>
        keyLines === undefined ? suspicious(line.text) : keyLines.has(line.line);
      if (!file.lines.some(redact)) return file;
      return { ...file, lines: file.lines.map((line) => (redact(line) ? redactLine(line) : line)) };
    }),
  );
}
