import { open } from "node:fs/promises";
import { WRITE_PARTS_PER_CALL } from "./corpus-defaults.js";

/**
 * Writes `parts` one after another into a new file at `path` (vectored writes, short writes
 * resumed), then closes it.
 *
 * @param path - the new file
 * @param parts - its bytes, in order
 */
export async function writeParts(path: string, parts: readonly Buffer[]): Promise<void> {
  const handle = await open(path, "wx");
  try {
    let next = 0;
    // Bytes of parts[next] already written (after a short write).
    let written = 0;
    while (next < parts.length) {
      const batch = parts.slice(next, next + WRITE_PARTS_PER_CALL);
      batch[0] = (batch[0] as Buffer).subarray(written);
      let { bytesWritten } = await handle.writev(batch);
      if (bytesWritten === 0) throw new Error("the index file accepts no more bytes");
      let whole = 0;
      while (whole < batch.length && bytesWritten >= (batch[whole] as Buffer).length) {
        bytesWritten -= (batch[whole] as Buffer).length;
        whole += 1;
      }
      if (whole === 0) written += bytesWritten;
      else {
        next += whole;
        written = bytesWritten;
      }
    }
  } finally {
    await handle.close();
  }
}
