import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { http1Post } from "../fake-push/test-client.js";
import { generateVapidTestKeys, vapidAuthorization } from "../fake-push/vapid-token.js";
import { startMozillaPushServer, type MozillaPushServer } from "./mozilla-push-server.js";

/** The protocol as Firefox's PushServiceWebSocket speaks it, played by a plain `ws` client. */
interface Client {
  readonly socket: WebSocket;
  send(message: object | string): void;
  next(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

const vapid = generateVapidTestKeys();
let server: MozillaPushServer;

async function connect(): Promise<Client> {
  const socket = new WebSocket(server.wsUrl, "push-notification");
  const inbox: Record<string, unknown>[] = [];
  const waiting: ((m: Record<string, unknown>) => void)[] = [];
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else inbox.push(message);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  return {
    socket,
    send: (message) => socket.send(typeof message === "string" ? message : JSON.stringify(message)),
    next: () => {
      const queued = inbox.shift();
      return queued ? Promise.resolve(queued) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        socket.once("close", () => resolve());
        socket.close();
      }),
  };
}

async function hello(client: Client, uaid?: string): Promise<string> {
  client.send({ messageType: "hello", broadcasts: {}, use_webpush: true, ...(uaid ? { uaid } : {}) });
  const reply = await client.next();
  expect(reply).toMatchObject({ messageType: "hello", status: 200, use_webpush: true });
  return reply.uaid as string;
}

async function register(client: Client): Promise<{ channelID: string; pushEndpoint: string }> {
  const channelID = randomUUID();
  client.send({ messageType: "register", channelID, key: vapid.publicKey });
  const reply = await client.next();
  expect(reply).toMatchObject({ messageType: "register", status: 200, channelID });
  return { channelID, pushEndpoint: reply.pushEndpoint as string };
}

function post(endpoint: string, body: Buffer, ttl = 60) {
  const headers = { authorization: vapidAuthorization(vapid, server.pushOrigin), ttl: String(ttl), "content-encoding": "aes128gcm" };
  return http1Post(endpoint, headers, body, server.ca);
}

beforeAll(async () => {
  server = await startMozillaPushServer();
});
afterAll(async () => {
  await server.close();
});

describe("Mozilla push server protocol", () => {
  it("selects the push-notification subprotocol, answers hello with a 32-hex uaid, and pongs {}", async () => {
    const client = await connect();
    expect(client.socket.protocol).toBe("push-notification");
    expect(await hello(client)).toMatch(/^[0-9a-f]{32}$/);
    client.send("{}");
    expect(await client.next()).toEqual({});
    await client.close();
  });

  it("registers a channel with an HTTPS endpoint and forwards a POSTed body as a notification", async () => {
    const client = await connect();
    await hello(client);
    const { channelID, pushEndpoint } = await register(client);
    expect(pushEndpoint).toBe(`${server.pushOrigin}/wpush/${channelID}`);
    const body = Buffer.from("encrypted bytes");
    expect((await post(pushEndpoint, body)).status).toBe(201);
    const notification = await client.next();
    expect(notification).toMatchObject({ messageType: "notification", channelID, headers: { encoding: "aes128gcm" } });
    expect(Buffer.from(notification.data as string, "base64url")).toEqual(body);
    client.send({ messageType: "ack", updates: [{ channelID, version: notification.version, code: 101 }] });
    expect(await server.waitForAck((a) => a.version === notification.version)).toMatchObject({ code: 101, kind: "ack" });
    await client.close();
  });

  it("keeps messages for a disconnected client and delivers them when it says hello with its uaid", async () => {
    const first = await connect();
    const uaid = await hello(first);
    const { channelID, pushEndpoint } = await register(first);
    await first.close();
    expect((await post(pushEndpoint, Buffer.from("later"))).status).toBe(201);
    expect((await post(pushEndpoint, Buffer.from("dropped"), 0)).status).toBe(201);
    const second = await connect();
    expect(await hello(second, uaid)).toBe(uaid);
    const notification = await second.next();
    expect(notification).toMatchObject({ channelID });
    expect(Buffer.from(notification.data as string, "base64url").toString()).toBe("later");
    // The TTL 0 message was dropped (RFC 8030 §5.2): the next thing on the wire is the pong.
    second.send("{}");
    expect(await second.next()).toEqual({});
    await second.close();
  });

  it("unregisters a channel, after which its endpoint answers 410", async () => {
    const client = await connect();
    await hello(client);
    const { channelID, pushEndpoint } = await register(client);
    client.send({ messageType: "unregister", channelID, code: 200 });
    expect(await client.next()).toEqual({ messageType: "unregister", status: 200, channelID });
    expect((await post(pushEndpoint, Buffer.from("x"))).status).toBe(410);
    await client.close();
  });

  it("checks VAPID on the push endpoint like the generic fake (401 without credentials)", async () => {
    const client = await connect();
    await hello(client);
    const { pushEndpoint } = await register(client);
    expect((await http1Post(pushEndpoint, { ttl: "60" }, undefined, server.ca)).status).toBe(401);
    await client.close();
  });
});
