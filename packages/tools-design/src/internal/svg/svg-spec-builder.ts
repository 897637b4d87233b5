import { ToolFailureError } from "@agentool/contract";
import { normalizeColor } from "../color.js";
import { type DesignLayer, roundMeasure, type TextStyleToken, TokenTable } from "../layer-spec.js";
import { type GradientStops, gradientValue, stopProperty } from "./svg-gradients.js";
import { numbers, ownBox, union } from "./svg-shapes.js";
import type { SvgLimits, SvgSpec } from "./svg-spec.js";
import { elementStyle, readLength, type SvgStyle, textStyleOf } from "./svg-style.js";
import {
  type Box,
  IDENTITY,
  isAxisAligned,
  type Matrix,
  mapBox,
  multiply,
  parseTransform,
} from "./transform.js";

/**
 * The layers of an SVG as its elements open and close (the SAX events of svg-spec.ts): each
 * element's transform, inherited style and box, groups and shapes as layers, text gathered into
 * its layer, `<title>` naming its owner, gradients collected for the colours that use them.
 *
 * @internal
 */

const SHAPES: ReadonlySet<string> = new Set([
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "path",
  "text",
  "image",
  "use",
]);
const GROUPS: ReadonlySet<string> = new Set(["g", "a", "switch", "svg"]);
const NOT_RENDERED: ReadonlySet<string> = new Set([
  "defs",
  "clippath",
  "mask",
  "symbol",
  "pattern",
  "marker",
  "lineargradient",
  "radialgradient",
  "filter",
  "metadata",
  "title",
  "desc",
  "style",
  "script",
  "foreignobject",
]);
const MAX_PATH_DATA = 240;

interface Frame {
  matrix: Matrix;
  style: SvgStyle;
  /** Index of this element's layer in `layers`, or -1. */
  layer: number;
  /** Depth of the layers this element's children make. */
  childDepth: number;
  /** Inside something not rendered (defs, hidden). */
  skipped: boolean;
  box: Box | undefined;
  local: string;
}

/** Builds one SVG's spec from its SAX events; `finish()` gives it. */
export class SvgSpecBuilder {
  readonly layers: DesignLayer[] = [];
  readonly colors = new TokenTable<string>("c");
  readonly textStyles = new TokenTable<TextStyleToken>("t");
  readonly notes = new Set<string>();
  readonly gradients = new Map<string, GradientStops>();
  readonly #stack: Frame[] = [];
  readonly #limits: SvgLimits;
  #elements = 0;
  #root: Pick<SvgSpec, "width" | "height" | "view_box"> | undefined;
  #gradient: GradientStops | undefined;
  #textLayer: DesignLayer | undefined;
  #title: boolean = false;

  constructor(limits: SvgLimits) {
    this.#limits = limits;
  }

