/**
 * Date formats for cells `edit_sheet` writes a date into: a cell whose style already shows a
 * date keeps it; any other gets a copy of its own style (font, fill, border, alignment kept)
 * with a date number format, appended to `styles.xml`'s `cellXfs` — existing styles are never
 * changed, so every other cell looks as it did.
 *
 * @internal
 */

/** Excel's built-in date and time number formats (14 = m/d/yyyy, 22 = m/d/yyyy h:mm). */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** Built-in format for a date. */
export const DATE_FORMAT_ID = 14;

/** Built-in format for a date with a time. */
export const DATE_TIME_FORMAT_ID = 22;

const CELL_XFS = /<((?:\w+:)?)cellXfs\b([^>]*)>([\s\S]*?)<\/(?:\w+:)?cellXfs>/;
const XF = /<(?:\w+:)?xf\b[^>]*?(?:\/>|>[\s\S]*?<\/(?:\w+:)?xf>)/g;

/** The cell formats of a workbook, with date formats added as needed. */
export class DateStyles {
  #xml: string | undefined;
  #formats: string[];
  #customDates: Set<number>;
  #added = new Map<string, number>();

  /**
   * @param xml - `xl/styles.xml`, or undefined when the workbook has none
   */
  constructor(xml: string | undefined) {
    this.#xml = xml;
    const cellXfs = xml === undefined ? undefined : CELL_XFS.exec(xml);
    this.#formats =
      cellXfs === null || cellXfs === undefined
        ? []
        : [...(cellXfs[3] ?? "").matchAll(XF)].map((match) => match[0]);
    this.#customDates = new Set();
    for (const match of (xml ?? "").matchAll(/<(?:\w+:)?numFmt\b[^>]*>/g)) {
      const id = /numFmtId="(\d+)"/.exec(match[0])?.[1];
      const code = /formatCode="([^"]*)"/.exec(match[0])?.[1] ?? "";
      const bare = code.replace(/"[^"]*"|\[[^\]]*\]|\\./g, "");
      if (id !== undefined && /[ymdhs]/i.test(bare)) this.#customDates.add(Number(id));
    }
  }

  /** Whether anything was added (then write {@link DateStyles.text}). */
  get changed(): boolean {
    return this.#added.size > 0;
  }

  /** The styles part's new text. */
  text(): string {
    return this.#xml ?? "";
  }

  /** Whether a cell style index shows dates (a built-in or custom date/time format). */
  isDate(index: number | undefined): boolean {
    const xf = this.#formats[index ?? 0];
    const id = xf === undefined ? undefined : /numFmtId="(\d+)"/.exec(xf)?.[1];
    if (id === undefined) return false;
    return BUILT_IN_DATE_FORMATS.has(Number(id)) || this.#customDates.has(Number(id));
  }

  /**
   * The style index to give a cell that now holds a date.
   *
   * @param index - the cell's style index (undefined: the default style 0)
   * @param withTime - whether the value has a time of day
   * @returns the index to write, or undefined when the workbook has no cell formats to extend
   */
  dateStyle(index: number | undefined, withTime: boolean): number | undefined {
    if (this.isDate(index)) return index;
    if (this.#xml === undefined) return undefined;
    const key = `${index ?? 0}:${withTime}`;
    const known = this.#added.get(key);
    if (known !== undefined) return known;
    const base = this.#formats[index ?? 0] ?? "<xf/>";
    const formatId = withTime ? DATE_TIME_FORMAT_ID : DATE_FORMAT_ID;
    let clone = /numFmtId="/.test(base)
      ? base.replace(/numFmtId="\d+"/, `numFmtId="${formatId}"`)
      : base.replace(/^<((?:\w+:)?)xf\b/, `<$1xf numFmtId="${formatId}"`);
    clone = /applyNumberFormat="/.test(clone)
      ? clone.replace(/applyNumberFormat="[^"]*"/, 'applyNumberFormat="1"')
      : clone.replace(/^<((?:\w+:)?)xf\b/, '<$1xf applyNumberFormat="1"');
    const added = this.#formats.length;
    this.#formats.push(clone);
    this.#added.set(key, added);
    this.#xml = this.#xml.replace(
      CELL_XFS,
      (_whole, prefix: string, attributes: string, body: string) => {
        const counted = /\scount="\d+"/.test(attributes)
          ? attributes.replace(/\scount="\d+"/, ` count="${this.#formats.length}"`)
          : attributes;
        return `<${prefix}cellXfs${counted}>${body}${clone}</${prefix}cellXfs>`;
      },
    );
    return added;
  }
}
