import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEditNotebookTool, formatEditNotebook } from "./edit-notebook.js";
import { python, tempWorkspace } from "./test-support/write-fixtures.js";

// As Jupyter writes it: json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + "\n".
const NOTEBOOK = `${JSON.stringify(
  {
    cells: [
      { cell_type: "markdown", id: "intro", metadata: {}, source: ["# Título\n", "Some text"] },
      {
        cell_type: "code",
        execution_count: 3,
        id: "calc",
        metadata: { scrolled: true },
        outputs: [{ name: "stdout", output_type: "stream", text: ["2\n"] }],
        source: ["x = 1\n", "print(x + 1)"],
      },
      {
        cell_type: "code",
        execution_count: null,
        id: "last",
        metadata: {},
        outputs: [],
        source: [],
      },
    ],
    metadata: { kernelspec: { display_name: "Python 3", language: "python", name: "python3" } },
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
)}\n`.replace('"name": "python3"', '"name": "python3",\n   "ratio": 1.0');

const folder = tempWorkspace();
afterAll(() => folder.remove());
let counter = 0;
const tool = createEditNotebookTool({ root: folder.root });

function place(text = NOTEBOOK): string {
  const name = `nb${++counter}.ipynb`;
  writeFileSync(join(folder.root, name), text);
  return name;
}
const read = (path: string) => readFileSync(join(folder.root, path), "utf8");
const HAS_PYTHON = existsSync("/usr/bin/python3");

describe("edit_notebook", () => {
  it("replaces a code cell's source, clears its outputs, keeps every other byte (1.0 included)", async () => {
    const path = place();
    const result = await tool.run({ path, cell: "calc", new_source: "y = 2\nprint(y)" });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data).toMatchObject({
      action: "replaced",
      cell_number: 2,
      cell_id: "calc",
      cell_type: "code",
      outputs_cleared: true,
      total_cells: 3,
    });
    expect(formatEditNotebook(result.data)).toContain("Replaced code cell 2 (id calc)");
    const text = read(path);
    const notebook = JSON.parse(text);
    expect(notebook.cells[1]).toEqual({
      cell_type: "code",
      execution_count: null,
      id: "calc",
      metadata: { scrolled: true },
      outputs: [],
      source: ["y = 2\n", "print(y)"],
    });
    expect(text).toContain('"ratio": 1.0');
    // Outside the edited cell, the file is what it was.
    const cellStart = '  {\n   "cell_type": "code"';
    const nextCell = '  {\n   "cell_type": "code",\n   "execution_count": null';
    expect(text.slice(0, text.indexOf(cellStart))).toBe(
      NOTEBOOK.slice(0, NOTEBOOK.indexOf(cellStart)),
    );
    expect(text.slice(text.lastIndexOf(nextCell))).toBe(
      NOTEBOOK.slice(NOTEBOOK.lastIndexOf(nextCell)),
    );
  });

  it("inserts before/after by position with a fresh id and deletes, as Jupyter would write them", async () => {
    const path = place();
    const inserted = await tool.run({
      path,
      cell: "1",
      insert: "after",
      new_source: "## Notes\nmore",
      cell_type: "markdown",
    });
    expect(inserted.success && inserted.data.cell_number).toBe(2);
    const after = JSON.parse(read(path));
    expect(after.cells[1].cell_type).toBe("markdown");
    expect(after.cells[1].id).toMatch(/^[0-9a-f]{8}$/);
    expect(after.cells[1].source).toEqual(["## Notes\n", "more"]);
    // Re-serialised the way nbformat does, the file is unchanged: indent 1, keys sorted.
    expect(read(path)).toBe(
      `${JSON.stringify(after, null, 1).replace('"ratio": 1', '"ratio": 1.0')}\n`,
    );
    const first = await tool.run({ path, cell: "1", insert: "before", new_source: "import os" });
    expect(first.success && first.data.total_cells).toBe(5);
    const deleted = await tool.run({ path, cell: "last", delete: true });
    expect(deleted.success && deleted.data.total_cells).toBe(4);
    const final = JSON.parse(read(path));
    expect(final.cells.map((cell: { cell_type: string }) => cell.cell_type)).toEqual([
      "code",
      "markdown",
      "markdown",
      "code",
    ]);
    expect(final.cells[0]).toMatchObject({
      execution_count: null,
      outputs: [],
      source: ["import os"],
    });
  });

  it("changes a cell's type, and refuses unknown cells, bad combinations and other files", async () => {
    const path = place();
    const typed = await tool.run({
      path,
      cell: "calc",
      new_source: "Now prose.",
      cell_type: "markdown",
    });
    expect(typed.success).toBe(true);
    expect(JSON.parse(read(path)).cells[1]).toEqual({
      cell_type: "markdown",
      id: "calc",
      metadata: { scrolled: true },
      source: ["Now prose."],
    });
    const missing = await tool.run({ path, cell: "nope", new_source: "x" });
    expect(!missing.success && missing.error.code).toBe("PATTERN_NOT_FOUND");
    expect(!missing.success && missing.error.message).toContain("1 (intro), 2 (calc), 3 (last)");
    const both = await tool.run({ path, cell: "1", delete: true, new_source: "x" });
    expect(!both.success && both.error.code).toBe("INVALID_INPUT");
    const none = await tool.run({ path, cell: "1" });
    expect(!none.success && none.error.code).toBe("INVALID_INPUT");
    const other = await tool.run({ path: "a.py", cell: "1", new_source: "x" });
    expect(!other.success && other.error.code).toBe("UNSUPPORTED");
    const stale = await tool.run({
      path,
      cell: "1",
      new_source: "x",
      expected_sha: "abcdef012345",
    });
    expect(!stale.success && stale.error.code).toBe("CONFLICT");
    const outside = await tool.run({ path: "../x.ipynb", cell: "1", new_source: "x" });
    expect(!outside.success && outside.error.code).toBe("INVALID_PATH");
  });

  it.skipIf(!HAS_PYTHON)("Python's json.load reads every edited notebook", async () => {
    const path = place();
    await tool.run({ path, cell: "2", new_source: 'print("ü")' });
    await tool.run({ path, cell: "intro", insert: "before", new_source: "", cell_type: "raw" });
    await tool.run({ path, cell: "last", delete: true });
    const out = python(
      "import json,sys\nnb=json.load(open(sys.argv[1],encoding='utf-8'))\nprint(json.dumps([c['cell_type'] for c in nb['cells']]), nb['cells'][2]['source'])",
      join(folder.root, path),
    );
    expect(out.trim()).toBe(`["raw", "markdown", "code"] ['print("ü")']`);
  });
});
