import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type {
  GetFileResponse,
  GetFileStylesResponse,
  GetLocalVariablesResponse,
  Node,
} from "@figma/rest-api-spec";

/** The personal access token the recorded server accepts unless it is given another. */
export const RECORDED_FIGMA_TOKEN = "figd_test-token";

/**
 * The recorded files the server answers for, with the ids a test or a demo reads. The shop's
 * checkout is small (3 frames, a button component set, 6 published styles, 2 variable
 * collections with light and dark modes); the design system is larger (3 pages, 33 top-level
 * frames, no published styles or variables).
 */
export const RECORDED_FIGMA_FILES = {
  /** "Shop — Checkout": a desktop checkout page with nested auto-layout, styles and variables. */
  shopCheckout: {
    fileKey: "Qm9vdHN0cmFwU2hvcDAx",
    name: "Shop — Checkout",
    /** The recording inside the package. */
    recording: "shop-checkout.json.gz",
    nodes: {
      /** The page's frame, "Checkout / Desktop" (1440 wide). */
      checkoutFrame: "1:2",
      /** "Summary card": a 448×320 column, gap 16, padding 24, two button instances. */
      summaryCard: "1:8",
      /** "Button": a component set of two variants. */
      buttonComponentSet: "2:1",
    },
  },
  /** "Acme Design System": foundations, button and badge component sets, 24 screens. */
  designSystem: {
    fileKey: "RGVzaWduU3lzdGVtMDI",
    name: "Acme Design System",
    recording: "design-system.json.gz",
    nodes: {
      /** "Typography": the text styles' sheet. */
      typography: "6:1",
      /** "Button": 3 kinds × 3 states. */
      buttonComponentSet: "3:1",
      /** "Dashboard / Desktop": one of the screens. */
      dashboard: "5:478",
    },
  },
} as const;

/** One recorded file: the answers the server gives for it. */
export interface RecordedFigmaFile {
  /** The file's key. */
  key: string;
  /** GET /v1/files/:key, whole (the server cuts it to `depth`). */
  file: GetFileResponse;
  /** GET /v1/files/:key/styles, when recorded (otherwise the server answers 404). */
  styles?: GetFileStylesResponse;
  /** GET /v1/files/:key/variables/local, when recorded (otherwise 404). */
  variables?: GetLocalVariablesResponse;
  /** Nodes GET /v1/files/:key/nodes finds outside the document tree (published styles' nodes). */
  styleNodes?: Record<string, Node>;
}

const cache = new Map<string, RecordedFigmaFile>();

/**
 * Reads a recording shipped with the package (gzipped JSON under `recordings/`).
 *
 * @param name - its file name, as in {@link RECORDED_FIGMA_FILES} (`shop-checkout.json.gz`)
 * @returns the parsed recording (the same object on later calls: do not change it)
 * @throws Error for a name that is not one of the recordings
 */
export function readRecordedFigmaFile(name: string): RecordedFigmaFile {
  let recorded = cache.get(name);
  if (recorded === undefined) {
    const names: string[] = Object.values(RECORDED_FIGMA_FILES).map((entry) => entry.recording);
    if (!names.includes(name)) {
      throw new Error(
        `readRecordedFigmaFile: no recording ${name} (there are ${names.join(", ")})`,
      );
    }
    const url = new URL(`../../recordings/${name}`, import.meta.url);
    recorded = JSON.parse(gunzipSync(readFileSync(url)).toString("utf8")) as RecordedFigmaFile;
    cache.set(name, recorded);
  }
  return recorded;
}
