import {
  defineTool,
  formatCountOf,
  ok,
  parseOptions,
  type Tool,
  ToolFailureError,
} from "@agentool/contract";
import type {
  Effect,
  GetFileNodesResponse,
  GetFileResponse,
  GetFileStylesResponse,
  GetLocalVariablesResponse,
  Paint,
  TypeStyle,
} from "@figma/rest-api-spec";
import { z } from "zod";
import { tokensToCss } from "./internal/design-css.js";
import type { FigmaClient } from "./internal/figma/figma-client.js";
import {
  type FigmaToolOptions,
  figmaClientFromOptions,
  figmaOptionsShape,
  fileReferenceShape,
} from "./internal/figma/figma-options.js";
import { readFigmaReference } from "./internal/figma/figma-reference.js";
import { effectValue, paintValue, textStyleValue } from "./internal/figma/figma-style.js";
import { type TokenValue, variableTokens } from "./internal/figma/figma-variables.js";
import type { TextStyleToken } from "./internal/layer-spec.js";

/** The default name of the token reader. */
export const DESIGN_TOKENS_TOOL_NAME = "design_tokens";

/** Most style nodes fetched in one call. */
export const MAX_STYLE_NODES = 500;

/** Options of {@link createDesignTokensTool}. */
export type DesignTokensToolOptions = FigmaToolOptions;

/** One token: its name (as in Figma, `Brand/Primary`, `space/md`) and value. */
export interface DesignToken {
  /** The style's or variable's name. */
  name: string;
  /** A CSS colour or px number, a string or boolean, or an alias `{other/name}`. */
  value: TokenValue;
}

/** What `design_tokens` returns: the file's design tokens as JSON groups and as CSS. */
export interface DesignTokensToolData {
  /** The file key. */
  file_key: string;
  /** Colours (CSS colours or aliases), from fill styles and colour variables. */
  colors: DesignToken[];
  /** Text styles, each with its name: font family, size, weight, line height, letter spacing… */
  typography: Array<TextStyleToken & { name: string }>;
  /** Spacing in px, from number variables scoped to gaps or sizes. */
  spacing: DesignToken[];
  /** Corner radii in px, from number variables scoped to corner radius. */
  radii: DesignToken[];
  /** Effects as CSS shadow lists or blurs, from effect styles. */
  effects: DesignToken[];
  /** Other number variables. */
  numbers: DesignToken[];
  /** String and boolean variables. */
  other: DesignToken[];
  /** Values in modes other than each collection's default (`mode`: `"Theme/Dark"`). */
  modes: Array<{ mode: string; values: DesignToken[] }>;
  /** Everything above as CSS custom properties (`:root { --color-brand-primary: #2563eb; … }`). */
  css: string;
  /** Facts (variables not readable with this token, style kinds not turned into tokens). */
  notes: string[];
}

function listOf(record: Readonly<Record<string, TokenValue>>): DesignToken[] {
  return Object.entries(record).map(([name, value]) => ({ name, value }));
}

const designTokensOptionsSchema = z.object(figmaOptionsShape).strict();

/** The token reader's input schema. */
export const designTokensInputSchema = z.object({ ...fileReferenceShape });

/** The token reader's type. */
export type DesignTokensTool = Tool<typeof designTokensInputSchema, DesignTokensToolData>;

/**
 * Renders `design_tokens`' result: the counts, then the CSS custom properties (every value).
 *
 * @param data - the tool's data
 * @returns the text the model reads
 */
export function formatDesignTokens(data: DesignTokensToolData): string {
  const counts = [
    [data.colors.length, "color", "colors"],
    [data.typography.length, "text style", "text styles"],
    [data.spacing.length, "spacing", "spacing"],
    [data.radii.length, "radius", "radii"],
    [data.effects.length, "effect", "effects"],
    [data.numbers.length, "number", "numbers"],
  ] as const;
  const total = counts.reduce((sum, [count]) => sum + count, 0);
  const lines = [
    `Design tokens of Figma file ${data.file_key}: ${counts.map(([count, one, many]) => formatCountOf(count, one, many)).join(", ")}.`,
  ];
  if (total === 0)
    lines.push(
      "The file has no styles or variables: read colours and text styles from design_read's tokens instead.",
    );
  else lines.push("```css", data.css, "```");
  const other = data.other.map(({ name, value }) => [name, value] as const);
  if (other.length > 0)
    lines.push(
      `other variables: ${other.map(([name, value]) => `${name}=${JSON.stringify(value)}`).join(", ")}`,
    );
  if (data.notes.length > 0) lines.push(`notes: ${data.notes.join("; ")}`);
  return lines.join("\n");
}

