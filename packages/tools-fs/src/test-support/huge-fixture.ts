import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Bytes of one fixture line, its line break included. */
const LINE_BYTES = 64;

/** Lines written per chunk (1 MiB). */
const LINES_PER_CHUNK = 16_384;

/** Bump when the fixture's content changes: older copies are then left alone and rebuilt. */
const CONTENT_VERSION = 1;

/** The name of the fixture file inside its directory. */
export const HUGE_FIXTURE_NAME = "huge.log";

/**
 * The text of line `line` of a numbered fixture (without its line break).
 *
 * @param line - 1-based
 * @returns the line
 */
export function expectedFixtureLine(line: number): string {
  return `L${String(line).padStart(10, "0")} the quick brown fox jumps over the lazy dog 0123456`;
}

/** A numbered fixture on disk. */
export interface HugeFixture {
  /** The directory holding only {@link HUGE_FIXTURE_NAME} (use it as a workspace root). */
  directory: string;
  /** Lines in the file. */
  totalLines: number;
}

/**
 * A file of `bytes` bytes of fixed-width numbered lines (64 bytes each), made once per machine and
 * reused: it lives under `os.tmpdir()/agentool-fixtures/`, keyed by size and content version, is
 * written under a temporary name and renamed into place (so a half-written file is never taken),
 * and is checked (size and last line) before reuse.
 *
 * @param bytes - the file's size, a multiple of 64
 * @returns where it is and how many lines it has
 */
export async function hugeNumberedFixture(bytes: number): Promise<HugeFixture> {
  const directory = join(
    tmpdir(),
    "agentool-fixtures",
    `numbered-${bytes}-v${CONTENT_VERSION}`,
    "root",
  );
  const path = join(directory, HUGE_FIXTURE_NAME);
  const totalLines = bytes / LINE_BYTES;
  if (!(await isIntact(path, bytes, totalLines))) {
    await mkdir(directory, { recursive: true });
    // Outside the workspace root, so a concurrent run never sees it as a file of the root.
    const temporary = join(
      directory,
      "..",
      `${HUGE_FIXTURE_NAME}.${process.pid}.${Date.now()}.tmp`,
    );
    try {
      await writeNumberedFile(temporary, bytes);
      await rename(temporary, path);
    } finally {
      await rm(temporary, { force: true });
    }
  }
  return { directory, totalLines };
}

/** Whether the fixture at `path` is complete: its size and its last line are right. */
async function isIntact(path: string, bytes: number, totalLines: number): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isFile() || info.size !== bytes) return false;
  const handle = await open(path, "r");
  try {
    const tail = new Uint8Array(LINE_BYTES);
    await handle.read(tail, 0, LINE_BYTES, bytes - LINE_BYTES);
    return new TextDecoder().decode(tail) === `${expectedFixtureLine(totalLines)}\n`;
  } finally {
    await handle.close();
  }
}

/** Writes `bytes` bytes of fixed-width numbered lines (64 bytes each) in 1 MiB chunks. */
async function writeNumberedFile(path: string, bytes: number): Promise<void> {
  const template = new TextEncoder().encode(`${expectedFixtureLine(0)}\n`);
  const chunk = new Uint8Array(LINE_BYTES * LINES_PER_CHUNK);
  for (let line = 0; line < LINES_PER_CHUNK; line += 1) chunk.set(template, line * LINE_BYTES);
  const handle = await open(path, "w");
  let line = 1;
  try {
    for (let written = 0; written < bytes; written += chunk.length) {
      for (let index = 0; index < LINES_PER_CHUNK; index += 1) {
        let number = line + index;
        for (let digit = 10; digit >= 1; digit -= 1) {
          chunk[index * LINE_BYTES + digit] = 48 + (number % 10);
          number = Math.floor(number / 10);
        }
      }
      await handle.write(chunk, 0, Math.min(chunk.length, bytes - written));
      line += LINES_PER_CHUNK;
    }
  } finally {
    await handle.close();
  }
}
