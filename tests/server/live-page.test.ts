/** Whether an issue's page answers at the site's address, asked of a real HTTP server on 127.0.0.1. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { checkPageLive } from "../../services/newsletter/live-page.ts";

let server: Server;
let origin: string;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    if (request.url === "/updates/live") response.writeHead(200, { "Content-Type": "text/html" }).end("<h1>Live</h1>");
    else if (request.url === "/updates/moved") response.writeHead(301, { Location: "/updates/live" }).end();
    else if (request.url === "/updates/broken") response.writeHead(500).end();
    else if (request.url === "/updates/hanging") {
      // Never answered.
    } else response.writeHead(404, { "Content-Type": "text/html" }).end("<h1>Page Not Found</h1>");
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((closed) => server.close(closed));
});

test("a page that answers 200 is live, asked with one GET", async () => {
  requests.length = 0;
  expect(await checkPageLive(`${origin}/updates/live`)).toEqual({ live: true });
  expect(requests).toEqual(["GET /updates/live"]);
});

test("a page that redirects to a live page is live, as the mail's link would be", async () => {
  expect(await checkPageLive(`${origin}/updates/moved`)).toEqual({ live: true });
});

test("a page that is not there yet or fails is not live, and the reason names the address and the status", async () => {
  expect(await checkPageLive(`${origin}/updates/not-deployed`)).toEqual({
    live: false,
    reason: `${origin}/updates/not-deployed answers 404 Not Found`,
  });
  expect(await checkPageLive(`${origin}/updates/broken`)).toEqual({
    live: false,
    reason: `${origin}/updates/broken answers 500 Internal Server Error`,
  });
});

test("a site that cannot be reached or does not answer in time is not live", async () => {
  const closed = createServer();
  await new Promise<void>((listening) => closed.listen(0, "127.0.0.1", listening));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((done) => closed.close(done));
  expect(await checkPageLive(`http://127.0.0.1:${port}/updates/live`)).toEqual({
    live: false,
    reason: `http://127.0.0.1:${port}/updates/live could not be reached (ECONNREFUSED)`,
  });
  expect(await checkPageLive(`${origin}/updates/hanging`, { timeoutMs: 300 })).toEqual({
    live: false,
    reason: `${origin}/updates/hanging could not be reached (no answer within 0.3 s)`,
  });
});