async function styleTokens(client: FigmaClient, key: string, signal: AbortSignal, notes: string[]) {
  const colors: Record<string, TokenValue> = {};
  const typography: Record<string, TextStyleToken> = {};
  const effects: Record<string, string> = {};
  const published = await client.getJson<GetFileStylesResponse>(
    `/v1/files/${key}/styles`,
    `styles of file ${key}`,
    signal,
  );
  const file = await client.getJson<GetFileResponse>(
    `/v1/files/${key}?depth=1`,
    `file ${key}`,
    signal,
  );
  // Local styles (published or not) from the file, then published ones; keyed by node id.
  const styles = new Map<string, { name: string; type: string }>();
  for (const [id, style] of Object.entries(file.styles)) {
    styles.set(id.includes(",") ? (id.split(",").at(-1) ?? id) : id, {
      name: style.name,
      type: style.styleType,
    });
  }
  for (const style of published.meta.styles)
    styles.set(style.node_id, { name: style.name, type: style.style_type });
  const ids = [...styles.keys()].slice(0, MAX_STYLE_NODES);
  if (styles.size > ids.length)
    notes.push(`only the first ${MAX_STYLE_NODES} of ${styles.size} styles read`);
  if (ids.length === 0) return { colors, typography, effects };
  const nodes = await client.getJson<GetFileNodesResponse>(
    `/v1/files/${key}/nodes?ids=${encodeURIComponent(ids.join(","))}`,
    `style nodes of file ${key}`,
    signal,
  );
  let grids = 0;
  for (const id of ids) {
    const style = styles.get(id);
    const node = nodes.nodes[id]?.document as
      | (Record<string, unknown> & { type: string })
      | undefined;
    if (style === undefined || node === undefined) continue;
    if (style.type === "FILL") {
      const values = ((node.fills as Paint[] | undefined) ?? [])
        .map(paintValue)
        .filter((value) => value !== undefined);
      if (values.length === 1 && values[0] !== undefined) colors[style.name] = values[0];
      else {
        for (const [index, value] of values.entries()) colors[`${style.name} ${index + 1}`] = value;
      }
    } else if (style.type === "TEXT" && node.style !== undefined) {
      typography[style.name] = textStyleValue(node.style as TypeStyle, undefined);
    } else if (style.type === "EFFECT") {
      const values = ((node.effects as Effect[] | undefined) ?? [])
        .map(effectValue)
        .filter((value) => value !== undefined);
      if (values.length > 0) effects[style.name] = values.join(", ");
    } else grids += 1;
  }
  if (grids > 0)
    notes.push(`${grids} layout grid ${grids === 1 ? "style" : "styles"} not turned into tokens`);
  return { colors, typography, effects };
}

async function variables(client: FigmaClient, key: string, signal: AbortSignal, notes: string[]) {
  try {
    return variableTokens(
      await client.getJson<GetLocalVariablesResponse>(
        `/v1/files/${key}/variables/local`,
        `variables of file ${key}`,
        signal,
      ),
    );
  } catch (error) {
    const failure = ToolFailureError.find(error);
    if (failure?.code !== "PERMISSION_DENIED") throw error;
    notes.push(
      "variables left out: Figma's variables API needs an Enterprise plan and a token with file_variables:read (HTTP 403)",
    );
    return undefined;
  }
}

/**
 * Creates `design_tokens`: a Figma file's colours, typography, spacing, radii and effects, from
 * its styles and local variables, as JSON groups and as CSS custom properties.
 *
 * @param options - the host's Figma token, transport and limits, name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const tokens = createDesignTokensTool({ figmaToken: process.env.FIGMA_TOKEN ?? "" });
 * await tokens.run({ file_key: "AbCdEf1234567890" });
 */
export function createDesignTokensTool(options: DesignTokensToolOptions): DesignTokensTool {
  const parsed = parseOptions("createDesignTokensTool", designTokensOptionsSchema, options);
  const { client } = figmaClientFromOptions("createDesignTokensTool", parsed);
  return defineTool({
    name: parsed.name ?? DESIGN_TOKENS_TOOL_NAME,
    description:
      parsed.description ??
      "Reads a Figma file's design tokens — colours, typography, spacing, radii and effects from its styles and variables (with light/dark modes) — as JSON and as CSS custom properties to paste into a stylesheet. Use it once per file before building screens from design_read.",
    input: designTokensInputSchema,
    timeoutMs: parsed.timeoutMs ?? 120_000,
    annotations: {
      title: "Read Figma design tokens",
      readOnly: true,
      idempotent: true,
      openWorld: true,
    },
    tags: ["design", "design:read", "network"],
    execute: async (request, context) => {
      const key = readFigmaReference(request).file_key;
      const notes: string[] = [];
      const styles = await styleTokens(client, key, context.signal, notes);
      const fromVariables = await variables(client, key, context.signal, notes);
      const groups = {
        colors: { ...styles.colors, ...fromVariables?.colors },
        typography: styles.typography,
        spacing: { ...fromVariables?.spacing },
        radii: { ...fromVariables?.radii },
        effects: styles.effects,
        numbers: { ...fromVariables?.numbers },
        modes: { ...fromVariables?.modes },
      };
      return ok({
        file_key: key,
        colors: listOf(groups.colors),
        typography: Object.entries(groups.typography).map(([name, style]) => ({ name, ...style })),
        spacing: listOf(groups.spacing),
        radii: listOf(groups.radii),
        effects: listOf(groups.effects),
        numbers: listOf(groups.numbers),
        other: listOf({ ...fromVariables?.other }),
        modes: Object.entries(groups.modes).map(([mode, values]) => ({
          mode,
          values: listOf(values),
        })),
        css: tokensToCss(groups),
        notes,
      });
    },
    render: formatDesignTokens,
  });
}
