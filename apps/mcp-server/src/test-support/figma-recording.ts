import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/**
 * The recorded Figma file the demo's design step reads (apps/demo/figma/shop-checkout.json):
 * GET answers keyed by request path, recorded from tools-design's local Figma API.
 */
export const FIGMA_RECORDING_PATH = fileURLToPath(
  new URL("../../../demo/figma/shop-checkout.json", import.meta.url),
);

/** The recording's shape. */
interface Recording {
  file_key: string;
  responses: Record<string, unknown>;
  renders: Record<string, string>;
}

/** A local server answering Figma's REST API from the recording. */
export interface RecordedFigmaApi {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The recorded file's key. */
  fileKey: string;
  /** Every request: its path and headers. */
  requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Serves the recording on 127.0.0.1: `/v1/…` needs `X-Figma-Token: <token>` (else 403, as Figma
 * answers), an unrecorded path is 404; `/renders/…` are the PNGs `/v1/images` points to.
 *
 * @param token - the token the server accepts
 * @returns the server
 */
export async function startRecordedFigmaApi(token: string): Promise<RecordedFigmaApi> {
  const recording = JSON.parse(readFileSync(FIGMA_RECORDING_PATH, "utf8")) as Recording;
  const requests: RecordedFigmaApi["requests"] = [];
  let origin = "";
  const server = createServer((request, response) => {
    const path = request.url ?? "/";
    requests.push({ path, headers: request.headers });
    const render = recording.renders[path];
    if (render !== undefined) {
      response.writeHead(200, { "content-type": "image/png" });
      response.end(Buffer.from(render, "base64"));
      return;
    }
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      response.end(JSON.stringify(body).replaceAll("{origin}", origin));
    };
    if (request.headers["x-figma-token"] !== token) {
      answer(403, { status: 403, err: "Invalid token" });
      return;
    }
    const body = recording.responses[path];
    if (body === undefined) answer(404, { status: 404, err: "Not found" });
    else answer(200, body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    fileKey: recording.file_key,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
