import type { GetFileResponse, SubcanvasNode, TypeStyle } from "@figma/rest-api-spec";
import { componentSet, ellipse, inter, shadow, solid, vector } from "./figma-nodes.js";
import { filling, fixed, label, type Placed, stack } from "./figma-stack.js";

/**
 * The parts of the design-system fixture (figma-design-system-file.ts): its named styles and
 * builders of its components and their instances (button, badge, input, avatar, icon), placed
 * by figma-stack.ts.
 */

const style = (name: string, styleType: "FILL" | "TEXT" | "EFFECT", key: string) => ({
  key,
  name,
  description: "",
  remote: false,
  styleType,
});

/** The ten named text styles: key, then [style name, type style]. */
export const TEXT_STYLES: Record<string, [string, TypeStyle]> = {
  display: ["Display/L", inter(48, 700, 56, { letterSpacing: -0.96 })],
  h1: ["Heading/H1", inter(32, 600, 40, { letterSpacing: -0.64 })],
  h2: ["Heading/H2", inter(24, 600, 32)],
  h3: ["Heading/H3", inter(20, 600, 28)],
  bodyL: ["Body/L", inter(18, 400, 28)],
  body: ["Body/M", inter(16, 400, 24)],
  bodyS: ["Body/S", inter(14, 400, 20)],
  labelM: ["Label/M", inter(14, 600, 20)],
  caption: ["Caption", inter(12, 400, 16, { textCase: "UPPER", letterSpacing: 0.6 })],
  code: [
    "Code/M",
    { ...inter(14, 400, 20), fontFamily: "JetBrains Mono", fontPostScriptName: "JetBrainsMono" },
  ],
};

/** The named colours: key, then [style name, hex]. */
export const COLORS: Record<string, [string, string]> = {
  primary: ["Brand/Primary", "#4f46e5"],
  primaryHover: ["Brand/Primary hover", "#4338ca"],
  surface: ["Surface/Default", "#ffffff"],
  subtle: ["Surface/Subtle", "#f8fafc"],
  border: ["Border/Default", "#e2e8f0"],
  text: ["Text/Primary", "#0f172a"],
  muted: ["Text/Muted", "#64748b"],
  success: ["Feedback/Success", "#16a34a"],
  warning: ["Feedback/Warning", "#d97706"],
  danger: ["Feedback/Danger", "#dc2626"],
};

const styleId = (group: string, index: number) =>
  `S:${group}${String(index).padStart(4, "0")},9:${index}`;
/** Style ids of the text styles. */
export const textStyleIds = Object.fromEntries(
  Object.keys(TEXT_STYLES).map((name, index) => [name, styleId("t", index + 1)]),
);
/** Style ids of the colour styles. */
export const colorStyleIds = Object.fromEntries(
  Object.keys(COLORS).map((name, index) => [name, styleId("c", index + 1)]),
);
/** Style ids of the two elevation styles. */
export const ELEVATION = [styleId("e", 1), styleId("e", 2)] as const;

/** The file's styles (id to name and type). */
export const styles: GetFileResponse["styles"] = {
  ...Object.fromEntries(
    Object.entries(TEXT_STYLES).map(([key, [name]]) => [
      textStyleIds[key],
      style(name, "TEXT", `t${key}`),
    ]),
  ),
  ...Object.fromEntries(
    Object.entries(COLORS).map(([key, [name]]) => [
      colorStyleIds[key],
      style(name, "FILL", `c${key}`),
    ]),
  ),
  [ELEVATION[0]]: style("Elevation/1", "EFFECT", "e1"),
  [ELEVATION[1]]: style("Elevation/2", "EFFECT", "e2"),
};

/** The two elevations' shadows. */
export const elevation = [
  [shadow(1, 2, "#0f172a", 0.06), shadow(1, 3, "#0f172a", 0.1)],
  [shadow(4, 6, "#0f172a", 0.07), shadow(10, 15, "#0f172a", 0.1)],
];

/** Text in a named style and colour. */
export function styled(
  id: string,
  name: string,
  characters: string,
  kind: keyof typeof TEXT_STYLES,
  color: keyof typeof COLORS = "text",
  options: { width?: number; horizontal?: "FILL" } = {},
): Placed {
  const [, type] = TEXT_STYLES[kind] ?? ["", inter(16, 400, 24)];
  return label(id, name, characters, type, {
    color: COLORS[color]?.[1],
    styles: { text: textStyleIds[kind] ?? "", fill: colorStyleIds[color] ?? "" },
    ...options,
  });
}

/** A fill from a named colour, with its style reference. */
export const fill = (key: keyof typeof COLORS) => ({
  fills: [solid(COLORS[key]?.[1] ?? "#000000")],
  styles: { fill: colorStyleIds[key] ?? "" },
});

// ── components ────────────────────────────────────────────────────────────────────────────
const BUTTON_KINDS = ["Primary", "Secondary", "Ghost"] as const;
const BUTTON_STATES = ["Default", "Hover", "Disabled"] as const;
const buttonId = (kind: number, state: number) => `3:${10 + kind * 3 + state}`;

