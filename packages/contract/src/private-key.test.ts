import { describe, expect, it } from "vitest";
import {
  containsPrivateKey,
  createPrivateKeyLineScanner,
  findPrivateKeys,
  PRIVATE_KEY_REDACTION,
  redactPrivateKeys,
} from "./private-key.js";

const BODY =
  "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nZmFrZSBrZXkgbWF0ZXJpYWwgZm9yIHRlc3Rz\n";

function pem(label: string): string {
  return `-----BEGIN ${label}-----\n${BODY}-----END ${label}-----`;
}

const PUTTY_KEY = [
  "PuTTY-User-Key-File-3: ssh-ed25519",
  "Encryption: none",
  "Comment: test",
  "Public-Lines: 2",
  "AAAAC3NzaC1lZDI1NTE5AAAAIG",
  "Private-Lines: 1",
  "AAAAIFNFQ1JFVA==",
  "Private-MAC: 0123456789abcdef",
].join("\n");

describe("containsPrivateKey / redactPrivateKeys", () => {
  it.each([
    "PRIVATE KEY",
    "RSA PRIVATE KEY",
    "EC PRIVATE KEY",
    "DSA PRIVATE KEY",
    "OPENSSH PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
    "PGP PRIVATE KEY BLOCK",
  ])("finds and redacts a %s block", (label) => {
    const text = `before\n${pem(label)}\nafter\n`;
    expect(containsPrivateKey(text)).toBe(true);
    expect(redactPrivateKeys(text)).toBe(`before\n${PRIVATE_KEY_REDACTION}\nafter\n`);
  });

  it("finds and redacts a PuTTY key file", () => {
    const text = `${PUTTY_KEY}\n`;
    expect(containsPrivateKey(text)).toBe(true);
    expect(redactPrivateKeys(text)).toBe(`${PRIVATE_KEY_REDACTION}\n`);
    expect(containsPrivateKey("see PuTTY-User-Key-File-3 in the docs")).toBe(false);
    const diff = `+${PUTTY_KEY.split("\n").join("\n+")}\n`;
    expect(redactPrivateKeys(diff)).toBe(`${PRIVATE_KEY_REDACTION}\n`);
  });

  it("leaves public keys, certificates and ordinary text alone", () => {
    for (const text of [
      pem("PUBLIC KEY"),
      pem("CERTIFICATE"),
      pem("RSA PUBLIC KEY"),
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI user@host",
      "the words PRIVATE KEY in prose",
      "-----BEGIN \n PRIVATE KEY-----",
      "",
    ]) {
      expect(containsPrivateKey(text), text).toBe(false);
      expect(redactPrivateKeys(text)).toBe(text);
    }
  });

  it("redacts the whole line of a BEGIN inside code or a diff, and CRLF text", () => {
    const code = `const key = "-----BEGIN RSA PRIVATE KEY-----\\nMII…\\n-----END RSA PRIVATE KEY-----";\nconst x = 1;\n`;
    expect(redactPrivateKeys(code)).toBe(`${PRIVATE_KEY_REDACTION}\nconst x = 1;\n`);
    const diff = `+line\n+${pem("EC PRIVATE KEY").split("\n").join("\n+")}\n context\n`;
    expect(redactPrivateKeys(diff)).toBe(`+line\n${PRIVATE_KEY_REDACTION}\n context\n`);
    const crlf = `a\r\n${pem("PRIVATE KEY").split("\n").join("\r\n")}\r\nb\r\n`;
    expect(redactPrivateKeys(crlf)).toBe(`a\r\n${PRIVATE_KEY_REDACTION}\r\nb\r\n`);
  });

  it("redacts to the end when the END line is missing (a truncated page)", () => {
    const text = `top\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA`;
    expect(redactPrivateKeys(text)).toBe(`top\n${PRIVATE_KEY_REDACTION}`);
  });

  it("redacts several blocks, mixed kinds, and reports their spans in order", () => {
    const text = `${pem("RSA PRIVATE KEY")}\nmiddle\n${PUTTY_KEY}\nend`;
    const spans = findPrivateKeys(text);
    expect(spans).toHaveLength(2);
    expect(spans[0]?.start).toBe(0);
    expect((spans[0]?.end ?? 0) < (spans[1]?.start ?? 0)).toBe(true);
    expect(redactPrivateKeys(text)).toBe(
      `${PRIVATE_KEY_REDACTION}\nmiddle\n${PRIVATE_KEY_REDACTION}\nend`,
    );
  });

  it("is linear on hostile input (many BEGINs, no END, no closing dashes)", () => {
    const hostile = [
      "-----BEGIN ".repeat(200_000),
      `-----BEGIN ${"A".repeat(1_000_000)}`,
      "PuTTY-User-Key-File-".repeat(100_000),
      "-----BEGIN X PRIVATE KEY-----\n-----END X-----\n".repeat(50_000),
      "-----BEGIN X PRIVATE KEY----------END X-----".repeat(50_000),
      `${"a".repeat(500_000)}${"PuTTY-User-Key-File-2:".repeat(2)}`,
    ];
    for (const text of hostile) {
      const started = performance.now();
      containsPrivateKey(text);
      redactPrivateKeys(text);
      expect(performance.now() - started).toBeLessThan(500);
    }
  });
});

describe("createPrivateKeyLineScanner", () => {
  it("marks the lines of each block, PEM and PuTTY, one-line blocks and unterminated ones", () => {
    const lines = [
      "a",
      ...pem("RSA PRIVATE KEY").split("\n"),
      "b",
      ...PUTTY_KEY.split("\n"),
      'const k = "-----BEGIN PRIVATE KEY-----\\nMII\\n-----END PRIVATE KEY-----";',
      "c",
      "-----BEGIN OPENSSH PRIVATE KEY-----",
      "b3Blbn",
      "d",
    ];
    const isKeyLine = createPrivateKeyLineScanner();
    const marks = lines.map(isKeyLine);
    expect(lines.filter((_, index) => !marks[index])).toEqual(["a", "b", "c"]);
  });
});