  open(name: string, attributes: Record<string, string>): void {
    this.#elements += 1;
    if (this.#elements > this.#limits.maxElements) {
      throw new ToolFailureError(
        "TOO_LARGE",
        `The SVG has more than ${this.#limits.maxElements} elements, the most svg_read reads.`,
        { hint: "Read a smaller export (one frame or icon), or simplify the drawing first." },
      );
    }
    if (this.#stack.length >= this.#limits.maxDepth) {
      throw new ToolFailureError(
        "TOO_LARGE",
        `The SVG nests elements more than ${this.#limits.maxDepth} deep, the most svg_read reads.`,
        { hint: "Flatten the groups in the design tool and export again." },
      );
    }
    const local = (name.includes(":") ? name.slice(name.indexOf(":") + 1) : name).toLowerCase();
    const foreign = name.includes(":") && !name.startsWith("svg:");
    const parent = this.#stack.at(-1);
    if (parent === undefined) this.#openRoot(local, attributes);
    const style = elementStyle(parent?.style ?? {}, attributes);
    const own =
      attributes.transform === undefined ? IDENTITY : parseTransform(attributes.transform);
    if (own === undefined) this.notes.add("a transform that could not be read was ignored");
    let matrix = multiply(parent?.matrix ?? IDENTITY, own ?? IDENTITY);
    if (local === "svg" && parent !== undefined) {
      matrix = multiply(matrix, [
        1,
        0,
        0,
        1,
        readLength(attributes.x) ?? 0,
        readLength(attributes.y) ?? 0,
      ]);
    }
    const frame: Frame = {
      matrix,
      style,
      layer: -1,
      childDepth: parent?.childDepth ?? 0,
      skipped: parent?.skipped === true || foreign,
      box: undefined,
      local,
    };
    this.#stack.push(frame);
    if (local === "stop" && this.#gradient !== undefined) {
      const color = normalizeColor(
        attributes["stop-color"] ?? stopProperty(attributes, "stop-color") ?? "#000000",
        Number(attributes["stop-opacity"] ?? stopProperty(attributes, "stop-opacity") ?? 1),
      );
      this.#gradient.push(`${color ?? "?"} ${attributes.offset ?? "0"}`);
      return;
    }
    if (local === "lineargradient" || local === "radialgradient") {
      this.#gradient = [];
      if (attributes.id !== undefined) this.gradients.set(attributes.id, this.#gradient);
      this.#gradient.kind = local === "lineargradient" ? "linear" : "radial";
    }
    if (local === "title" && parent !== undefined && parent.layer >= 0) this.#title = true;
    if (frame.skipped) return;
    if (NOT_RENDERED.has(local)) {
      frame.skipped = true;
      if (local === "style")
        this.notes.add("a <style> sheet is not applied: class-based colours are not shown");
      return;
    }
    if (style.display === "none") {
      frame.skipped = true;
      this.notes.add("layers with display:none are left out");
      return;
    }
    if (this.#textLayer !== undefined) return; // tspan, textPath: part of the text layer
    if (!GROUPS.has(local) && !SHAPES.has(local)) return;
    if (local === "svg" && parent === undefined) return;
    this.#addLayer(frame, local, attributes);
  }

  #openRoot(local: string, attributes: Record<string, string>): void {
    if (local !== "svg") {
      throw new ToolFailureError(
        "INVALID_INPUT",
        `The file's root element is <${local}>, not <svg>.`,
        {
          hint: "Name an SVG file.",
        },
      );
    }
    const viewBox = numbers(attributes.viewBox);
    this.#root = {
      ...(readLength(attributes.width) === undefined
        ? {}
        : { width: readLength(attributes.width) }),
      ...(readLength(attributes.height) === undefined
        ? {}
        : { height: readLength(attributes.height) }),
      ...(viewBox.length === 4 ? { view_box: viewBox as [number, number, number, number] } : {}),
    };
  }

