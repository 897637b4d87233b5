/**
 * The bounding box of SVG path data: exact for lines and Bézier curves (their extrema are
 * solved), arcs sampled (within a hundredth of a unit for icon-sized arcs). One linear pass.
 *
 * @internal
 */
import type { Box } from "./transform.js";

/** A path's box, or `undefined` when the data is empty or unreadable. */
export interface PathBox extends Box {
  /** Whether part of it (an arc) was sampled rather than solved. */
  approximate: boolean;
}

const TOKEN = /([MmLlHhVvCcSsQqTtAaZz])|(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/g;

class BoxBuilder {
  minX = Number.POSITIVE_INFINITY;
  minY = Number.POSITIVE_INFINITY;
  maxX = Number.NEGATIVE_INFINITY;
  maxY = Number.NEGATIVE_INFINITY;
  add(x: number, y: number): void {
    if (x < this.minX) this.minX = x;
    if (x > this.maxX) this.maxX = x;
    if (y < this.minY) this.minY = y;
    if (y > this.maxY) this.maxY = y;
  }
}

/** Roots in [0, 1] of a·t² + b·t + c = 0. */
function unitRoots(a: number, b: number, c: number): number[] {
  if (Math.abs(a) < 1e-12) {
    if (Math.abs(b) < 1e-12) return [];
    const t = -c / b;
    return t > 0 && t < 1 ? [t] : [];
  }
  const discriminant = b * b - 4 * a * c;
  if (discriminant < 0) return [];
  const root = Math.sqrt(discriminant);
  return [(-b + root) / (2 * a), (-b - root) / (2 * a)].filter((t) => t > 0 && t < 1);
}

function cubicAt(p0: number, p1: number, p2: number, p3: number, t: number): number {
  const u = 1 - t;
  return u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3;
}

function cubicExtrema(p0: number, p1: number, p2: number, p3: number): number[] {
  // Derivative / 3: (p1-p0)(1-t)² + 2(p2-p1)t(1-t) + (p3-p2)t².
  const a = -p0 + 3 * p1 - 3 * p2 + p3;
  const b = 2 * (p0 - 2 * p1 + p2);
  const c = p1 - p0;
  return unitRoots(a, b, c);
}

function addCubic(box: BoxBuilder, points: readonly number[]): void {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0, x2 = 0, y2 = 0, x3 = 0, y3 = 0] = points;
  box.add(x3, y3);
  for (const t of [...cubicExtrema(x0, x1, x2, x3), ...cubicExtrema(y0, y1, y2, y3)]) {
    box.add(cubicAt(x0, x1, x2, x3, t), cubicAt(y0, y1, y2, y3, t));
  }
}

function addArc(
  box: BoxBuilder,
  from: [number, number],
  values: readonly number[],
  to: [number, number],
): void {
  let [rx = 0, ry = 0] = values;
  const rotation = ((values[2] ?? 0) * Math.PI) / 180;
  const largeArc = (values[3] ?? 0) !== 0;
  const sweep = (values[4] ?? 0) !== 0;
  box.add(to[0], to[1]);
  rx = Math.abs(rx);
  ry = Math.abs(ry);
  if (rx === 0 || ry === 0) return;
  // Endpoint to centre parameterisation (SVG 1.1, appendix F.6.5).
  const cos = Math.cos(rotation);
  const sin = Math.sin(rotation);
  const dx = (from[0] - to[0]) / 2;
  const dy = (from[1] - to[1]) / 2;
  const x1 = cos * dx + sin * dy;
  const y1 = -sin * dx + cos * dy;
  const lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry);
  if (lambda > 1) {
    rx *= Math.sqrt(lambda);
    ry *= Math.sqrt(lambda);
  }
  const numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1;
  const denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1;
  let factor = denominator === 0 ? 0 : Math.sqrt(Math.max(0, numerator / denominator));
  if (largeArc === sweep) factor = -factor;
  const cx1 = (factor * rx * y1) / ry;
  const cy1 = (-factor * ry * x1) / rx;
  const cx = cos * cx1 - sin * cy1 + (from[0] + to[0]) / 2;
  const cy = sin * cx1 + cos * cy1 + (from[1] + to[1]) / 2;
  const angle = (ux: number, uy: number, vx: number, vy: number) =>
    Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  const start = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry);
  let delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry);
  if (!sweep && delta > 0) delta -= 2 * Math.PI;
  if (sweep && delta < 0) delta += 2 * Math.PI;
  const steps = 64;
  for (let step = 1; step < steps; step += 1) {
    const theta = start + (delta * step) / steps;
    const px = rx * Math.cos(theta);
    const py = ry * Math.sin(theta);
    box.add(cos * px - sin * py + cx, sin * px + cos * py + cy);
  }
}

