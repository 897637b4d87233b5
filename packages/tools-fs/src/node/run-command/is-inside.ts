import { relative } from "node:path";
import { climbsOut } from "../node-file-system.js";

/**
 * Whether `candidate` is `root` or lies below it (both absolute, compared as given).
 *
 * @param root - the directory
 * @param candidate - the path
 * @returns whether it is inside
 */
export function isInside(root: string, candidate: string): boolean {
  const inside = relative(root, candidate);
  return inside === "" || !climbsOut(inside);
}
