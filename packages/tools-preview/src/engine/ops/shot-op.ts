import { PreviewError } from "../../preview-backend.js";
import { checkShot } from "../driver-answers.js";
import { MAX_SHOT_SIDE } from "../limits.js";
import type { SessionWork } from "./session-work.js";

/**
 * How many bytes a base64 text decodes to.
 *
 * @param base64 - padded base64
 * @returns the decoded size
 */
export function base64Bytes(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/**
 * `shot`: the largest canvas as the driver reads it, or the viewport as the backend shoots it.
 *
 * @param backendKind - the backend's kind, for the message when it cannot shoot a viewport
 * @returns the op's work
 */
export function shotWork(backendKind: string): SessionWork {
  return async (session, signal) => {
    const shot = checkShot(await session.callDriver("shot", [MAX_SHOT_SIDE], signal));
    if (shot.error !== undefined)
      throw new PreviewError(
        "UNSUPPORTED",
        shot.error,
        "Draw without cross-origin images, or read the state with eval.",
      );
    let data = shot.data;
    let width = shot.width;
    let height = shot.height;
    if (shot.source === "viewport") {
      const image = await session.backend.screenshotViewport(signal);
      if (image === undefined)
        throw new PreviewError(
          "UNSUPPORTED",
          `The artifact has no <canvas>, and the ${backendKind} backend can only shoot canvases.`,
          "Use read or eval to check the page, or draw what you want to see into a canvas.",
        );
      data = image.data;
      width = image.width;
      height = image.height;
    }
    const base64 = data ?? "";
    return {
      source: shot.source,
      ...(shot.selector === undefined ? {} : { selector: shot.selector }),
      canvases: shot.canvases,
      width,
      height,
      bytes: base64Bytes(base64),
      mime_type: "image/png",
      image_base64: base64,
    };
  };
}