const ARGUMENT_COUNTS: Readonly<Record<string, number>> = {
  m: 2,
  l: 2,
  h: 1,
  v: 1,
  c: 6,
  s: 4,
  q: 4,
  t: 2,
  a: 7,
  z: 0,
};

/**
 * Computes the box of path data in its own units.
 *
 * @param data - the `d` attribute
 * @returns the box, or `undefined` when there is no drawable segment
 */
export function pathBounds(data: string): PathBox | undefined {
  const box = new BoxBuilder();
  let approximate = false;
  let command = "";
  let values: number[] = [];
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  let controlX = 0;
  let controlY = 0;
  let previous = "";

  const runSegment = () => {
    const relative = command === command.toLowerCase();
    const kind = command.toLowerCase();
    const dx = relative ? x : 0;
    const dy = relative ? y : 0;
    switch (kind) {
      case "m":
        x = (values[0] ?? 0) + dx;
        y = (values[1] ?? 0) + dy;
        startX = x;
        startY = y;
        box.add(x, y);
        // Later pairs after a moveto are linetos.
        command = relative ? "l" : "L";
        break;
      case "l":
        x = (values[0] ?? 0) + dx;
        y = (values[1] ?? 0) + dy;
        box.add(x, y);
        break;
      case "h":
        x = (values[0] ?? 0) + dx;
        box.add(x, y);
        break;
      case "v":
        y = (values[0] ?? 0) + (relative ? y : 0);
        box.add(x, y);
        break;
      case "c":
      case "s": {
        const reflect = previous === "c" || previous === "s";
        const c1x = kind === "c" ? (values[0] ?? 0) + dx : reflect ? 2 * x - controlX : x;
        const c1y = kind === "c" ? (values[1] ?? 0) + dy : reflect ? 2 * y - controlY : y;
        const rest = kind === "c" ? values.slice(2) : values;
        const c2x = (rest[0] ?? 0) + dx;
        const c2y = (rest[1] ?? 0) + dy;
        const endX = (rest[2] ?? 0) + dx;
        const endY = (rest[3] ?? 0) + dy;
        addCubic(box, [x, y, c1x, c1y, c2x, c2y, endX, endY]);
        controlX = c2x;
        controlY = c2y;
        x = endX;
        y = endY;
        break;
      }
      case "q":
      case "t": {
        const reflect = previous === "q" || previous === "t";
        const qx = kind === "q" ? (values[0] ?? 0) + dx : reflect ? 2 * x - controlX : x;
        const qy = kind === "q" ? (values[1] ?? 0) + dy : reflect ? 2 * y - controlY : y;
        const rest = kind === "q" ? values.slice(2) : values;
        const endX = (rest[0] ?? 0) + dx;
        const endY = (rest[1] ?? 0) + dy;
        // A quadratic is the cubic with controls at two thirds.
        addCubic(box, [
          x,
          y,
          x + (2 / 3) * (qx - x),
          y + (2 / 3) * (qy - y),
          endX + (2 / 3) * (qx - endX),
          endY + (2 / 3) * (qy - endY),
          endX,
          endY,
        ]);
        controlX = qx;
        controlY = qy;
        x = endX;
        y = endY;
        break;
      }
      case "a": {
        const endX = (values[5] ?? 0) + dx;
        const endY = (values[6] ?? 0) + dy;
        addArc(box, [x, y], values, [endX, endY]);
        approximate = true;
        x = endX;
        y = endY;
        break;
      }
      default:
        x = startX;
        y = startY;
    }
    previous = kind;
    values = [];
  };

  TOKEN.lastIndex = 0;
  for (let found = TOKEN.exec(data); found !== null; found = TOKEN.exec(data)) {
    if (found[1] !== undefined) {
      if (values.length > 0) return undefined;
      command = found[1];
      if (command === "z" || command === "Z") runSegment();
      continue;
    }
    if (command === "") return undefined;
    values.push(Number(found[2]));
    // Arc flags may be written without separators ("a1 1 0 011 1"): the number pattern reads
    // "011" as one number, so flags are split off digit by digit here.
    if (command.toLowerCase() === "a" && (values.length === 4 || values.length === 5)) {
      const last = found[2] ?? "";
      if (/^[01]{2,}/.test(last) && !last.includes(".")) {
        values.pop();
        values.push(Number(last[0]));
        const tail = last.slice(1);
        if (values.length === 4) {
          values.push(Number(tail[0]));
          if (tail.length > 1) values.push(Number(tail.slice(1)));
        } else values.push(Number(tail));
      }
    }
    const needed = ARGUMENT_COUNTS[command.toLowerCase()] ?? 0;
    if (values.length >= needed && needed > 0) runSegment();
  }
  if (!Number.isFinite(box.minX)) return undefined;
  return { minX: box.minX, minY: box.minY, maxX: box.maxX, maxY: box.maxY, approximate };
}
