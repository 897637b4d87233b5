import {
  brotliDecompressSync,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
  gunzipSync,
  inflateRawSync,
  inflateSync,
} from "node:zlib";

/**
 * The PDF worker's `DecompressionStream`. pdf.js 6 inflates every Flate stream (page contents,
 * fonts, CMaps) through `DecompressionStream` where the runtime has one; Node's is zlib behind
 * web streams, fed and drained 16 KiB at a time (about a tenth of the CPU of reading a text PDF),
 * and it holds a whole inflated stream however large, in pieces the allocator keeps after the
 * thread ends. This one buffers the compressed bytes and inflates them in one native call: a
 * stream that could inflate past {@link UNCOUNTED_MAX_BYTES} (deflate's densest ratio is 1,032:1;
 * any Brotli stream) is first inflated once with its output counted, not kept, then into one
 * buffer of exactly its size. A stream may inflate to half the ceiling (pdf.js copies it whole
 * once more as it reads it); past that `onTooLarge` is called (the worker reports `TOO_LARGE` and
 * is ended) and the stream is left pending, so pdf.js does not go on to decode it itself. A stream that fails to inflate errors the readable side, as the platform's does, and
 * pdf.js then decodes it in JavaScript.
 *
 * @internal
 */

/** Deflate's densest ratio (a 258-byte match in under two bits): the most one byte inflates to. */
export const DEFLATE_MAX_RATIO = 1_032;

/** Streams that may inflate to at most this many bytes are inflated at once, uncounted: 16 MiB. */
export const UNCOUNTED_MAX_BYTES = 16 * 1024 * 1024;

/** Output chunk of the counting pass (zlib's default, 16 KiB, makes 64 times the callbacks). */
const COUNTING_CHUNK_BYTES = 1 << 20;

/** The formats the Compression Streams standard names, plus Brotli (pdf.js's BrotliDecode). */
type InflateFormat = "deflate" | "deflate-raw" | "gzip" | "brotli";

/** One-call inflaters; `chunkSize` one byte over a counted size makes the output one buffer. */
const INFLATE_SYNC: Record<
  InflateFormat,
  (input: Uint8Array, options: { chunkSize?: number }) => Uint8Array
> = {
  deflate: inflateSync,
  "deflate-raw": inflateRawSync,
  gzip: gunzipSync,
  brotli: brotliDecompressSync,
};

const INFLATE_STREAM = {
  deflate: createInflate,
  "deflate-raw": createInflateRaw,
  gzip: createGunzip,
  brotli: createBrotliDecompress,
};

function isInflateFormat(format: string): format is InflateFormat {
  return Object.hasOwn(INFLATE_SYNC, format);
}

/**
 * Counts the bytes a compressed stream inflates to, natively, keeping none of them; stops as
 * soon as the count passes `ceiling`.
 *
 * @param input - the compressed bytes
 * @param format - their format
 * @param ceiling - the most bytes allowed
 * @returns the inflated size, or `undefined` once it passes the ceiling
 */
export function inflatedSize(
  input: Uint8Array,
  format: InflateFormat,
  ceiling: number,
): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const inflater = INFLATE_STREAM[format]({ chunkSize: COUNTING_CHUNK_BYTES });
    let size = 0;
    inflater.on("data", (chunk: Uint8Array) => {
      size += chunk.byteLength;
      if (size > ceiling) {
        inflater.destroy();
        resolve(undefined);
      }
    });
    inflater.on("end", () => resolve(size));
    inflater.on("error", reject);
    inflater.end(input);
  });
}

function joined(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  return Buffer.concat(chunks);
}

/**
 * Makes a `DecompressionStream` class that inflates within a ceiling.
 *
 * @param limits - `ceiling()`: the memory ceiling, read per stream (one stream may inflate to
 *   half of it); `onTooLarge(ceiling)`: called when a stream passes that
 * @returns the class, to set as `globalThis.DecompressionStream` in the worker
 */
export function createInflatingStreamClass(limits: {
  ceiling: () => number;
  onTooLarge: (ceiling: number) => void;
}): typeof DecompressionStream {
  class InflatingStream extends TransformStream<Uint8Array, Uint8Array> {
    constructor(format: string) {
      if (!isInflateFormat(format))
        throw new TypeError(`Unsupported compression format: ${format}`);
      const chunks: Uint8Array[] = [];
      super({
        transform(chunk) {
          chunks.push(chunk);
        },
        async flush(controller) {
          const input = joined(chunks);
          const ceiling = limits.ceiling();
          let size: number | undefined;
          if (format === "brotli" || input.byteLength * DEFLATE_MAX_RATIO > UNCOUNTED_MAX_BYTES) {
            size = await inflatedSize(input, format, Math.floor(ceiling / 2));
            if (size === undefined) {
              limits.onTooLarge(ceiling);
              await new Promise<never>(() => {});
            }
          }
          const options = size === undefined ? {} : { chunkSize: Math.max(64, (size ?? 0) + 1) };
          controller.enqueue(INFLATE_SYNC[format](input, options));
        },
      });
    }
  }
  return InflatingStream as unknown as typeof DecompressionStream;
}
