// The README tables against the packages: the root package table lists every published package
// with its real status, and every tool list (the root table's per family, each package README's
// tools table) names exactly the tools the family's factories create.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createFamilyTools } from "./family-tools.js";
import { listPublishablePackages } from "./tarball-project.js";

const repositoryRoot = resolve(import.meta.dirname, "../../..");
const rootReadme = readFileSync(join(repositoryRoot, "README.md"), "utf8");
const packages = listPublishablePackages(repositoryRoot);
const families = createFamilyTools();
const everyToolName = new Set(families.flatMap((family) => family.all));

/** The rows of the first Markdown table after a heading, as arrays of cells. */
function tableAfter(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`no "${heading}" section`);
  const lines = markdown.slice(start).split("\n");
  const first = lines.findIndex((line) => line.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The tool names a piece of Markdown names in backticks (names that some family creates). */
function toolNamesIn(text: string): string[] {
  const named = [...text.matchAll(/`([a-z][a-z0-9_]*)`/g)].map(([, name]) => name ?? "");
  return [...new Set(named.filter((name) => everyToolName.has(name)))].sort();
}

const packageRows = tableAfter(rootReadme, "## Packages");
const rowOf = (name: string) => packageRows.find((row) => (row[0] ?? "").includes(`\`${name}\``));

describe("root README package table", () => {
  it.each(packages)("lists $name, linked to $folder, not as planned", ({ name, folder }) => {
    const row = rowOf(name);
    expect(row, `README.md's package table has no row for ${name}`).toBeDefined();
    expect(row?.[0]).toContain(`(${folder})`);
    expect(row?.[2] ?? "", `${name} ships, so its status may not say planned`).not.toMatch(
      /planned/i,
    );
  });

  it("calls nothing planned that ships", () => {
    const shipped = packages.map(({ name }) => name);
    const stale = rootReadme
      .split("\n")
      .filter((line) => /planned/i.test(line))
      .filter(
        (line) => shipped.some((name) => line.includes(name)) || toolNamesIn(line).length > 0,
      );
    expect(stale).toEqual([]);
  });

  it.each(families)("names exactly the tools $packageName creates", ({ packageName, all }) => {
    const row = rowOf(packageName);
    expect(row, `README.md's package table has no row for ${packageName}`).toBeDefined();
    expect(toolNamesIn(row?.[1] ?? "")).toEqual([...all].sort());
  });
});

describe("package README tools tables", () => {
  it.each(families)(
    "$packageName: each tools table names one factory's tools or the family's",
    ({ packageName, groups, all }) => {
      const folder = packages.find(({ name }) => name === packageName)?.folder ?? "";
      const markdown = readFileSync(join(repositoryRoot, folder, "README.md"), "utf8");
      const tables = markdown.split(/\n(?=\| tool \| input \|)/).slice(1);
      for (const table of tables) {
        const rows = table.split("\n").slice(2);
        const end = rows.findIndex((line) => !line.startsWith("|"));
        const listed = (end === -1 ? rows : rows.slice(0, end))
          .map((line) => /^\|\s*`([a-z][a-z0-9_]*)`/.exec(line)?.[1])
          .filter((name): name is string => name !== undefined)
          .sort();
        const allowed = [all, ...groups].map((names) => [...names].sort());
        expect(
          allowed,
          `${folder}/README.md tools table lists ${listed.join(", ")}`,
        ).toContainEqual(listed);
      }
    },
  );
});
