import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/**
 * The recorded Figma file the design step reads: GET answers of Figma's REST API keyed by request
 * path, recorded from `@agentool/tools-design`'s local Figma API (real-shaped responses typed by
 * `@figma/rest-api-spec`). A shop's checkout: the "Summary card" frame is node 1:8.
 */
export const FIGMA_RECORDING_PATH = fileURLToPath(
  new URL("../../figma/shop-checkout.json", import.meta.url),
);

/** The recording's shape. */
interface Recording {
  file_key: string;
  responses: Record<string, unknown>;
  renders: Record<string, string>;
}

/** A local server answering Figma's REST API from the recording. */
export interface RecordedFigmaApi {
  /** `http://127.0.0.1:<port>`: the API origin the design tools are given. */
  origin: string;
  /** The recorded file's key. */
  fileKey: string;
  /** The request paths it answered, in order. */
  paths: string[];
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Serves the recording on 127.0.0.1: `/v1/…` needs the token as `X-Figma-Token` (else 403, as
 * Figma answers), a path that was not recorded is 404; `/renders/…` are the PNGs `/v1/images`
 * points to.
 *
 * @param token - the token it accepts (the demo host's)
 * @returns the running server
 */
export async function startRecordedFigmaApi(token: string): Promise<RecordedFigmaApi> {
  const recording = JSON.parse(readFileSync(FIGMA_RECORDING_PATH, "utf8")) as Recording;
  const paths: string[] = [];
  let origin = "";
  const server = createServer((request, response) => {
    const path = request.url ?? "/";
    paths.push(path);
    const render = recording.renders[path];
    if (render !== undefined) {
      response.writeHead(200, { "content-type": "image/png" }).end(Buffer.from(render, "base64"));
      return;
    }
    const body =
      request.headers["x-figma-token"] !== token
        ? { status: 403, err: "Invalid token" }
        : (recording.responses[path] ?? { status: 404, err: "Not found" });
    response
      .writeHead((body as { status?: number }).status ?? 200, {
        "content-type": "application/json; charset=utf-8",
      })
      .end(JSON.stringify(body).replaceAll("{origin}", origin));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    fileKey: recording.file_key,
    paths,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
