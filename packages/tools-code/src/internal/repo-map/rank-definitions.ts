import type { FileRanking, RankFocus, ReferenceIndex } from "./reference-graph.js";

/**
 * `repo_map`'s ranking of definitions, after aider's (which ranks (file, definition) pairs, not
 * files): a name defined in file D earns credit from every *other* file that uses it, each user
 * weighing half a vote plus half its PageRank share (so a name most files use beats a name only
 * one central file uses, and the focus still steers); a file that defines the name at its top
 * level uses its own, so it gives no credit elsewhere. The credit is divided among the name's
 * definers, a top-level definition weighing {@link MEMBER_WEIGHT}⁻¹ times a member's (so `parse`
 * defined as a method in forty classes earns little anywhere),  and a use only as a property
 * of some value (`items.map`) counts {@link VALUE_PROPERTY_WEIGHT} of a bare one or one through
 * an imported module (`util.joinValues`); files that declare the name themselves (top level or
 * local) give no credit; tests vote and score {@link TEST_WEIGHT}. Files are ordered by the sum
 * of their {@link FILE_SCORE_DEFINITIONS} best definitions: that order is what `offset` pages through.
 *
 * @internal
 */

/** A member's (or local's) weight against a top-level definition's 1. */
export const MEMBER_WEIGHT = 0.2;
/** How many of a file's best definitions make its score (its place in the map's order). */
export const FILE_SCORE_DEFINITIONS = 3;
/**
 * A use only as a property of some value (`items.map`, `node.value`) weighs this much of a bare
 * use or one through an imported module (`util.joinValues`): member names of everyday types
 * are said everywhere and imported nowhere.
 */
const VALUE_PROPERTY_WEIGHT = 0.1;
/**
 * With a focus, the share of a user's vote that is flat (the rest is its PageRank personalised
 * towards the focus, times the file count). Without one every file votes 1: the overview counts
 * users, as the ground truth does (PageRank-weighted votes measured worse on zod, the Anthropic
 * and OpenAI SDKs: see the README's table).
 */
const FOCUSED_FLAT_VOTE = 0.3;
/**
 * A test file's vote, and its definitions' scores, against another file's 1: tests call every
 * public function through the package's entry, and an overview shows the code before its tests.
 */
const TEST_WEIGHT = 0.25;
/** A focused file (or a definer of a focused name) comes before every other file. */
const FOCUS_BONUS = 1e9;

/** See the module comment. */
export class DefinitionRanking {
  /** File indexes in map order, best first (`offset` counts in it). */
  readonly order: Uint32Array;
  /** Each file's score (the sum of its best definitions' scores, plus the focus bonus). */
  readonly fileScore: Float64Array;
  readonly #credit: Float64Array;
  readonly #definerWeight: Float64Array;
  readonly #vote: Float64Array;

  /**
   * @param index - the reference index
   * @param ranking - the files' PageRank under the focus
   * @param focus - the focus
   * @param isPrivate - whether a name id is private by convention (`_name`)
   */
  constructor(
    private readonly index: ReferenceIndex,
    ranking: FileRanking,
    private readonly focus: RankFocus,
    private readonly isPrivate: (id: number) => boolean,
  ) {
    const fileCount = index.scans.length;
    this.#vote = new Float64Array(fileCount);
    const focused = focus.files.size > 0 || focus.names.size > 0;
    const flat = focused ? FOCUSED_FLAT_VOTE : 1;
    for (let file = 0; file < fileCount; file += 1)
      this.#vote[file] =
        (flat + (1 - flat) * (ranking.rank[file] as number) * fileCount) *
        (index.tests[file] === 1 ? TEST_WEIGHT : 1);
    this.#credit = new Float64Array(index.nameCount).fill(Number.NaN);
    this.#definerWeight = new Float64Array(index.nameCount).fill(Number.NaN);
    this.fileScore = new Float64Array(fileCount);
    const best = new Float64Array(FILE_SCORE_DEFINITIONS);
    for (let file = 0; file < fileCount; file += 1) {
      best.fill(0);
      const scan = index.scans[file];
      if (scan === undefined) continue;
      for (const id of scan.definitions) {
        const score = this.score(file, id, index.definesAtTop(file, id));
        // Keep the FILE_SCORE_DEFINITIONS best, descending.
        for (let slot = 0; slot < FILE_SCORE_DEFINITIONS; slot += 1) {
          if (score > (best[slot] as number)) {
            best.copyWithin(slot + 1, slot, FILE_SCORE_DEFINITIONS - 1);
            best[slot] = score;
            break;
          }
        }
      }
      let sum = 0;
      for (const value of best) sum += value;
      this.fileScore[file] = sum + (this.isFocused(file) ? FOCUS_BONUS : 0);
    }
    const order = Array.from({ length: fileCount }, (_, file) => file);
    order.sort(
      (left, right) =>
        (this.fileScore[right] as number) - (this.fileScore[left] as number) ||
        (ranking.rank[right] as number) - (ranking.rank[left] as number) ||
        left - right,
    );
    this.order = Uint32Array.from(order);
  }

