import type { FrameNode, InstanceNode, SubcanvasNode, TypeStyle } from "@figma/rest-api-spec";
import { frame, instance, solid, text } from "./figma-nodes.js";

/**
 * Auto-layout placement for the larger recorded fixtures: each builder knows its size and draws
 * itself at an absolute position, so nested rows and columns get the boxes Figma would report
 * (padding, gaps, hug/fill/fixed sizing, cross-axis alignment) without hand-computed numbers.
 */

/** How a layer sizes on one axis inside an auto-layout parent. */
export type Sizing = "FIXED" | "HUG" | "FILL";

/** A layer that knows its size and draws itself at an absolute position. */
export interface Placed {
  width: number;
  height: number;
  /** Sizing on each axis, as the node's layoutSizing fields will say. */
  sizing: { horizontal: Sizing; vertical: Sizing };
  /** Draws the node at (x, y), stretched to the given size on a FILL axis. */
  build: (x: number, y: number, width: number, height: number) => SubcanvasNode;
}

/** The auto-layout child fields Figma writes on every child of an auto-layout frame. */
export function childFields(sizing: Placed["sizing"], direction: "row" | "column") {
  const cross = direction === "row" ? sizing.vertical : sizing.horizontal;
  const main = direction === "row" ? sizing.horizontal : sizing.vertical;
  return {
    layoutAlign: cross === "FILL" ? ("STRETCH" as const) : ("INHERIT" as const),
    layoutGrow: main === "FILL" ? 1 : 0,
    layoutSizingHorizontal: sizing.horizontal,
    layoutSizingVertical: sizing.vertical,
  };
}

/** What a stack takes besides its children. */
export interface StackOptions {
  gap?: number;
  padding?: [number, number, number, number];
  /** Cross-axis alignment of the children. */
  align?: "MIN" | "CENTER" | "MAX";
  /** Main-axis alignment. */
  justify?: "MIN" | "CENTER" | "MAX" | "SPACE_BETWEEN";
  /** A fixed width or height (otherwise the stack hugs its children). */
  width?: number;
  height?: number;
  /** Sizing inside its own parent (default HUG on a hugging axis, FIXED on a fixed one). */
  horizontal?: Sizing;
  vertical?: Sizing;
  /** Further frame fields (fills, strokes, radius, effects, styles). */
  extra?: Partial<FrameNode>;
  /** Make it an instance of this component instead of a frame. */
  instanceOf?: { componentId: string; properties?: InstanceNode["componentProperties"] };
}

/**
 * A row or column of placed children (a Figma auto-layout frame).
 *
 * @param id - node id
 * @param name - layer name
 * @param direction - `row` (HORIZONTAL) or `column` (VERTICAL)
 * @param children - the children
 * @param options - gap, padding, alignment, size
 */
