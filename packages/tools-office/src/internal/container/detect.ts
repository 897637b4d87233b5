import { ToolFailureError } from "@agentool/contract";

/**
 * What a file's first bytes say, before its extension is trusted: a zip (OOXML, OpenDocument,
 * EPUB), an OLE compound file (a password-protected OOXML file, or a legacy .doc/.xls/.ppt), a
 * PDF, or something else.
 *
 * @internal
 */

/** A container family told by magic bytes. */
export type ContainerKind = "zip" | "ole" | "pdf" | "other";

/**
 * Tells the container from the first bytes.
 *
 * @param bytes - the file (or its first 8 bytes)
 * @returns the kind
 */
export function containerKind(bytes: Uint8Array): ContainerKind {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)) return "zip";
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0)
    return "ole";
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  if (head.includes("%PDF-")) return "pdf";
  return "other";
}

const ENCRYPTED_PACKAGE = new Uint8Array(
  Array.from("EncryptedPackage").flatMap((character) => [character.charCodeAt(0), 0]),
);

function includesBytes(haystack: Uint8Array, needle: Uint8Array): boolean {
  const first = needle[0];
  outer: for (
    let at = haystack.indexOf(first ?? 0);
    at >= 0;
    at = haystack.indexOf(first ?? 0, at + 1)
  ) {
    if (at + needle.length > haystack.length) return false;
    for (let index = 1; index < needle.length; index += 1) {
      if (haystack[at + index] !== needle[index]) continue outer;
    }
    return true;
  }
  return false;
}

/**
 * The failure for an OLE compound file where a zip-based document was expected: a
 * password-protected Office file (it holds an `EncryptedPackage` stream) or a legacy binary
 * Office file.
 *
 * @param bytes - the file
 * @param label - its display path
 * @returns the error to throw (`UNSUPPORTED`, saying which)
 */
export function oleFailure(bytes: Uint8Array, label: string): ToolFailureError {
  if (includesBytes(bytes, ENCRYPTED_PACKAGE)) {
    return new ToolFailureError(
      "UNSUPPORTED",
      `${label} is encrypted (password-protected Office file) — encrypted documents are not read.`,
      {
        hint: "Ask the user for an unencrypted copy (in Office: File › Info › Protect › remove the password).",
      },
    );
  }
  return new ToolFailureError(
    "UNSUPPORTED",
    `${label} is a legacy binary Office file (.doc/.xls/.ppt, OLE compound format), which is not read.`,
    {
      hint: "Convert it first, e.g. `libreoffice --headless --convert-to docx FILE` (or xlsx/pptx), then read the converted file.",
    },
  );
}
