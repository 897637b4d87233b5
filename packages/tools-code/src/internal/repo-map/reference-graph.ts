import { DefinitionRanking } from "./rank-definitions.js";
import type { NameScan } from "./scan-names.js";

/**
 * `repo_map`'s ranking, after aider's repo map (read, not copied): files are nodes; a file that
 * uses a name another file defines gets an edge to it, weighted by √(uses) × the name's rarity
 * (ln N/df: a name most files use, such as `length`, carries little) and divided among the name's
 * definers; PageRank over that graph, personalised towards the focus, ranks files, and each shown
 * symbol scores the rank that flows to it through its name. Names are integer ids and the index
 * is compressed rows in typed arrays, so building it for thousands of files takes milliseconds.
 *
 * @internal
 */

/** A name defined in more files than this is too generic to make edges (it still scores). */
const MAX_DEFINERS_FOR_EDGES = 12;
/** PageRank's damping factor. */
const DAMPING = 0.85;
/** Most PageRank iterations. */
const MAX_ITERATIONS = 50;

/** Rows of (file, count) per name id, compressed. */
interface Rows {
  start: Uint32Array;
  files: Uint32Array;
  counts: Uint32Array;
}

function buildRows(
  nameCount: number,
  scans: readonly NameScan[],
  pick: (scan: NameScan) => { ids: Uint32Array; counts?: Uint32Array },
): Rows {
  const start = new Uint32Array(nameCount + 1);
  for (const scan of scans)
    for (const id of pick(scan).ids) start[id + 1] = (start[id + 1] as number) + 1;
  for (let id = 0; id < nameCount; id += 1)
    start[id + 1] = (start[id + 1] as number) + (start[id] as number);
  const fill = start.slice(0, nameCount);
  const files = new Uint32Array(start[nameCount] as number);
  const counts = new Uint32Array(files.length);
  scans.forEach((scan, file) => {
    const { ids, counts: given } = pick(scan);
    ids.forEach((id, index) => {
      const at = fill[id] as number;
      files[at] = file;
      counts[at] = given === undefined ? 1 : (given[index] as number);
      fill[id] = at + 1;
    });
  });
  return { start, files, counts };
}

/** Paths of tests: a `test`/`tests`/`__tests__`/`spec` folder, `*.test.*`, `*.spec.*`, `*_test.*`, `test_*.py`. */
const TEST_PATH =
  /(?:^|\/)(?:tests?|__tests__|spec|specs)\/|\.(?:test|spec)\.[^/]+$|_test\.[^/]+$|(?:^|\/)test_[^/]+\.py$/;

/**
 * Whether a path is a test's.
 *
 * @param path - a workspace path
 * @returns `true` for test files and files in test folders
 */
export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

/** Whether a name's row holds a file (rows are in file order: binary search). */
function hasFile(rows: Rows, id: number, file: number): boolean {
  let low = rows.start[id] as number;
  let high = rows.start[id + 1] as number;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = rows.files[middle] as number;
    if (at === file) return true;
    if (at < file) low = middle + 1;
    else high = middle;
  }
  return false;
}

/** The focus-independent index of a set of files (rebuilt only when a file changed). */
export class ReferenceIndex {
  /** Per name id: the files defining it. */
  readonly definers: Rows;
  /** Per name id: the files using it, with counts. */
  readonly uses: Rows;
  /** Per name id: the files defining it at the top level. */
  readonly topDefiners: Rows;
  /** Per name id: the files declaring it as a local only. */
  readonly localDefiners: Rows;
  /** Per name id: the files using it bare or through an imported module. */
  readonly bareUsers: Rows;

  /** Per file: 1 when its path says it is a test (`tests/`, `*.test.ts`, `test_*.py`…). */
  readonly tests: Uint8Array;

  /**
   * @param scans - each file's lexical scan, in the files' (path) order
   * @param nameCount - how many name ids there are
   * @param paths - the files' paths, same order (to tell tests apart)
   */
  constructor(
    readonly scans: readonly NameScan[],
    readonly nameCount: number,
    paths: readonly string[] = [],
  ) {
    this.tests = Uint8Array.from(scans, (_, file) => (isTestPath(paths[file] ?? "") ? 1 : 0));
    this.definers = buildRows(nameCount, scans, (scan) => ({ ids: scan.definitions }));
    this.uses = buildRows(nameCount, scans, (scan) => ({ ids: scan.names, counts: scan.counts }));
    this.topDefiners = buildRows(nameCount, scans, (scan) => ({ ids: scan.topDefinitions }));
    this.localDefiners = buildRows(nameCount, scans, (scan) => ({ ids: scan.localDefinitions }));
    this.bareUsers = buildRows(nameCount, scans, (scan) => ({ ids: scan.bareNames }));
  }

