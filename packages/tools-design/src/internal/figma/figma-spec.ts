import type { Component, ComponentSet, Node, Paint, Style, TypeStyle } from "@figma/rest-api-spec";
import {
  type AutoLayout,
  type DesignLayer,
  roundMeasure,
  type TextStyleToken,
  type TokenRecords,
  TokenTable,
} from "../layer-spec.js";
import { effectValue, paintValue, textStyleValue } from "./figma-style.js";

/**
 * Figma's node JSON simplified to the layout spec: one layer per visible node with its role,
 * box (relative to the node read), auto-layout, paints and effects as tokens named after the
 * file's styles when they come from one, text with its style, components and variant values.
 *
 * @internal
 */

/** What {@link simplifyFigmaNode} reads. */
export interface FigmaSpecSource {
  /** The node read (a page, a frame, any node), or the document. */
  root: Node;
  /** The file's styles (id → name and type), to name tokens after them. */
  styles: Readonly<Record<string, Style>>;
  /** The file's components, to name instances after them. */
  components: Readonly<Record<string, Component>>;
  /** The file's component sets. */
  componentSets: Readonly<Record<string, ComponentSet>>;
  /** Levels below the root to list (0: the root only). Default: all. */
  maxDepth?: number;
}

/** What {@link simplifyFigmaNode} returns. */
export interface FigmaSpec {
  /** Layers in drawing order (parents before children). */
  layers: DesignLayer[];
  /** The tokens they name. */
  tokens: TokenRecords;
  /** Hidden layers left out (with everything inside them). */
  hidden: number;
  /** Visible layers left out for being deeper than `maxDepth`. */
  below_depth: number;
}

const ROLES: Readonly<Record<string, string>> = {
  DOCUMENT: "document",
  CANVAS: "page",
  FRAME: "frame",
  GROUP: "group",
  SECTION: "section",
  COMPONENT: "component",
  COMPONENT_SET: "component_set",
  INSTANCE: "instance",
  TEXT: "text",
  RECTANGLE: "rect",
  ELLIPSE: "ellipse",
  LINE: "line",
  VECTOR: "vector",
  STAR: "vector",
  REGULAR_POLYGON: "vector",
  BOOLEAN_OPERATION: "vector",
};

const ALIGN: Readonly<Record<string, string>> = {
  MIN: "start",
  CENTER: "center",
  MAX: "end",
  SPACE_BETWEEN: "space-between",
  BASELINE: "baseline",
};

type AnyNode = Node & Record<string, unknown>;

/** Property names without Figma's `#12:3` suffix. */
function propertyName(name: string): string {
  const hash = name.lastIndexOf("#");
  return hash > 0 ? name.slice(0, hash) : name;
}

function autoLayout(node: AnyNode): AutoLayout | undefined {
  const mode = node.layoutMode as string | undefined;
  if (mode === undefined || mode === "NONE") return undefined;
  const layout: AutoLayout = {
    direction: mode === "HORIZONTAL" ? "row" : mode === "VERTICAL" ? "column" : "grid",
  };
  const gap = node.itemSpacing as number | undefined;
  if (gap !== undefined && gap !== 0) layout.gap = roundMeasure(gap);
  if (node.layoutWrap === "WRAP") {
    layout.wrap = true;
    const wrapGap = node.counterAxisSpacing as number | undefined;
    if (wrapGap !== undefined) layout.wrap_gap = roundMeasure(wrapGap);
  }
  const padding = ["paddingTop", "paddingRight", "paddingBottom", "paddingLeft"].map((key) =>
    roundMeasure((node[key] as number | undefined) ?? 0),
  ) as [number, number, number, number];
  if (padding.some((value) => value !== 0)) layout.padding = padding;
  const justify = ALIGN[(node.primaryAxisAlignItems as string | undefined) ?? "MIN"];
  if (justify !== undefined && justify !== "start") layout.justify = justify;
  const align = stretchesChildren(node, layout.direction)
    ? "stretch"
    : ALIGN[(node.counterAxisAlignItems as string | undefined) ?? "MIN"];
  if (align !== undefined && align !== "start") layout.align = align;
  return layout;
}

/**
 * Whether every visible child in the flow fills the cross axis (CSS `align-items: stretch`):
 * then the frame's own cross-axis alignment has no effect, and stretch is what to build.
 */
