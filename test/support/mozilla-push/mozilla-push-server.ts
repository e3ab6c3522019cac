import { randomBytes, randomUUID } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { startFakePushService, type FakePushService, type IncomingPush, type PushRoute } from "../fake-push/fake-push-service.js";
import { parseClientMessage, type ClientMessage } from "./protocol.js";

/** A subscription Firefox made through this server. */
export interface Channel {
  readonly channelID: string;
  readonly uaid: string;
  /** applicationServerKey given at register time, base64url (VAPID `k` must match it). */
  readonly key: string | undefined;
  readonly pushEndpoint: string;
}

/** Firefox's answer to one notification. */
export interface AckRecord {
  readonly channelID: string;
  readonly version: string;
  /** 100 delivered, 101 decryption failed, 102 not delivered; 301-303 for a nack. */
  readonly code: number;
  readonly kind: "ack" | "nack";
}

export interface MozillaPushServerOptions {
  /** Options of the HTTPS side (the fake push service that receives the application's POSTs). */
  readonly logSize?: number;
}

interface Notification {
  readonly messageType: "notification";
  readonly channelID: string;
  readonly version: string;
  readonly data?: string;
  readonly headers?: { readonly encoding: "aes128gcm" };
  readonly ttl: number;
}

type Waiter<T> = { match: (value: T) => boolean; resolve: (value: T) => void };

/**
 * A local stand-in for Mozilla's push service (autopush): Firefox connects to `wsUrl` (preference
 * `dom.push.serverURL`) and registers; the application POSTs to the `pushEndpoint` it got, on an
 * HTTPS fake push service (VAPID, TTL and size checked like the real one); the body goes to
 * Firefox as a `notification`, and Firefox's ack code (100/101/102) is recorded per version.
 */