function buttonLook(kind: number, state: number) {
  if (kind === 0)
    return { ...fill(state === 1 ? "primaryHover" : "primary"), opacity: state === 2 ? 0.4 : 1 };
  if (kind === 1)
    return { ...fill("surface"), strokes: [solid(COLORS.border?.[1] ?? "")], strokeWeight: 1 };
  return { fills: state === 1 ? [solid(COLORS.subtle?.[1] ?? "")] : [] };
}

/** A button instance of a kind (0 primary, 1 secondary, 2 ghost) and state (0 default, 1 hover, 2 disabled). */
export function button(id: string, text: string, kind = 0, state = 0): Placed {
  return stack(
    id,
    "Button",
    "row",
    [styled(`I${id};3:1`, "Label", text, "labelM", kind === 0 ? "surface" : "text")],
    {
      gap: 8,
      padding: [10, 16, 10, 16],
      align: "CENTER",
      justify: "CENTER",
      extra: { cornerRadius: 8, ...buttonLook(kind, state) },
      instanceOf: {
        componentId: buttonId(kind, state),
        properties: {
          Kind: { type: "VARIANT", value: BUTTON_KINDS[kind] ?? "Primary" },
          State: { type: "VARIANT", value: BUTTON_STATES[state] ?? "Default" },
          "Label#3:0": { type: "TEXT", value: text },
        },
      },
    },
  );
}

const BADGE_TONES = ["success", "warning", "danger"] as const;
/** A badge instance of a tone (0 success, 1 warning, 2 danger). */
export function badge(id: string, text: string, tone: number): Placed {
  const key = BADGE_TONES[tone] ?? "success";
  return stack(id, "Badge", "row", [styled(`I${id};4:1`, "Text", text, "caption", key)], {
    padding: [2, 8, 2, 8],
    align: "CENTER",
    extra: { cornerRadius: 999, fills: [solid(COLORS[key]?.[1] ?? "", 0.12)] },
    instanceOf: {
      componentId: `4:${10 + tone}`,
      properties: { Tone: { type: "VARIANT", value: key[0]?.toUpperCase() + key.slice(1) } },
    },
  });
}

/** A round avatar of a size. */
export function avatar(id: string, size: number): Placed {
  return fixed(size, size, (box) =>
    ellipse(id, "Avatar", box, {
      fills: [solid("#c7d2fe")],
      strokes: [solid("#ffffff")],
      strokeWeight: 2,
    }),
  );
}

/** A 20x20 stroked icon. */
export function icon(id: string, name: string): Placed {
  return fixed(20, 20, (box) =>
    vector(id, name, box, { strokes: [solid(COLORS.muted?.[1] ?? "")], strokeWeight: 1.5 }),
  );
}

/** A labelled text field (an error line under it when `error`). */
export function input(id: string, labelText: string, value: string, error = false): Placed {
  const field = stack(
    `${id}f`,
    "Field",
    "row",
    [
      icon(`${id}i`, "Search"),
      styled(`${id}v`, "Value", value, "body", value === "" ? "muted" : "text"),
    ],
    {
      gap: 8,
      padding: [10, 12, 10, 12],
      align: "CENTER",
      horizontal: "FILL",
      extra: {
        cornerRadius: 8,
        ...fill("surface"),
        strokes: [solid(COLORS[error ? "danger" : "border"]?.[1] ?? "")],
        strokeWeight: 1,
      },
    },
  );
  const children = [styled(`${id}l`, "Label", labelText, "labelM"), filling(field, true)];
  if (error) children.push(styled(`${id}e`, "Error", "This field is required", "bodyS", "danger"));
  return stack(id, "Input", "column", children, { gap: 6, width: 320, horizontal: "FILL" });
}

/** A component set whose variants are the given placed layers, drawn as components. */
function variantSet(
  id: string,
  name: string,
  x: number,
  y: number,
  variants: Array<{ id: string; name: string; placed: Placed }>,
): SubcanvasNode {
  const gap = 20;
  let cursor = x + gap;
  const height = Math.max(...variants.map(({ placed }) => placed.height)) + 2 * gap;
  const children = variants.map((variant) => {
    const node = variant.placed.build(cursor, y + gap, variant.placed.width, variant.placed.height);
    cursor += variant.placed.width + gap;
    const {
      componentId: _componentId,
      overrides: _overrides,
      componentProperties: _properties,
      ...fields
    } = node as unknown as Record<string, unknown>;
    return { ...fields, id: variant.id, name: variant.name, type: "COMPONENT" } as never;
  });
  return componentSet(id, name, { x, y, width: cursor - x, height }, children);
}

/** The Button and Badge component sets (their variants are what the screens' instances use). */
export function designSystemComponents(): SubcanvasNode[] {
  return [
    variantSet(
      "3:1",
      "Button",
      4000,
      0,
      BUTTON_KINDS.flatMap((kind, k) =>
        BUTTON_STATES.map((state, s) => ({
          id: buttonId(k, s),
          name: `Kind=${kind}, State=${state}`,
          placed: button(buttonId(k, s), kind, k, s),
        })),
      ),
    ),
    variantSet(
      "4:1",
      "Badge",
      4000,
      200,
      BADGE_TONES.map((tone, index) => ({
        id: `4:${10 + index}`,
        name: `Tone=${tone[0]?.toUpperCase()}${tone.slice(1)}`,
        placed: badge(`4:${10 + index}`, tone, index),
      })),
    ),
  ];
}
