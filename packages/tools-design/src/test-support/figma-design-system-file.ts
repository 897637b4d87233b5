import type { GetFileResponse, SubcanvasNode } from "@figma/rest-api-spec";
import {
  avatar,
  badge,
  button,
  COLORS,
  colorStyleIds,
  designSystemComponents,
  ELEVATION,
  elevation,
  fill,
  icon,
  input,
  styled,
  styles,
  TEXT_STYLES,
} from "./figma-design-system-parts.js";
import { page, rectangle, solid } from "./figma-nodes.js";
import { drawAt, filling, fixed, label, type Placed, stack } from "./figma-stack.js";

/**
 * A larger recorded-shape Figma file: a design system's foundations (colour, type, spacing,
 * radius and elevation sheets), its components (Button and Badge sets with variants) and 24
 * product screens built from instances of them — 33 top-level frames, nested auto-layout with
 * hug/fill/fixed children, ten named text styles and text without one, fill and effect styles.
 * Boxes come from the auto-layout placement in figma-stack.ts, so they agree with the layout.
 */

/** The file's key. */
export const DESIGN_SYSTEM_FILE_KEY = "RGVzaWduU3lzdGVtMDI";

let serial = 0;
/** A fresh node id on page 5 (screens) or 6 (foundations). */
function next(pageNumber: number): string {
  serial += 1;
  return `${pageNumber}:${serial}`;
}

const sheetOptions = (width: number) => ({
  gap: 24,
  padding: [40, 40, 40, 40] as [number, number, number, number],
  width,
  extra: { ...fill("surface"), cornerRadius: 16 },
});

function swatch(key: string): Placed {
  const [name, hex] = COLORS[key] ?? ["", "#000000"];
  return stack(
    next(6),
    name,
    "column",
    [
      fixed(120, 72, (box) =>
        rectangle(next(6), "Chip", box, {
          fills: [solid(hex)],
          styles: { fill: colorStyleIds[key] ?? "" },
          cornerRadius: 8,
          strokes: [solid(COLORS.border?.[1] ?? "")],
        }),
      ),
      styled(next(6), "Name", name, "labelM"),
      styled(next(6), "Hex", hex.toUpperCase(), "code", "muted"),
    ],
    { gap: 8 },
  );
}

function foundations(): SubcanvasNode[] {
  const colorSheet = (title: string, keys: string[]) =>
    stack(
      next(6),
      `Colors / ${title}`,
      "column",
      [
        styled(next(6), "Title", `Colors — ${title}`, "h2"),
        stack(next(6), "Swatches", "row", keys.map(swatch), { gap: 16 }),
      ],
      sheetOptions(800),
    );
  const typeSheet = stack(
    next(6),
    "Typography",
    "column",
    Object.entries(TEXT_STYLES).map(([key, [name, type]]) =>
      stack(
        next(6),
        name,
        "row",
        [
          styled(next(6), "Sample", "The quick brown fox", key as never),
          styled(
            next(6),
            "Spec",
            `${type.fontFamily} ${type.fontSize}/${type.lineHeightPx} ${type.fontWeight}`,
            "code",
            "muted",
          ),
        ],
        { gap: 32, align: "CENTER", justify: "SPACE_BETWEEN", horizontal: "FILL" },
      ),
    ),
    sheetOptions(960),
  );
  const scaleSheet = (title: string, values: number[], radius: boolean) =>
    stack(
      next(6),
      title,
      "column",
      [
        styled(next(6), "Title", title, "h2"),
        stack(
          next(6),
          "Scale",
          "row",
          values.map((value) =>
            stack(
              next(6),
              `${title} ${value}`,
              "column",
              [
                fixed(radius ? 64 : value, radius ? 64 : 24, (box) =>
                  rectangle(next(6), "Sample", box, {
                    ...fill("primary"),
                    cornerRadius: radius ? value : 0,
                  }),
                ),
                label(next(6), "Value", `${value}px`, TEXT_STYLES.code?.[1] ?? ({} as never)),
              ],
              { gap: 8, align: "CENTER" },
            ),
          ),
          { gap: 24, align: "MAX" },
        ),
      ],
      sheetOptions(800),
    );
  const elevationSheet = stack(
    next(6),
    "Elevation",
    "row",
    elevation.map((shadows, index) =>
      stack(
        next(6),
        `Elevation/${index + 1}`,
        "column",
        [styled(next(6), "Name", `Elevation/${index + 1}`, "labelM")],
        {
          padding: [24, 24, 24, 24],
          width: 200,
          height: 120,
          extra: {
            ...fill("surface"),
            cornerRadius: 12,
            effects: shadows,
            styles: { fill: colorStyleIds.surface ?? "", effect: ELEVATION[index] ?? "" },
          },
        },
      ),
    ),
    { ...sheetOptions(800), gap: 40 },
  );
  const sheets = [
    colorSheet("Brand", ["primary", "primaryHover"]),
    colorSheet("Neutral", ["surface", "subtle", "border", "text", "muted"]),
    colorSheet("Feedback", ["success", "warning", "danger"]),
    typeSheet,
    scaleSheet("Spacing", [4, 8, 12, 16, 24, 32, 48], false),
    scaleSheet("Radii", [2, 4, 8, 12, 16, 999], true),
    elevationSheet,
  ];
  let y = 0;
  return sheets.map((sheet) => {
    const node = drawAt(sheet, 0, y);
    y += sheet.height + 80;
    return node;
  });
}

