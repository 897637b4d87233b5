// The tally both ground-truth scripts keep: per part (top-level, members), how many names the
// reference has, how many the engine found and how many agree, plus the disagreements by name.
import { relative } from "node:path";

/** A fresh tally. */
export function createAgreement() {
  return {
    totals: {
      top: { truth: 0, found: 0, agreed: 0 },
      members: { truth: 0, found: 0, agreed: 0 },
    },
    misses: [],
  };
}

/**
 * Adds one file: `truth` and `found` are `{ top: Set, members: Set }` of qualified names.
 */
export function addFile(agreement, path, truth, found) {
  const where = relative(process.cwd(), path);
  for (const part of ["top", "members"]) {
    const row = agreement.totals[part];
    row.truth += truth[part].size;
    row.found += found[part].size;
    for (const key of found[part]) {
      if (truth[part].has(key)) row.agreed += 1;
      else agreement.misses.push(`extra   ${part.padEnd(7)} ${where} ${key}`);
    }
    for (const key of truth[part]) {
      if (!found[part].has(key)) agreement.misses.push(`missing ${part.padEnd(7)} ${where} ${key}`);
    }
  }
}

/** Prints the table (`labels`: the reference's column name and each part's row label). */
export function printAgreement(agreement, { kind, reference, labels, showMisses }) {
  const ratio = (a, b) => (b === 0 ? 1 : a / b).toFixed(4);
  console.log(`| ${kind} | ${reference} | engine | agreed | precision | recall |`);
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const part of ["top", "members"]) {
    const row = agreement.totals[part];
    console.log(
      `| ${labels[part]} | ${row.truth} | ${row.found} | ${row.agreed} | ${ratio(row.agreed, row.found)} | ${ratio(row.agreed, row.truth)} |`,
    );
  }
  if (showMisses) for (const miss of agreement.misses.slice(0, 200)) console.log(miss);
  else if (agreement.misses.length > 0)
    console.log(`(${agreement.misses.length} disagreements; --show-misses lists them)`);
}
