import { gzipSync } from "node:zlib";
import { ARTICLE_HTML, ATOM_FEED, RSS_FEED } from "./fixtures.js";
import { type Handler, json, respond, startServer, type TestServer } from "./http-server.js";
import { buildPdf } from "./pdf.js";

/** Decoded size of the gzip bomb served at `/gzip-bomb`: 64 MiB of "a". */
export const GZIP_BOMB_BYTES = 64 * 1_048_576;

/** A page server with every fixture `web_fetch` tests need, plus a record of closed endless bodies. */
export interface PagesServer extends TestServer {
  /** Bytes the endless route wrote before the client hung up (one entry per request). */
  endlessWritten: number[];
}

function redirect(location: string, status = 302): Handler {
  return (_request, response) => {
    response.writeHead(status, { location });
    response.end();
  };
}

/**
 * Starts the fixture page server: HTML with nav/sidebar, JSON, RSS, Atom, a real PDF, a redirect
 * chain, a loop, a slow endpoint, an endless body, a gzip bomb and wrong content types.
 *
 * @returns the server
 */
export async function startPagesServer(): Promise<PagesServer> {
  const pdf = buildPdf(["Tide tables for 2025", "Page two mentions spring tides"], "Tide Tables");
  const bomb = gzipSync(Buffer.alloc(GZIP_BOMB_BYTES, "a"), { level: 9 });
  const endlessWritten: number[] = [];
  const longText = Array.from(
    { length: 2_000 },
    (_, index) => `Line ${index + 1}: the tide rises and falls.`,
  ).join("\n");
  const routes: Record<string, Handler> = {
    "/article": respond("text/html; charset=utf-8", ARTICLE_HTML),
    "/home": respond(
      "text/html",
      "<html><head><title>Home</title></head><body><nav><a href='/a'>A</a> <a href='/b'>B</a></nav><ul><li><a href='/1'>One</a></li></ul></body></html>",
    ),
    "/data.json": json({ name: "tides", values: [1, 2, 3], nested: { ok: true } }),
    "/json-as-text": respond("text/plain", '{"served":"as text/plain"}'),
    "/html-as-octet-stream": respond(
      "application/octet-stream",
      "<!doctype html><html><head><title>Mislabelled</title></head><body><h1>Still HTML</h1></body></html>",
    ),
    "/feed.rss": respond("application/rss+xml", RSS_FEED),
    "/atom.xml": respond("application/xml", ATOM_FEED),
    "/doc.pdf": respond("application/pdf", pdf),
    "/pdf-without-type": respond("application/octet-stream", pdf),
    "/notes.txt": respond("text/plain; charset=utf-8", "plain notes\nsecond line"),
    "/long.txt": respond("text/plain", longText),
    "/image.png": respond(
      "image/png",
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    ),
    "/binary": respond("application/octet-stream", new Uint8Array([1, 2, 0, 3, 4, 0, 5, 6])),
    "/empty": respond("text/html", ""),
    "/gone": respond("text/html", "<h1>Not here</h1>", 404),
    "/server-error": respond("text/plain", "oops", 503),
    "/forbidden": respond("text/html", "<h1>Forbidden</h1>", 403),
    "/redirect/1": redirect("/redirect/2", 301),
    "/redirect/2": redirect("/redirect/3", 302),
    "/redirect/3": redirect("/article", 307),
    "/loop": redirect("/loop"),
    "/slow": (_request, response) => {
      const timer = setTimeout(() => {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("finally");
      }, 5_000);
      response.on("close", () => clearTimeout(timer));
    },
    "/endless": (_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "x");
      let written = 0;
      let open = true;
      response.on("close", () => {
        open = false;
        endlessWritten.push(written);
      });
      const pump = () => {
        while (open) {
          written += chunk.length;
          if (!response.write(chunk)) {
            response.once("drain", pump);
            return;
          }
        }
      };
      pump();
    },
    "/gzip-bomb": (_request, response) => {
      response.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
      response.end(bomb);
    },
    "/echo-headers": (request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          authorization: request.headers.authorization ?? null,
          ua: request.headers["user-agent"],
        }),
      );
    },
  };
  const server = await startServer(routes);
  return Object.assign(server, { endlessWritten });
}