  /** Whether a file is in the focus, or defines a focused name. */
  private isFocused(file: number): boolean {
    if (this.focus.files.has(file)) return true;
    for (const id of this.focus.names) if (this.index.defines(file, id)) return true;
    return false;
  }

  /** The votes of the files that use a name and do not define it at their top level. */
  private credit(id: number): number {
    const known = this.#credit[id] as number;
    if (!Number.isNaN(known)) return known;
    const { uses, bareUsers } = this.index;
    const dotted = VALUE_PROPERTY_WEIGHT;
    let sum = 0;
    for (let at = uses.start[id] as number; at < (uses.start[id + 1] as number); at += 1) {
      const user = uses.files[at] as number;
      if (!this.index.ownsName(user, id)) sum += (this.#vote[user] as number) * dotted;
    }
    for (
      let at = bareUsers.start[id] as number;
      at < (bareUsers.start[id + 1] as number);
      at += 1
    ) {
      const user = bareUsers.files[at] as number;
      if (!this.index.ownsName(user, id)) sum += (this.#vote[user] as number) * (1 - dotted);
    }
    this.#credit[id] = sum;
    return sum;
  }

  /** The summed weight of a name's definers (top level 1, members {@link MEMBER_WEIGHT}). */
  private definerWeight(id: number): number {
    const known = this.#definerWeight[id] as number;
    if (!Number.isNaN(known)) return known;
    const top = this.index.topDefinerCount(id);
    const all = this.index.definerCount(id);
    const weight = top + (all - top + this.index.localDefinerCount(id)) * MEMBER_WEIGHT;
    this.#definerWeight[id] = weight;
    return weight;
  }

  /**
   * The score of a definition: the credit of its name from other files, its share among the
   * name's definers, the name's rarity, and the focus.
   *
   * @param file - the defining file
   * @param id - the name's id (`undefined` when no file says the name)
   * @param top - whether this definition is at the top level (a member otherwise)
   * @returns the score (0 when nobody else uses the name)
   */
  score(file: number, id: number | undefined, top: boolean): number {
    if (id === undefined || id >= this.index.nameCount) return 0;
    const own = top ? 1 : MEMBER_WEIGHT;
    let credit = this.credit(id);
    // The file's own uses of a name it defines only as a member still count in `credit`.
    if (!this.index.ownsName(file, id) && this.index.usesName(file, id))
      credit -= this.#vote[file] as number;
    if (credit <= 0) return 0;
    let definers = this.definerWeight(id);
    if (!this.index.defines(file, id)) definers += own;
    else if (top && !this.index.definesAtTop(file, id)) definers += 1 - MEMBER_WEIGHT;
    // No rarity weight (aider's ln N/df measured worse: it favours names one file uses); common
    // names are de-weighted by their definers and locals, and by VALUE_PROPERTY_WEIGHT.
    let weight = 1;
    if (this.focus.names.has(id)) weight *= 10;
    if (this.isPrivate(id)) weight *= 0.3;
    const test = this.index.tests[file] === 1 ? TEST_WEIGHT : 1;
    return (test * weight * credit * own) / Math.max(definers, own);
  }
}
