/**
 * The production server's timeouts and connection cap. A client that sends its
 * body (or its headers) one byte per second is cut off; the test sets a 2-second request timeout
 * through REQUEST_TIMEOUT_SECONDS so that it runs in seconds, and checks that the defaults hold
 * what docs/deploy.md and the README say.
 */
import { createServer } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  applyConnectionCap,
  CONNECTIONS_CHECKING_INTERVAL_MS,
  FIRST_BYTE_TIMEOUT_MS,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  serverOptions,
} from "../../host/limits.ts";
import { readConfig } from "../../services/config.ts";
import { makeTempDir, sleep, waitFor } from "./helpers.ts";
import { type ProductionServer, startProductionServer } from "./production.ts";

let temp: ReturnType<typeof makeTempDir>;
let server: ProductionServer | undefined;
const sockets: Socket[] = [];

beforeEach(() => {
  temp = makeTempDir();
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.stop();
  server = undefined;
  temp.remove();
});

type SlowClient = { answer: () => string; closed: () => boolean; sentBytes: () => number };

/** Connects, sends `head`, then one byte of `drip` per second until the server closes the connection. */
function slowClient(origin: string, head: string, drip: string): SlowClient {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  let answer = "";
  let closed = false;
  let sent = 0;
  socket.on("data", (chunk) => (answer += chunk.toString()));
  socket.on("error", () => {});
  socket.on("close", () => {
    closed = true;
  });
  socket.on("connect", async () => {
    socket.write(head);
    while (!closed && sent < drip.length) {
      await sleep(1000);
      if (!closed) socket.write(drip.charAt(sent++));
    }
  });
  return { answer: () => answer, closed: () => closed, sentBytes: () => sent };
}

describe("the server's time and connection limits", () => {
  test("a body sent one byte per second is cut after REQUEST_TIMEOUT_SECONDS with a 408, and the server keeps serving", async () => {
    server = await startProductionServer({ DATA_DIR: temp.path, REQUEST_TIMEOUT_SECONDS: "2" });
    const body = JSON.stringify({ email: "slow@example.com", subject: "Slow", body: "x".repeat(200) });
    const { host } = new URL(server.origin);
    const head = `POST /api/email HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const client = slowClient(server.origin, head, body);
    await waitFor(client.closed, { timeoutMs: 30_000, what: "the server to cut the slow body" });
    // Cut long before the body was complete: 2 s of timeout plus at most 2 s until Node checks.
    expect(client.sentBytes()).toBeLessThan(body.length);
    expect(client.answer()).toMatch(/^HTTP\/1\.1 408/);
    expect((await fetch(`${server.origin}/`)).status).toBe(200);
  });

  test("headers sent one byte per second are cut too", async () => {
    server = await startProductionServer({ DATA_DIR: temp.path, REQUEST_TIMEOUT_SECONDS: "2" });
    const headers = `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${"y".repeat(100)}\r\n\r\n`;
    const client = slowClient(server.origin, "", headers);
    await waitFor(client.closed, { timeoutMs: 30_000, what: "the server to cut the slow headers" });
    expect(client.sentBytes()).toBeLessThan(headers.length);
  });

  test("beyond MAX_CONNECTIONS a new connection is closed at once, while the open ones are still served", async () => {
    server = await startProductionServer({ DATA_DIR: temp.path, MAX_CONNECTIONS: "2" });
    const { hostname, port } = new URL(server.origin);
    const open = () =>
      new Promise<Socket>((resolve) => {
        const socket = connect(Number(port), hostname, () => resolve(socket));
        socket.on("error", () => {});
        sockets.push(socket);
      });
    const first = await open();
    await open();
    const third = await open();
    await waitFor(() => third.destroyed || third.readableEnded, { what: "the third connection to be closed" });
    let answer = "";
    first.on("data", (chunk) => (answer += chunk.toString()));
    first.write(`GET /robots.txt HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
    await waitFor(() => answer.startsWith("HTTP/1.1 200"), { what: "an answer on an accepted connection" });
  });

  test("the defaults are 20 s per request, 10 s for headers, 5 s keep-alive, a check every 2 s, 1000 connections and 100 per address", () => {
    const config = readConfig({ DATA_DIR: temp.path }, { ownerEmail: "owner@example.com" });
    expect(serverOptions(config)).toEqual({
      requestTimeout: 20_000,
      headersTimeout: HEADERS_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
    });
    expect([HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, CONNECTIONS_CHECKING_INTERVAL_MS]).toEqual([
      10_000, 5_000, 2_000,
    ]);
    const capped = createServer();
    applyConnectionCap(capped, config);
    expect(capped.maxConnections).toBe(1000);
    expect(config.maxConnectionsPerAddress).toBe(100);
    expect(FIRST_BYTE_TIMEOUT_MS).toBe(5_000);
    // The slowest a slow body can be held: the request timeout plus one check interval, well under 30 s.
    expect(config.requestTimeoutSeconds * 1000 + CONNECTIONS_CHECKING_INTERVAL_MS).toBeLessThanOrEqual(30_000);
  });

  /** A raw connection from `localAddress` (any 127.x address is this machine's on Linux); `closed` turns true when it ends. */
  function openSocket(origin: string, localAddress = "127.0.0.1") {
    const { hostname, port } = new URL(origin);
    const socket = connect({ host: hostname, port: Number(port), localAddress });
    sockets.push(socket);
    const state = { socket, closed: false, answer: "" };
    socket.on("data", (chunk) => (state.answer += chunk.toString()));
    socket.on("error", () => {});
    socket.on("close", () => {
      state.closed = true;
    });
    return state;
  }

  test("a connection that sends no byte is closed", async () => {
    server = await startProductionServer({ DATA_DIR: temp.path });
    const silent = openSocket(server.origin);
    await waitFor(() => silent.closed, { timeoutMs: 30_000, what: "the server to close the silent connection" });
    expect(silent.answer).toBe("");
    expect((await fetch(`${server.origin}/robots.txt`)).status).toBe(200);
  });

  test("many idle connections from one address leave a second client answered", async () => {
    server = await startProductionServer({ DATA_DIR: temp.path, MAX_CONNECTIONS_PER_ADDRESS: "20" });
    const idle = Array.from({ length: 2000 }, () => openSocket(server?.origin ?? ""));
    // Beyond the cap the server closes them at once; the 20 it holds it closes when they stay silent.
    await waitFor(() => idle.filter((connection) => connection.closed).length >= idle.length - 20, {
      timeoutMs: 30_000,
      what: "the connections beyond the cap to be closed",
    });
    const answers: string[] = [];
    for (let visit = 0; visit < 5; visit++) {
      const other = openSocket(server.origin, "127.0.0.2");
      other.socket.write(`GET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      await waitFor(() => other.closed, { timeoutMs: 30_000, what: "an answer to the second client" });
      answers.push(other.answer.split("\r\n")[0] ?? "");
    }
    expect(answers).toEqual(Array(5).fill("HTTP/1.1 200 OK"));
  });
});
