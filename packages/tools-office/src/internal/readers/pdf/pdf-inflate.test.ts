import { randomBytes } from "node:crypto";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createInflatingStreamClass, inflatedSize, UNCOUNTED_MAX_BYTES } from "./pdf-inflate.js";

type Format = ConstructorParameters<typeof DecompressionStream>[0];

/** Pipes bytes through a DecompressionStream class the way pdf.js does, joining the output. */
async function inflateWith(
  Stream: typeof DecompressionStream,
  format: string,
  input: Uint8Array,
): Promise<Uint8Array> {
  const { readable, writable } = new Stream(format as Format);
  const writer = writable.getWriter();
  await writer.ready;
  writer
    .write(input)
    .then(() => writer.close())
    .catch(() => {});
  const parts: Uint8Array[] = [];
  for await (const part of readable as unknown as AsyncIterable<Uint8Array>) parts.push(part);
  return Buffer.concat(parts);
}

const text = new TextEncoder().encode(
  "BT /F1 12 Tf 72 720 Td (Hello, world) Tj ET\n".repeat(2_000),
);

describe("the PDF worker's DecompressionStream", () => {
  const unlimited = createInflatingStreamClass({
    ceiling: () => 1_000_000_000,
    onTooLarge: () => {
      throw new Error("not expected");
    },
  });

  it("inflates deflate, raw deflate, gzip and Brotli as the platform's does", async () => {
    const compressed: Record<string, Uint8Array> = {
      deflate: deflateSync(text),
      "deflate-raw": deflateRawSync(text),
      gzip: gzipSync(text),
      brotli: brotliCompressSync(text),
    };
    for (const [format, input] of Object.entries(compressed)) {
      const ours = await inflateWith(unlimited, format, input);
      expect(Buffer.from(ours).equals(Buffer.from(text))).toBe(true);
      // Node 20's own knows no Brotli
      if (format === "brotli") continue;
      const platform = await inflateWith(DecompressionStream, format, input);
      expect(Buffer.from(ours).equals(Buffer.from(platform))).toBe(true);
    }
  });

  it("inflates a stream large enough to be counted first into the same bytes", async () => {
    // random bytes do not compress: over UNCOUNTED_MAX_BYTES ÷ 1,032 compressed, so counted
    const noise = randomBytes(64 * 1024);
    const input = deflateSync(noise);
    expect(input.byteLength * 1_032).toBeGreaterThan(UNCOUNTED_MAX_BYTES);
    const ours = await inflateWith(unlimited, "deflate", input);
    expect(Buffer.from(ours).equals(noise)).toBe(true);
  });

  it("errors the readable side on a damaged stream (pdf.js then decodes it itself)", async () => {
    const damaged = deflateSync(text).subarray(0, 40);
    await expect(inflateWith(unlimited, "deflate", damaged)).rejects.toThrow();
  });

  it("refuses an unknown format at construction, as the platform's does", () => {
    expect(() => new unlimited("zstd" as Format)).toThrow(TypeError);
  });

  it("a stream past half the ceiling: onTooLarge is called and the stream never settles", async () => {
    const reported: number[] = [];
    const capped = createInflatingStreamClass({
      ceiling: () => 32 * 1024 * 1024,
      onTooLarge: (ceiling) => reported.push(ceiling),
    });
    // 24 MiB of zeros: under the 32 MiB ceiling, over its half
    const input = deflateSync(new Uint8Array(24 * 1024 * 1024));
    const outcome = await Promise.race([
      inflateWith(capped, "deflate", input).then(() => "settled"),
      new Promise((resolve) => setTimeout(() => resolve("pending"), 1_000)),
    ]);
    expect(outcome).toBe("pending");
    expect(reported).toEqual([32 * 1024 * 1024]);
  });
});

describe("inflatedSize", () => {
  it("counts the inflated bytes without keeping them, and stops past the ceiling", async () => {
    const input = deflateSync(new Uint8Array(3 * 1024 * 1024));
    expect(await inflatedSize(input, "deflate", 10 * 1024 * 1024)).toBe(3 * 1024 * 1024);
    expect(await inflatedSize(input, "deflate", 1024 * 1024)).toBeUndefined();
  });
});