const PEOPLE = [
  ["Ada Lovelace", "ada@example.com", "Admin", 0],
  ["Grace Hopper", "grace@example.com", "Pending", 1],
  ["Alan Turing", "alan@example.com", "Suspended", 2],
  ["Katherine Johnson", "katherine@example.com", "Admin", 0],
  ["Edsger Dijkstra", "edsger@example.com", "Member", 0],
] as const;

const SCREENS = [
  "Team members",
  "Billing",
  "Invoices",
  "Projects",
  "Project settings",
  "Notifications",
  "Integrations",
  "API keys",
  "Audit log",
  "Sign in",
  "Sign up",
  "Reset password",
  "Dashboard",
  "Reports",
  "Customers",
  "Customer detail",
  "Orders",
  "Order detail",
  "Inventory",
  "Shipping",
  "Support inbox",
  "Ticket detail",
  "Profile",
  "Preferences",
];

function personRow(index: number, person: (typeof PEOPLE)[number]): Placed {
  const [name, email, role, tone] = person;
  return stack(
    next(5),
    "Row",
    "row",
    [
      avatar(next(5), 40),
      filling(
        stack(
          next(5),
          "Who",
          "column",
          [
            styled(next(5), "Name", name, "labelM"),
            styled(next(5), "Email", email, "bodyS", "muted"),
          ],
          { gap: 2 },
        ),
        true,
      ),
      badge(next(5), role, tone),
      index % 2 === 0 ? button(next(5), "Edit", 2, 0) : icon(next(5), "More"),
    ],
    {
      gap: 16,
      padding: [12, 16, 12, 16],
      align: "CENTER",
      horizontal: "FILL",
      extra: {
        strokes: [solid(COLORS.border?.[1] ?? "")],
        strokeWeight: 1,
        individualStrokeWeights: { top: 0, right: 0, bottom: 1, left: 0 },
      },
    },
  );
}

function screen(index: number, title: string): Placed {
  const form = index % 3 === 1;
  const header = stack(
    next(5),
    "Header",
    "row",
    [
      stack(
        next(5),
        "Titles",
        "column",
        [
          styled(next(5), "Title", title, "h1"),
          label(
            next(5),
            "Subtitle",
            `Manage ${title.toLowerCase()} for your workspace.`,
            TEXT_STYLES.bodyL?.[1] ?? ({} as never),
            { color: "#475569" },
          ),
        ],
        { gap: 4 },
      ),
      button(next(5), form ? "Save" : "Add new", 0, index % 3 === 2 ? 1 : 0),
    ],
    { gap: 24, align: "CENTER", justify: "SPACE_BETWEEN", horizontal: "FILL" },
  );
  const body = form
    ? stack(
        next(5),
        "Form",
        "column",
        [
          input(next(5), "Name", "Acme Inc."),
          input(next(5), "Email", "", index % 2 === 0),
          input(next(5), "Search", "Find a member"),
        ],
        {
          gap: 20,
          padding: [24, 24, 24, 24],
          horizontal: "FILL",
          extra: {
            ...fill("surface"),
            cornerRadius: 12,
            effects: elevation[0],
            styles: { fill: colorStyleIds.surface ?? "", effect: ELEVATION[0] },
          },
        },
      )
    : stack(
        next(5),
        "Table",
        "column",
        PEOPLE.slice(0, 3 + (index % 3)).map((person, row) => personRow(row, person)),
        {
          horizontal: "FILL",
          extra: {
            ...fill("surface"),
            cornerRadius: 12,
            strokes: [solid(COLORS.border?.[1] ?? "")],
            strokeWeight: 1,
            clipsContent: true,
          },
        },
      );
  return stack(next(5), `${title} / Desktop`, "column", [header, filling(body, true)], {
    gap: 32,
    padding: [48, 64, 48, 64],
    width: 1280,
    height: 832,
    extra: { ...fill("subtle") },
  });
}

function screens(): SubcanvasNode[] {
  return SCREENS.map((title, index) =>
    drawAt(screen(index, title), (index % 4) * 1400, Math.floor(index / 4) * 960),
  );
}

const document: GetFileResponse["document"] = {
  id: "0:0",
  name: "Document",
  type: "DOCUMENT",
  scrollBehavior: "SCROLLS",
  children: [
    page("0:1", "Foundations", foundations()),
    page("0:2", "Components", designSystemComponents()),
    page("0:3", "Screens", screens()),
  ],
};

/** GET /v1/files/:key — the whole file. */
export const designSystemFile: GetFileResponse = {
  name: "Acme Design System",
  role: "viewer",
  lastModified: "2025-06-03T14:22:51Z",
  editorType: "figma",
  thumbnailUrl: "https://s3-alpha.figma.com/thumbnails/7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f",
  version: "2219934125582716623",
  document,
  components: Object.fromEntries(
    (
      designSystemComponents() as Array<{
        children: Array<{ id: string; name: string }>;
        id: string;
      }>
    ).flatMap((set) =>
      set.children.map((variant) => [
        variant.id,
        {
          key: `k${variant.id.replace(":", "")}`,
          name: variant.name,
          description: "",
          componentSetId: set.id,
          documentationLinks: [],
          remote: false,
        },
      ]),
    ),
  ),
  componentSets: {
    "3:1": {
      key: "kset31",
      name: "Button",
      description: "Actions",
      documentationLinks: [],
      remote: false,
    },
    "4:1": {
      key: "kset41",
      name: "Badge",
      description: "Status",
      documentationLinks: [],
      remote: false,
    },
  },
  schemaVersion: 0,
  styles,
  linkAccess: "view",
};