  #addLayer(frame: Frame, local: string, attributes: Record<string, string>): void {
    const layer: DesignLayer = {
      id: attributes.id ?? String(this.layers.length + 1),
      depth: frame.childDepth,
      role:
        local === "svg" || local === "a" || local === "switch"
          ? "group"
          : local === "g"
            ? "group"
            : local,
    };
    const label = attributes["inkscape:label"] ?? attributes["aria-label"];
    if (label !== undefined) layer.name = label;
    const opacity = Number(frame.style.opacity ?? 1);
    if (opacity < 1) layer.opacity = roundMeasure(opacity);
    if (!GROUPS.has(local)) this.#paint(layer, frame.style, local);
    const { box, approximate } = ownBox(local, attributes);
    if (box !== undefined) {
      frame.box = mapBox(box, frame.matrix);
      if (approximate || !isAxisAligned(frame.matrix)) {
        layer.notes = [approximate ? "bbox sampled on arcs" : "bbox of a rotated or skewed shape"];
      }
    }
    const radius = readLength(attributes.rx ?? attributes.ry);
    if (local === "rect" && radius !== undefined && radius > 0) layer.radius = radius;
    if (local === "path" && attributes.d !== undefined) {
      const data = attributes.d.trim().replace(/\s+/g, " ");
      layer.path_data = data.length > MAX_PATH_DATA ? `${data.slice(0, MAX_PATH_DATA)}…` : data;
    }
    if ((local === "polygon" || local === "polyline") && attributes.points !== undefined) {
      layer.points = attributes.points.trim().replace(/\s+/g, " ").slice(0, MAX_PATH_DATA);
    }
    if (local === "use") {
      const href = attributes.href ?? attributes["xlink:href"];
      if (href !== undefined) layer.name = layer.name ?? href;
    }
    if (local === "text") {
      layer.text = "";
      this.#textLayer = layer;
      const x = readLength(attributes.x) ?? 0;
      const y = readLength(attributes.y) ?? 0;
      const [a, b, c, d, e, f] = frame.matrix;
      frame.box = {
        minX: a * x + c * y + e,
        minY: b * x + d * y + f,
        maxX: a * x + c * y + e,
        maxY: b * x + d * y + f,
      };
    }
    frame.layer = this.layers.length;
    frame.childDepth += 1;
    this.layers.push(layer);
  }

  #paint(layer: DesignLayer, style: SvgStyle, local: string): void {
    const fillable = local !== "line" && local !== "image" && local !== "use";
    const fill = fillable
      ? this.#color(style.fill ?? "#000000", style["fill-opacity"], style.color)
      : undefined;
    if (fill !== undefined && local !== "text") layer.fills = [fill];
    const stroke =
      style.stroke === undefined
        ? undefined
        : this.#color(style.stroke, style["stroke-opacity"], style.color);
    if (stroke !== undefined) {
      layer.strokes = [stroke];
      layer.stroke_width = readLength(style["stroke-width"]) ?? 1;
    }
    if (local === "text") layer.text_style = this.textStyles.name(textStyleOf(style, fill));
  }

  #color(
    value: string,
    opacity: string | undefined,
    current: string | undefined,
  ): string | undefined {
    const resolved =
      value.trim().toLowerCase() === "currentcolor" && current !== undefined ? current : value;
    const color = normalizeColor(resolved, opacity === undefined ? 1 : Number(opacity));
    if (color === undefined || color === "none") return undefined;
    return this.colors.name(color);
  }

  text(value: string): void {
    const frame = this.#stack.at(-1);
    if (this.#title) {
      const owner = this.layers[this.#stack.at(-2)?.layer ?? -1];
      if (owner !== undefined && owner.name === undefined && value.trim() !== "")
        owner.name = value.trim();
      return;
    }
    if (this.#textLayer === undefined || frame?.skipped === true) return;
    this.#textLayer.text = `${this.#textLayer.text ?? ""}${value}`;
  }

  close(): void {
    const frame = this.#stack.pop();
    if (frame === undefined) return;
    if (frame.local === "title") this.#title = false;
    if (frame.local === "lineargradient" || frame.local === "radialgradient")
      this.#gradient = undefined;
    const layer = frame.layer >= 0 ? this.layers[frame.layer] : undefined;
    if (layer !== undefined) {
      if (layer === this.#textLayer) {
        layer.text = (layer.text ?? "").replace(/\s+/g, " ").trim();
        this.#textLayer = undefined;
      }
      if (frame.box !== undefined) {
        layer.x = roundMeasure(frame.box.minX);
        layer.y = roundMeasure(frame.box.minY);
        if (layer.role !== "text") {
          layer.width = roundMeasure(frame.box.maxX - frame.box.minX);
          layer.height = roundMeasure(frame.box.maxY - frame.box.minY);
        }
      }
    }
    const parent = this.#stack.at(-1);
    if (parent !== undefined && !frame.skipped && layer?.role !== "text")
      parent.box = union(parent.box, frame.box);
  }

  finish(): SvgSpec {
    const colors = this.colors.entries();
    for (const [name, value] of Object.entries(colors)) {
      const gradient = gradientValue(value, this.gradients);
      if (gradient !== undefined) colors[name] = gradient;
    }
    // Empty groups say nothing about the drawing.
    const layers = this.layers.filter(
      (layer, index) =>
        layer.role !== "group" || (this.layers[index + 1]?.depth ?? -1) > layer.depth,
    );
    return {
      ...this.#root,
      layers,
      tokens: { colors, text_styles: this.textStyles.entries(), effects: {} },
      elements: this.#elements,
      notes: [...this.notes],
    };
  }
}