function stretchesChildren(node: AnyNode, direction: AutoLayout["direction"]): boolean {
  if (direction === "grid") return false;
  const crossSizing = direction === "row" ? "layoutSizingVertical" : "layoutSizingHorizontal";
  const inFlow = ((node.children as AnyNode[] | undefined) ?? []).filter(
    (child) => child.visible !== false && child.layoutPositioning !== "ABSOLUTE",
  );
  return (
    inFlow.length > 0 &&
    inFlow.every((child) => child[crossSizing] === "FILL" || child.layoutAlign === "STRETCH")
  );
}

/** Builds the spec of one node tree. */
class FigmaSpecBuilder {
  readonly layers: DesignLayer[] = [];
  readonly colors = new TokenTable<string>("c");
  readonly textStyles = new TokenTable<TextStyleToken>("t");
  readonly effects = new TokenTable<string>("e");
  hidden = 0;
  belowDepth = 0;
  readonly #source: FigmaSpecSource;
  readonly #originX: number;
  readonly #originY: number;

  constructor(source: FigmaSpecSource) {
    this.#source = source;
    const box = (source.root as AnyNode).absoluteBoundingBox as
      | { x: number; y: number }
      | null
      | undefined;
    this.#originX = box?.x ?? 0;
    this.#originY = box?.y ?? 0;
  }