  /**
   * Whether a file declares a name of its own: at its top level or as a local.
   *
   * @param file - a file index
   * @param id - a name id
   * @returns `true` when the file's uses of the name are uses of its own declaration
   */
  ownsName(file: number, id: number): boolean {
    return (
      id < this.nameCount &&
      (hasFile(this.topDefiners, id, file) || hasFile(this.localDefiners, id, file))
    );
  }

  /** How many files declare a name as a local only. */
  localDefinerCount(id: number): number {
    return (this.localDefiners.start[id + 1] as number) - (this.localDefiners.start[id] as number);
  }

  /**
   * Whether a file defines a name at the top level.
   *
   * @param file - a file index
   * @param id - a name id
   * @returns `true` when the file's scan has it among its top-level definitions
   */
  definesAtTop(file: number, id: number): boolean {
    return id < this.nameCount && hasFile(this.topDefiners, id, file);
  }

  /**
   * Whether a file defines a name (at any level).
   *
   * @param file - a file index
   * @param id - a name id
   * @returns `true` when the file's scan has it among its definitions
   */
  defines(file: number, id: number): boolean {
    return id < this.nameCount && hasFile(this.definers, id, file);
  }

  /** How many files define a name. */
  definerCount(id: number): number {
    return (this.definers.start[id + 1] as number) - (this.definers.start[id] as number);
  }

  /** How many files define a name at the top level. */
  topDefinerCount(id: number): number {
    return (this.topDefiners.start[id + 1] as number) - (this.topDefiners.start[id] as number);
  }

  /**
   * Whether a file uses a name.
   *
   * @param file - a file index
   * @param id - a name id
   * @returns `true` when the file's scan counts the name among its references
   */
  usesName(file: number, id: number): boolean {
    return id < this.nameCount && hasFile(this.uses, id, file);
  }

  /** How many files use a name. */
  userCount(id: number): number {
    return (this.uses.start[id + 1] as number) - (this.uses.start[id] as number);
  }
}

/** What steers the ranking towards the caller's interest. */
export interface RankFocus {
  /** File indexes to personalise towards. */
  files: ReadonlySet<number>;
  /** Name ids whose uses weigh more, and whose definers are personalised towards. */
  names: ReadonlySet<number>;
}

/** A ranking of files, and the scores of names defined in them. */
export class FileRanking {
  /** Each file's PageRank (sums to 1). */
  readonly rank: Float64Array;
  readonly #outWeight: Float64Array;
  readonly #nameScores = new Map<number, { score: number; uses: number }>();
  #definitions: DefinitionRanking | undefined;

  constructor(
    private readonly index: ReferenceIndex,
    private readonly focus: RankFocus,
    private readonly isPrivate: (id: number) => boolean,
  ) {
    const fileCount = index.scans.length;
    const edgeStart = new Uint32Array(fileCount + 1);
    const edgeTo: number[] = [];
    const edgeWeight: number[] = [];
    const scratch = new Float64Array(fileCount);
    const touched: number[] = [];
    const { definers } = index;
    index.scans.forEach((scan, from) => {
      scan.names.forEach((id, position) => {
        const first = definers.start[id] as number;
        const count = (definers.start[id + 1] as number) - first;
        if (count === 0 || count > MAX_DEFINERS_FOR_EDGES) return;
        const amount = (this.weightOf(id) / count) * Math.sqrt(scan.counts[position] as number);
        for (let at = first; at < first + count; at += 1) {
          const to = definers.files[at] as number;
          if (to === from) continue;
          if (scratch[to] === 0) touched.push(to);
          scratch[to] = (scratch[to] as number) + amount;
        }
      });
      touched.sort((left, right) => left - right);
      for (const to of touched) {
        edgeTo.push(to);
        edgeWeight.push(scratch[to] as number);
        scratch[to] = 0;
      }
      touched.length = 0;
      edgeStart[from + 1] = edgeTo.length;
    });
    this.#outWeight = new Float64Array(fileCount);
    for (let from = 0; from < fileCount; from += 1) {
      let sum = 0;
      for (let at = edgeStart[from] as number; at < (edgeStart[from + 1] as number); at += 1) {
        sum += edgeWeight[at] as number;
      }
      this.#outWeight[from] = sum;
    }
    this.rank = pageRank(
      edgeStart,
      Uint32Array.from(edgeTo),
      Float64Array.from(edgeWeight),
      this.#outWeight,
      this.personalisation(),
    );
  }