export function stack(
  id: string,
  name: string,
  direction: "row" | "column",
  children: Placed[],
  options: StackOptions = {},
): Placed {
  const gap = options.gap ?? 0;
  const [top, right, bottom, left] = options.padding ?? [0, 0, 0, 0];
  const main = (child: Placed) => (direction === "row" ? child.width : child.height);
  const cross = (child: Placed) => (direction === "row" ? child.height : child.width);
  const mainSum =
    children.reduce((sum, child) => sum + main(child), 0) + gap * Math.max(children.length - 1, 0);
  const crossMax = children.reduce((most, child) => Math.max(most, cross(child)), 0);
  const hugWidth = direction === "row" ? mainSum + left + right : crossMax + left + right;
  const hugHeight = direction === "row" ? crossMax + top + bottom : mainSum + top + bottom;
  const sizing = {
    horizontal: options.horizontal ?? (options.width === undefined ? "HUG" : "FIXED"),
    vertical: options.vertical ?? (options.height === undefined ? "HUG" : "FIXED"),
  } as const;
  return {
    width: options.width ?? hugWidth,
    height: options.height ?? hugHeight,
    sizing,
    build: (x, y, width, height) => {
      const innerMain = direction === "row" ? width - left - right : height - top - bottom;
      const innerCross = direction === "row" ? height - top - bottom : width - left - right;
      const growers = children.filter(
        (child) =>
          (direction === "row" ? child.sizing.horizontal : child.sizing.vertical) === "FILL",
      ).length;
      const free = innerMain - mainSum;
      const grow = growers > 0 ? free / growers : 0;
      let cursor = 0;
      let spacing = gap;
      if (growers === 0 && options.justify === "CENTER") cursor = free / 2;
      if (growers === 0 && options.justify === "MAX") cursor = free;
      if (growers === 0 && options.justify === "SPACE_BETWEEN" && children.length > 1) {
        spacing = gap + free / (children.length - 1);
      }
      const nodes = children.map((child) => {
        const fillsMain =
          (direction === "row" ? child.sizing.horizontal : child.sizing.vertical) === "FILL";
        const fillsCross =
          (direction === "row" ? child.sizing.vertical : child.sizing.horizontal) === "FILL";
        const mainSize = main(child) + (fillsMain ? grow : 0);
        const crossSize = fillsCross ? innerCross : cross(child);
        const crossOffset =
          options.align === "CENTER"
            ? (innerCross - crossSize) / 2
            : options.align === "MAX"
              ? innerCross - crossSize
              : 0;
        const childX = direction === "row" ? x + left + cursor : x + left + crossOffset;
        const childY = direction === "row" ? y + top + crossOffset : y + top + cursor;
        const node = child.build(
          childX,
          childY,
          direction === "row" ? mainSize : crossSize,
          direction === "row" ? crossSize : mainSize,
        );
        cursor += mainSize + spacing;
        return Object.assign(node, childFields(child.sizing, direction));
      });
      const fields: Partial<FrameNode> = {
        layoutMode: direction === "row" ? "HORIZONTAL" : "VERTICAL",
        itemSpacing: gap,
        paddingTop: top,
        paddingRight: right,
        paddingBottom: bottom,
        paddingLeft: left,
        primaryAxisAlignItems: options.justify ?? "MIN",
        counterAxisAlignItems: options.align ?? "MIN",
        primaryAxisSizingMode:
          (direction === "row" ? sizing.horizontal : sizing.vertical) === "HUG" ? "AUTO" : "FIXED",
        counterAxisSizingMode:
          (direction === "row" ? sizing.vertical : sizing.horizontal) === "HUG" ? "AUTO" : "FIXED",
        layoutSizingHorizontal: sizing.horizontal,
        layoutSizingVertical: sizing.vertical,
        ...options.extra,
      };
      const box = { x, y, width, height };
      if (options.instanceOf !== undefined) {
        return instance(id, name, box, options.instanceOf.componentId, nodes, {
          ...(fields as Partial<InstanceNode>),
          ...(options.instanceOf.properties === undefined
            ? {}
            : { componentProperties: options.instanceOf.properties }),
        });
      }
      return frame(id, name, box, nodes, fields);
    },
  };
}

/** Text that hugs its content (width from an average glyph of 0.55 em), or fills a width. */
export function label(
  id: string,
  name: string,
  characters: string,
  style: TypeStyle,
  options: {
    color?: string;
    styles?: Record<string, string>;
    horizontal?: Sizing;
    width?: number;
  } = {},
): Placed {
  const longest = Math.max(...characters.split("\n").map((line) => line.length));
  const lines = characters.split("\n").length;
  const width = options.width ?? Math.round(longest * (style.fontSize ?? 16) * 0.55);
  const height = lines * (style.lineHeightPx ?? 20);
  return {
    width,
    height,
    sizing: {
      horizontal: options.horizontal ?? (options.width === undefined ? "HUG" : "FIXED"),
      vertical: "HUG",
    },
    build: (x, y, w, h) =>
      text(
        id,
        name,
        { x, y, width: w, height: h },
        characters,
        { ...style, textAutoResize: options.width === undefined ? "WIDTH_AND_HEIGHT" : "HEIGHT" },
        {
          fills: [solid(options.color ?? "#111827")],
          ...(options.styles === undefined ? {} : { styles: options.styles }),
        },
      ),
  };
}

/** A fixed-size leaf (icon, swatch, divider) drawn by `make`. */
export function fixed(
  width: number,
  height: number,
  make: (box: { x: number; y: number; width: number; height: number }) => SubcanvasNode,
  sizing: Placed["sizing"] = { horizontal: "FIXED", vertical: "FIXED" },
): Placed {
  return { width, height, sizing, build: (x, y, w, h) => make({ x, y, width: w, height: h }) };
}

/** The same placed layer, sized FILL on one or both axes inside its parent. */
export function filling(placed: Placed, horizontal: boolean, vertical = false): Placed {
  return {
    ...placed,
    sizing: {
      horizontal: horizontal ? "FILL" : placed.sizing.horizontal,
      vertical: vertical ? "FILL" : placed.sizing.vertical,
    },
  };
}

/** Draws a placed layer as a top-level frame at (x, y), at its own size. */
export function drawAt(placed: Placed, x: number, y: number): SubcanvasNode {
  const node = placed.build(x, y, placed.width, placed.height);
  return node;
}
