import type { FileEntry } from "./corpus-state.js";

/** Every embedded chunk's unit vector in one array, for the dense scan. */
export interface ScanMatrix {
  /** The state's change counter it was built at. */
  generation: number;
  /** Vector length. */
  dimension: number;
  /** `rows × dimension` floats; row `starts[i] + c` is chunk `c` of `files[i]`. */
  values: Float32Array;
  /** The files with vectors, in index order. */
  files: FileEntry[];
  /** Each file's first row, and the row count at the end. */
  starts: Int32Array;
}

/** A chunk the dense scan kept: its file, its index there, its float32 cosine. */
export interface DenseCandidate {
  entry: FileEntry;
  index: number;
  score: number;
}

/**
 * Inserts a candidate in its place (best first), keeping at most `wanted`.
 *
 * @returns the lowest score kept (what a next candidate must beat once the list is full)
 */
function keepCandidate(
  candidates: DenseCandidate[],
  wanted: number,
  candidate: DenseCandidate,
): number {
  let at = candidates.length;
  while (at > 0 && (candidates[at - 1] as DenseCandidate).score < candidate.score) at -= 1;
  candidates.splice(at, 0, candidate);
  if (candidates.length > wanted) candidates.pop();
  return (candidates[candidates.length - 1] as DenseCandidate).score;
}

/**
 * Fills `candidates` with the `wanted` rows of `scan` nearest to `query` (cosine, positive only),
 * best first — a function of its own so the engine optimises the hot loop on its own.
 */
export function scanNearest(
  scan: ScanMatrix,
  query: Float32Array,
  queryNorm: number,
  wanted: number,
  allowed: ((entry: FileEntry) => boolean) | undefined,
  candidates: DenseCandidate[],
): void {
  const { values, files, starts, dimension } = scan;
  let floor = 0;
  for (let position = 0; position < files.length; position += 1) {
    const entry = files[position] as FileEntry;
    if (allowed !== undefined && !allowed(entry)) continue;
    const first = starts[position] as number;
    const end = starts[position + 1] as number;
    for (let row = first; row < end; row += 1) {
      const score = dotProduct(query, values, row * dimension, dimension) / queryNorm;
      if (!(score > 0) || (candidates.length >= wanted && score <= floor)) continue;
      floor = keepCandidate(candidates, wanted, { entry, index: row - first, score });
    }
  }
}

/**
 * {@link scanNearest} over each file's own vectors (with their norms), for a search that comes
 * before the matrix is rebuilt after a change.
 */
export function scanNearestByFile(
  files: readonly FileEntry[],
  normsOf: (vectors: Float32Array) => Float32Array,
  dimension: number,
  query: Float32Array,
  queryNorm: number,
  wanted: number,
  allowed: ((entry: FileEntry) => boolean) | undefined,
  candidates: DenseCandidate[],
): void {
  let floor = 0;
  for (const entry of files) {
    const vectors = entry.vectors;
    if (vectors === undefined || (allowed !== undefined && !allowed(entry))) continue;
    const lengths = normsOf(vectors);
    const missing = entry.missing;
    for (let index = 0; index < entry.chunks.length; index += 1) {
      const length = lengths[index] as number;
      if (length === 0 || (missing.size > 0 && missing.has(index))) continue;
      const score = dotProduct(query, vectors, index * dimension, dimension) / (queryNorm * length);
      if (!(score > 0) || (candidates.length >= wanted && score <= floor)) continue;
      floor = keepCandidate(candidates, wanted, { entry, index, score });
    }
  }
}

/** `Σ query[i] · vectors[offset + i]` over `dimension` values, four at a time. */
function dotProduct(
  query: Float32Array,
  vectors: Float32Array,
  offset: number,
  dimension: number,
): number {
  let sum0 = 0;
  let sum1 = 0;
  let sum2 = 0;
  let sum3 = 0;
  let at = 0;
  for (; at + 3 < dimension; at += 4) {
    sum0 += (query[at] as number) * (vectors[offset + at] as number);
    sum1 += (query[at + 1] as number) * (vectors[offset + at + 1] as number);
    sum2 += (query[at + 2] as number) * (vectors[offset + at + 2] as number);
    sum3 += (query[at + 3] as number) * (vectors[offset + at + 3] as number);
  }
  for (; at < dimension; at += 1) sum0 += (query[at] as number) * (vectors[offset + at] as number);
  return sum0 + sum1 + sum2 + sum3;
}

/** `Σ vectors[offset + i]²` over `dimension` values. */
function squaredLength(vectors: Float32Array, offset: number, dimension: number): number {
  let sum = 0;
  for (let at = 0; at < dimension; at += 1) {
    const value = vectors[offset + at] as number;
    sum += value * value;
  }
  return sum;
}

/**
 * The norm of each `dimension`-long row of `vectors`.
 *
 * @param vectors - a file's vectors
 * @param dimension - the vector length
 * @returns one norm per row
 */
export function vectorNorms(vectors: Float32Array, dimension: number): Float32Array {
  const count = Math.floor(vectors.length / dimension);
  const norms = new Float32Array(count);
  for (let index = 0; index < count; index += 1) {
    norms[index] = Math.sqrt(squaredLength(vectors, index * dimension, dimension));
  }
  return norms;
}

/**
 * Every embedded chunk's vector scaled to unit length, in one contiguous array (a scan over one
 * array runs 1.6× faster than over one array per file). Missing chunks are zero rows (a zero dot
 * product: never a candidate).
 *
 * @param entries - the index's files, in index order
 * @param dimension - the vector length
 * @param generation - the state's change counter now
 * @returns the matrix
 */
export function buildScanMatrix(
  entries: Iterable<FileEntry>,
  dimension: number,
  generation: number,
): ScanMatrix {
  const files: FileEntry[] = [];
  let rows = 0;
  for (const entry of entries) {
    if (entry.vectors === undefined) continue;
    files.push(entry);
    rows += entry.chunks.length;
  }
  const values = new Float32Array(rows * dimension);
  const starts = new Int32Array(files.length + 1);
  let row = 0;
  for (const [position, entry] of files.entries()) {
    starts[position] = row;
    const vectors = entry.vectors as Float32Array;
    for (let index = 0; index < entry.chunks.length; index += 1, row += 1) {
      if (entry.missing.has(index)) continue;
      const base = index * dimension;
      const sum = squaredLength(vectors, base, dimension);
      if (sum === 0) continue;
      const scale = 1 / Math.sqrt(sum);
      const target = row * dimension;
      for (let at = 0; at < dimension; at += 1)
        values[target + at] = (vectors[base + at] as number) * scale;
    }
  }
  starts[files.length] = row;
  return { generation, dimension, values, files, starts };
}
