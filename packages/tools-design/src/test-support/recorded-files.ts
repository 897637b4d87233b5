import type { GetFileResponse } from "@figma/rest-api-spec";
import { DESIGN_SYSTEM_FILE_KEY, designSystemFile } from "./figma-design-system-file.js";
import { SHOP_FILE_KEY, shopFile } from "./figma-shop-file.js";

/** A recorded Figma file as the benchmark's local Figma API serves it. */
export interface RecordedFigmaFile {
  /** The file's key. */
  key: string;
  /** GET /v1/files/:key, whole. */
  file: GetFileResponse;
}

/**
 * The typed fixtures written as gzipped JSON under `recorded/` (one file each), for the side-by-side
 * benchmark with Framelink's `figma-developer-mcp` (bench/design.mjs), which is plain Node and
 * cannot load these TypeScript modules. `recorded-files.test.ts` holds the JSON equal to them.
 */
export const RECORDED_FIGMA_FILES: ReadonlyArray<{ name: string; recorded: RecordedFigmaFile }> = [
  { name: "shop-checkout.json.gz", recorded: { key: SHOP_FILE_KEY, file: shopFile } },
  {
    name: "design-system.json.gz",
    recorded: { key: DESIGN_SYSTEM_FILE_KEY, file: designSystemFile },
  },
];