  #styleName(node: AnyNode, kind: string): string | undefined {
    const id = (node.styles as Record<string, string> | undefined)?.[kind];
    return id === undefined ? undefined : this.#source.styles[id]?.name;
  }

  #paints(node: AnyNode, key: "fills" | "strokes", styleKind: string): string[] | undefined {
    const paints = (node[key] as Paint[] | undefined) ?? [];
    const values = paints.map(paintValue).filter((value): value is string => value !== undefined);
    if (values.length === 0) return undefined;
    const styleName = this.#styleName(node, styleKind);
    return values.map((value, index) =>
      this.colors.name(
        value,
        styleName === undefined ? undefined : index === 0 ? styleName : `${styleName} ${index + 1}`,
      ),
    );
  }

  walk(node: AnyNode, depth: number, parent: AnyNode | undefined): void {
    if (node.visible === false) {
      this.hidden += 1;
      return;
    }
    const children = (node.children as AnyNode[] | undefined) ?? [];
    if (node.type === "DOCUMENT") {
      for (const child of children) this.walk(child, depth, node);
      return;
    }
    if (this.#source.maxDepth !== undefined && depth > this.#source.maxDepth) {
      this.belowDepth += 1 + countVisible(children);
      return;
    }
    this.layers.push(this.#layer(node, depth, parent));
    for (const child of children) this.walk(child, depth + 1, node);
  }

  #layer(node: AnyNode, depth: number, parent: AnyNode | undefined): DesignLayer {
    const layer: DesignLayer = {
      id: node.id,
      depth,
      role: ROLES[node.type] ?? node.type.toLowerCase(),
    };
    layer.name = node.name;
    const box = node.absoluteBoundingBox as
      | { x: number; y: number; width: number; height: number }
      | null
      | undefined;
    if (box !== undefined && box !== null && node.type !== "CANVAS") {
      layer.x = roundMeasure(box.x - this.#originX);
      layer.y = roundMeasure(box.y - this.#originY);
      layer.width = roundMeasure(box.width);
      layer.height = roundMeasure(box.height);
    }
    const rotation = node.rotation as number | undefined;
    if (rotation !== undefined && Math.abs(rotation) > 1e-6)
      layer.rotation = roundMeasure((rotation * 180) / Math.PI);
    const opacity = node.opacity as number | undefined;
    if (opacity !== undefined && opacity < 1) layer.opacity = roundMeasure(opacity);
    const layout = autoLayout(node);
    if (layout !== undefined) layer.layout = layout;
    const horizontal = node.layoutSizingHorizontal as string | undefined;
    const vertical = node.layoutSizingVertical as string | undefined;
    if (
      (horizontal !== undefined && horizontal !== "FIXED") ||
      (vertical !== undefined && vertical !== "FIXED")
    ) {
      layer.sizing = {
        horizontal: (horizontal ?? "FIXED").toLowerCase(),
        vertical: (vertical ?? "FIXED").toLowerCase(),
      };
    }
    if (node.layoutPositioning === "ABSOLUTE")
      layer.notes = ["absolute position inside auto-layout"];
    const fills = this.#paints(node, "fills", "fill");
    const strokes = this.#paints(node, "strokes", "stroke");
    if (node.type === "TEXT") this.#text(node, layer, fills?.[0]);
    else if (fills !== undefined) layer.fills = fills;
    if (strokes !== undefined) {
      layer.strokes = strokes;
      const weights = node.individualStrokeWeights as
        | { top: number; right: number; bottom: number; left: number }
        | undefined;
      layer.stroke_width = roundMeasure((node.strokeWeight as number | undefined) ?? 1);
      if (weights !== undefined) {
        layer.notes = [
          ...(layer.notes ?? []),
          `stroke widths ${weights.top},${weights.right},${weights.bottom},${weights.left}`,
        ];
      }
    }
    const corners = node.rectangleCornerRadii as number[] | undefined;
    const radius = node.cornerRadius as number | undefined;
    if (corners !== undefined && new Set(corners).size > 1)
      layer.radius = corners.map(roundMeasure);
    else if (radius !== undefined && radius !== 0) layer.radius = roundMeasure(radius);
    const effects = ((node.effects as Parameters<typeof effectValue>[0][] | undefined) ?? [])
      .map(effectValue)
      .filter((value): value is string => value !== undefined);
    if (effects.length > 0)
      layer.effects = [this.effects.name(effects.join(", "), this.#styleName(node, "effect"))];
    this.#component(node, layer, parent);
    return layer;
  }

  #text(node: AnyNode, layer: DesignLayer, color: string | undefined): void {
    layer.text = (node.characters as string | undefined) ?? "";
    const style = node.style as TypeStyle | undefined;
    if (style !== undefined) {
      layer.text_style = this.textStyles.name(
        textStyleValue(style, color),
        this.#styleName(node, "text"),
      );
    } else if (color !== undefined) layer.fills = [color];
    const overrides = node.characterStyleOverrides as number[] | undefined;
    if (overrides?.some((value) => value !== 0)) {
      layer.notes = [...(layer.notes ?? []), "mixed styles inside the text (the main style shown)"];
    }
  }

  #component(node: AnyNode, layer: DesignLayer, parent: AnyNode | undefined): void {
    if (node.type === "INSTANCE") {
      const component = this.#source.components[node.componentId as string];
      const set =
        component?.componentSetId === undefined
          ? undefined
          : this.#source.componentSets[component.componentSetId];
      if (component !== undefined) layer.component = set?.name ?? component.name;
      const properties = node.componentProperties as
        | Record<string, { value: string | boolean }>
        | undefined;
      if (properties !== undefined && Object.keys(properties).length > 0) {
        layer.properties = Object.entries(properties).map(([name, property]) => ({
          name: propertyName(name),
          value: property.value,
        }));
      }
    } else if (node.type === "COMPONENT" && parent?.type === "COMPONENT_SET") {
      layer.component = parent.name;
      const pairs = node.name.split(",").map((part) => part.split("="));
      if (pairs.every((pair) => pair.length === 2)) {
        layer.properties = pairs.map(([key, value]) => ({
          name: (key ?? "").trim(),
          value: (value ?? "").trim(),
        }));
      }
    }
  }
}

function countVisible(nodes: readonly AnyNode[]): number {
  let count = 0;
  const stack = [...nodes];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.visible === false) continue;
    count += 1;
    stack.push(...((node.children as AnyNode[] | undefined) ?? []));
  }
  return count;
}

/**
 * Simplifies a Figma node tree to the layout spec.
 *
 * @param source - the root node, the file's styles and components, a depth limit
 * @returns the layers and tokens, and what was left out
 */
export function simplifyFigmaNode(source: FigmaSpecSource): FigmaSpec {
  const builder = new FigmaSpecBuilder(source);
  builder.walk(source.root as AnyNode, 0, undefined);
  return {
    layers: builder.layers,
    tokens: {
      colors: builder.colors.entries(),
      text_styles: builder.textStyles.entries(),
      effects: builder.effects.entries(),
    },
    hidden: builder.hidden,
    below_depth: builder.belowDepth,
  };
}
