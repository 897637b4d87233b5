import type {
  CanvasNode,
  ComponentNode,
  ComponentSetNode,
  DropShadowEffect,
  EllipseNode,
  FrameNode,
  InstanceNode,
  RectangleNode,
  RGBA,
  SolidPaint,
  SubcanvasNode,
  TextNode,
  TypeStyle,
  VectorNode,
} from "@figma/rest-api-spec";

/**
 * Builders of Figma REST nodes, typed against `@figma/rest-api-spec` so every fixture has the
 * shape Figma's API documents (required fields included). Each takes the node's own facts and
 * fills in what every node of its kind carries in real responses.
 */

type Box = { x: number; y: number; width: number; height: number };

/** An opaque or translucent colour from a hex string. */
export function rgba(hex: string, alpha = 1): RGBA {
  const value = Number.parseInt(hex.replace("#", ""), 16);
  return {
    r: ((value >> 16) & 255) / 255,
    g: ((value >> 8) & 255) / 255,
    b: (value & 255) / 255,
    a: alpha,
  };
}

/** A solid paint. */
export function solid(hex: string, opacity?: number): SolidPaint {
  return {
    blendMode: "NORMAL",
    type: "SOLID",
    color: rgba(hex),
    ...(opacity === undefined ? {} : { opacity }),
  };
}

/** A drop shadow. */
export function shadow(y: number, radius: number, hex: string, alpha: number): DropShadowEffect {
  return {
    type: "DROP_SHADOW",
    visible: true,
    color: rgba(hex, alpha),
    blendMode: "NORMAL",
    offset: { x: 0, y },
    radius,
    spread: 0,
    showShadowBehindNode: false,
  };
}

const common = (box: Box) => ({
  scrollBehavior: "SCROLLS" as const,
  blendMode: "PASS_THROUGH" as const,
  absoluteBoundingBox: box,
  absoluteRenderBounds: box,
  constraints: { vertical: "TOP" as const, horizontal: "LEFT" as const },
  effects: [],
});

/** A frame (auto-layout fields passed in `extra`). */
export function frame(
  id: string,
  name: string,
  box: Box,
  children: SubcanvasNode[],
  extra: Partial<FrameNode> = {},
): FrameNode {
  return {
    id,
    name,
    type: "FRAME",
    ...common(box),
    clipsContent: true,
    fills: [],
    strokes: [],
    strokeWeight: 1,
    strokeAlign: "INSIDE",
    children,
    ...extra,
  };
}

/** A text layer. */
export function text(
  id: string,
  name: string,
  box: Box,
  characters: string,
  style: TypeStyle,
  extra: Partial<TextNode> = {},
): TextNode {
  return {
    id,
    name,
    type: "TEXT",
    ...common(box),
    fills: [solid("#1e1e1e")],
    strokes: [],
    strokeWeight: 1,
    strokeAlign: "OUTSIDE",
    characters,
    style,
    characterStyleOverrides: [],
    styleOverrideTable: {},
    lineTypes: ["NONE"],
    lineIndentations: [0],
    layoutVersion: 4,
    ...extra,
  };
}

/** A rectangle. */
export function rectangle(
  id: string,
  name: string,
  box: Box,
  extra: Partial<RectangleNode> = {},
): RectangleNode {
  return {
    id,
    name,
    type: "RECTANGLE",
    ...common(box),
    fills: [],
    strokes: [],
    strokeWeight: 1,
    strokeAlign: "INSIDE",
    ...extra,
  };
}

/** An ellipse. */
export function ellipse(
  id: string,
  name: string,
  box: Box,
  extra: Partial<EllipseNode> = {},
): EllipseNode {
  return {
    id,
    name,
    type: "ELLIPSE",
    ...common(box),
    fills: [],
    strokes: [],
    arcData: { startingAngle: 0, endingAngle: 6.2831854820251465, innerRadius: 0 },
    ...extra,
  };
}

/** A vector. */
export function vector(
  id: string,
  name: string,
  box: Box,
  extra: Partial<VectorNode> = {},
): VectorNode {
  return {
    id,
    name,
    type: "VECTOR",
    ...common(box),
    fills: [],
    strokes: [],
    strokeWeight: 2,
    strokeAlign: "CENTER",
    ...extra,
  };
}

/** A component. */
export function component(
  id: string,
  name: string,
  box: Box,
  children: SubcanvasNode[],
  extra: Partial<ComponentNode> = {},
): ComponentNode {
  return {
    id,
    name,
    type: "COMPONENT",
    ...common(box),
    clipsContent: false,
    fills: [],
    strokes: [],
    children,
    ...extra,
  };
}

/** A component set. */
export function componentSet(
  id: string,
  name: string,
  box: Box,
  children: SubcanvasNode[],
  extra: Partial<ComponentSetNode> = {},
): ComponentSetNode {
  return {
    id,
    name,
    type: "COMPONENT_SET",
    ...common(box),
    clipsContent: true,
    fills: [],
    strokes: [solid("#9747ff")],
    strokeWeight: 1,
    children,
    ...extra,
  };
}

/** An instance of a component. */
export function instance(
  id: string,
  name: string,
  box: Box,
  componentId: string,
  children: SubcanvasNode[],
  extra: Partial<InstanceNode> = {},
): InstanceNode {
  return {
    id,
    name,
    type: "INSTANCE",
    ...common(box),
    clipsContent: false,
    fills: [],
    strokes: [],
    componentId,
    overrides: [],
    children,
    ...extra,
  };
}

/** A page. */
export function page(id: string, name: string, children: SubcanvasNode[]): CanvasNode {
  return {
    id,
    name,
    type: "CANVAS",
    scrollBehavior: "SCROLLS",
    children,
    backgroundColor: rgba("#f5f5f5"),
    prototypeStartNodeID: null,
    flowStartingPoints: [],
    prototypeDevice: { type: "NONE", rotation: "NONE" },
  };
}

/** Inter at a size and weight, as Figma writes a type style. */
export function inter(
  fontSize: number,
  fontWeight: number,
  lineHeightPx: number,
  extra: Partial<TypeStyle> = {},
): TypeStyle {
  return {
    fontFamily: "Inter",
    fontPostScriptName: fontWeight >= 600 ? "Inter-SemiBold" : "Inter-Regular",
    fontStyle: fontWeight >= 600 ? "Semi Bold" : "Regular",
    fontWeight,
    fontSize,
    textAlignHorizontal: "LEFT",
    textAlignVertical: "TOP",
    letterSpacing: 0,
    lineHeightPx,
    lineHeightPercent: 100,
    lineHeightPercentFontSize: (lineHeightPx / fontSize) * 100,
    lineHeightUnit: "PIXELS",
    ...extra,
  };
}
