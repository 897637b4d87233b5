import { request as httpRequest } from "node:http";
import { initializeBody } from "./http-process.js";

/**
 * A raw POST to a local server with exactly the headers given (node:http lets a test forge Host);
 * an accepted initialize opens an SSE stream, and its first event is enough.
 *
 * @param port - the server's port on 127.0.0.1
 * @param headers - the headers besides content-type and accept
 * @param body - the body (default: an initialize request)
 * @param path - the path (default `/mcp`)
 * @returns the status, headers and body read
 */
export function rawPost(
  port: number,
  headers: Record<string, string>,
  body = initializeBody("2025-06-18"),
  path = "/mcp",
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    let responded = false;
    const outgoing = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (response) => {
        responded = true;
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
          // An accepted initialize opens an SSE stream; its first event is enough.
          if (
            response.headers["content-type"]?.includes("text/event-stream") &&
            text.includes("\n\n")
          ) {
            response.destroy();
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text });
          }
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
      },
    );
    // A refused upload may reset the connection after the answer arrived.
    outgoing.on("error", (error) => {
      if (!responded) reject(error);
    });
    outgoing.end(body);
  });
}