  /**
   * The ranking of definitions and the map's file order under this ranking (built on first use,
   * then kept with the ranking).
   *
   * @returns the definition ranking
   */
  definitions(): DefinitionRanking {
    this.#definitions ??= new DefinitionRanking(this.index, this, this.focus, this.isPrivate);
    return this.#definitions;
  }

  /** A name's weight before it is divided among definers: rarity, focus and privacy. */
  private weightOf(id: number): number {
    const fileCount = this.index.scans.length;
    let weight = Math.log((fileCount + 1) / (this.index.userCount(id) + 1));
    if (this.focus.names.has(id)) weight *= 10;
    if (this.isPrivate(id)) weight *= 0.1;
    return Math.max(weight, 0);
  }

  /**
   * The score of a name defined in a file: the rank that flows to it from every other file
   * using the name, and how many uses and using files there are.
   *
   * @param file - the defining file's index
   * @param id - the symbol's name id (`undefined` when no file uses the name)
   * @returns score, uses from other files, and the number of those files
   */
  scoreOf(file: number, id: number | undefined): { score: number; uses: number; files: number } {
    if (id === undefined || id >= this.index.nameCount) return { score: 0, uses: 0, files: 0 };
    const { uses } = this.index;
    const first = uses.start[id] as number;
    const last = uses.start[id + 1] as number;
    const definerCount = this.index.definerCount(id);
    const weight = this.weightOf(id) / Math.max(1, definerCount);
    const flow = (at: number): number => {
      const from = uses.files[at] as number;
      const amount = weight * Math.sqrt(uses.counts[at] as number);
      return amount === 0
        ? 0
        : ((this.rank[from] as number) * amount) /
            Math.max(this.#outWeight[from] as number, amount);
    };
    let whole = this.#nameScores.get(id);
    if (whole === undefined) {
      whole = { score: 0, uses: 0 };
      for (let at = first; at < last; at += 1) {
        whole.score += flow(at);
        whole.uses += uses.counts[at] as number;
      }
      this.#nameScores.set(id, whole);
    }
    // Leave out the defining file's own uses (rows are in file order: binary search).
    let low = first;
    let high = last;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((uses.files[middle] as number) < file) low = middle + 1;
      else high = middle;
    }
    const own = low < last && uses.files[low] === file;
    return {
      score: Math.max(0, whole.score - (own ? flow(low) : 0)),
      uses: whole.uses - (own ? (uses.counts[low] as number) : 0),
      files: last - first - (own ? 1 : 0),
    };
  }

  private personalisation(): Float64Array {
    const fileCount = this.index.scans.length;
    const vector = new Float64Array(fileCount).fill(1);
    const focused = new Set(this.focus.files);
    const { definers } = this.index;
    for (const id of this.focus.names) {
      if (id >= this.index.nameCount) continue;
      for (
        let at = definers.start[id] as number;
        at < (definers.start[id + 1] as number);
        at += 1
      ) {
        focused.add(definers.files[at] as number);
      }
    }
    if (focused.size > 0) {
      // The focus holds several times the weight of all other files together.
      const boost = (fileCount / focused.size) * 4;
      for (const file of focused) vector[file] = (vector[file] as number) + boost;
    }
    let sum = 0;
    for (const value of vector) sum += value;
    for (let file = 0; file < fileCount; file += 1) vector[file] = (vector[file] as number) / sum;
    return vector;
  }
}

function pageRank(
  edgeStart: Uint32Array,
  edgeTo: Uint32Array,
  edgeWeight: Float64Array,
  outWeight: Float64Array,
  teleport: Float64Array,
): Float64Array {
  const fileCount = outWeight.length;
  let rank = Float64Array.from(teleport);
  let next = new Float64Array(fileCount);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration += 1) {
    let dangling = 0;
    next.fill(0);
    for (let from = 0; from < fileCount; from += 1) {
      const mass = rank[from] as number;
      const out = outWeight[from] as number;
      if (out === 0) {
        dangling += mass;
        continue;
      }
      const share = (DAMPING * mass) / out;
      for (let at = edgeStart[from] as number; at < (edgeStart[from + 1] as number); at += 1) {
        const to = edgeTo[at] as number;
        next[to] = (next[to] as number) + share * (edgeWeight[at] as number);
      }
    }
    let change = 0;
    for (let file = 0; file < fileCount; file += 1) {
      const value =
        (next[file] as number) + (1 - DAMPING + DAMPING * dangling) * (teleport[file] as number);
      change += Math.abs(value - (rank[file] as number));
      next[file] = value;
    }
    [rank, next] = [next, rank];
    if (change < 1e-10) break;
  }
  return rank;
}