export async function startMozillaPushServer(options: MozillaPushServerOptions = {}) {
  const channels = new Map<string, Channel>();
  const sockets = new Map<string, WebSocket>();
  /** Messages for a Firefox that is not connected, as autopush stores them (TTL > 0 only). */
  const pending = new Map<string, Notification[]>();
  const acks: AckRecord[] = [];
  const ackWaiters = new Set<Waiter<AckRecord>>();
  const registerWaiters = new Set<Waiter<Channel>>();
  const sent: Notification[] = [];
  const knownUaids = new Set<string>();

  const route: PushRoute = {
    vapidKeyFor: (channelID) => channels.get(channelID)?.key,
    deliver: (push) => deliver(push),
  };
  const pushService: FakePushService = await startFakePushService({
    routes: { "/wpush/": route },
    decryptSample: 0,
    ...(options.logSize === undefined ? {} : { logSize: options.logSize }),
  });

  const wss = new WebSocketServer({
    host: "127.0.0.1",
    port: 0,
    // Firefox asks for this subprotocol and drops the connection if it is not selected.
    handleProtocols: (protocols) => (protocols.has("push-notification") ? "push-notification" : false),
  });
  await once(wss, "listening");
  const { port } = wss.address() as AddressInfo;
  const wsUrl = `ws://127.0.0.1:${port}/`;

  wss.on("connection", (socket) => {
    let uaid: string | undefined;
    socket.on("message", (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      const message = parseClientMessage(text);
      if (message === "ping") {
        socket.send("{}");
        return;
      }
      if (message === null) return;
      uaid = handle(socket, uaid, message);
    });
    socket.on("close", () => {
      if (uaid !== undefined && sockets.get(uaid) === socket) sockets.delete(uaid);
    });
  });

  function handle(socket: WebSocket, uaid: string | undefined, message: ClientMessage): string | undefined {
    switch (message.messageType) {
      case "hello": {
        // Keep a known UAID: answering another one makes Firefox drop all its subscriptions.
        const id = message.uaid !== undefined && knownUaids.has(message.uaid) ? message.uaid : randomBytes(16).toString("hex");
        knownUaids.add(id);
        sockets.get(id)?.close();
        sockets.set(id, socket);
        socket.send(JSON.stringify({ messageType: "hello", status: 200, uaid: id, use_webpush: true, broadcasts: {} }));
        for (const notification of pending.get(id) ?? []) socket.send(JSON.stringify(wire(notification)));
        pending.delete(id);
        return id;
      }
      case "register": {
        if (uaid === undefined) return uaid;
        const channel: Channel = {
          channelID: message.channelID,
          uaid,
          key: message.key,
          pushEndpoint: `${pushService.origin}/wpush/${encodeURIComponent(message.channelID)}`,
        };
        channels.set(channel.channelID, channel);
        socket.send(JSON.stringify({ messageType: "register", status: 200, channelID: channel.channelID, uaid, pushEndpoint: channel.pushEndpoint }));
        settle(registerWaiters, channel);
        return uaid;
      }
      case "unregister":
        channels.delete(message.channelID);
        socket.send(JSON.stringify({ messageType: "unregister", status: 200, channelID: message.channelID }));
        return uaid;
      case "ack":
        for (const update of message.updates) {
          recordAck({ channelID: update.channelID, version: update.version, code: update.code ?? 100, kind: "ack" });
        }
        return uaid;
      case "nack": {
        const original = sent.find((n) => n.version === message.version);
        recordAck({ channelID: original?.channelID ?? "", version: message.version, code: message.code, kind: "nack" });
        return uaid;
      }
    }
  }

  function deliver(push: IncomingPush): number {
    const channel = channels.get(push.id);
    // autopush answers 410 for a subscription it no longer knows.
    if (channel === undefined) return 410;
    const notification: Notification = {
      messageType: "notification",
      channelID: channel.channelID,
      version: randomUUID(),
      ttl: push.ttl,
      ...(push.body.length > 0 ? { data: push.body.toString("base64url"), headers: { encoding: "aes128gcm" as const } } : {}),
    };
    sent.push(notification);
    const socket = sockets.get(channel.uaid);
    if (socket !== undefined && socket.readyState === socket.OPEN) {
      socket.send(JSON.stringify(wire(notification)));
    } else if (push.ttl > 0) {
      pending.set(channel.uaid, [...(pending.get(channel.uaid) ?? []), notification]);
    }
    return 201;
  }

  function wire(notification: Notification): Omit<Notification, "ttl"> {
    const { ttl: _ttl, ...message } = notification;
    return message;
  }

  function recordAck(ack: AckRecord): void {
    acks.push(ack);
    settle(ackWaiters, ack);
  }

  function settle<T>(waiters: Set<Waiter<T>>, value: T): void {
    for (const waiter of waiters) {
      if (waiter.match(value)) {
        waiters.delete(waiter);
        waiter.resolve(value);
      }
    }
  }

  function waitFor<T>(waiters: Set<Waiter<T>>, existing: readonly T[], match: (value: T) => boolean, what: string, timeoutMs: number): Promise<T> {
    const found = existing.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        match,
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`Mozilla push server: no ${what} after ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(waiter);
    });
  }

  return {
    /** For `dom.push.serverURL`. */
    wsUrl,
    /** Origin of the HTTPS push endpoints (the VAPID `aud`). */
    pushOrigin: pushService.origin,
    /** The HTTPS side: stats, behaviours (e.g. make the next POST answer 503), the test CA. */
    pushService,
    ca: pushService.ca,
    channels: (): Channel[] => [...channels.values()],
    /** Every notification forwarded to Firefox (the `version` is what its ack refers to). */
    notifications: (): { channelID: string; version: string }[] => sent.map(({ channelID, version }) => ({ channelID, version })),
    acks: (): AckRecord[] => [...acks],
    /** The version of the last notification forwarded for `channelID` (what its ack will name). */
    lastVersion: (channelID: string): string | undefined => sent.filter((n) => n.channelID === channelID).at(-1)?.version,
    /** Whether a Firefox profile (by UAID) is connected right now. */
    connectedUaids: (): string[] => [...sockets.keys()],
    waitForRegistration(match: (channel: Channel) => boolean = () => true, timeoutMs = 20_000): Promise<Channel> {
      return waitFor(registerWaiters, [...channels.values()], match, "registration", timeoutMs);
    },
    /** Resolves with the first ack (recorded or future) that matches, e.g. by `version`. */
    waitForAck(match: (ack: AckRecord) => boolean, timeoutMs = 20_000): Promise<AckRecord> {
      return waitFor(ackWaiters, acks, match, "ack", timeoutMs);
    },
    async close(): Promise<void> {
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await pushService.close();
    },
  };
}

export type MozillaPushServer = Awaited<ReturnType<typeof startMozillaPushServer>>;
