import { createServer } from "node:http";

const port = Number(process.env.TALLY_PORT ?? 3000);
let count = 0;

const server = createServer((request, response) => {
  if (request.method === "POST" && request.url === "/hit") {
    count += 1;
    response.writeHead(204).end();
    return;
  }
  if (request.method === "GET" && request.url === "/count") {
    response.writeHead(200).end(JSON.stringify({ count }));
    return;
  }
  response.writeHead(404).end("Not found");
});

server.listen(port, () => {
  console.log(`tally listening on http://localhost:${port}`);
});
