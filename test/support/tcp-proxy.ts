import { once } from "node:events";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP relay on a fixed local port to a real server (PostgreSQL): `stop()` cuts every
 * connection and stops listening (the database is "away": connections are refused), `start()`
 * listens again on the same port (it is back). Start-up tests create it stopped.
 */
export interface TcpProxy {
  readonly port: number;
  readonly listening: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  close(): Promise<void>;
}

export async function createTcpProxy(target: { host: string; port: number }, options: { listening?: boolean } = {}): Promise<TcpProxy> {
  // Reserve a free port by listening once; the relay listens on it from then on.
  const probe = createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const port = (probe.address() as AddressInfo).port;
  probe.close();
  await once(probe, "close");

  let server: Server | undefined;
  const sockets = new Set<Socket>();

  async function start(): Promise<void> {
    if (server !== undefined) return;
    const next = createServer((client) => {
      const upstream = createConnection(target);
      sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on("error", drop).on("close", drop);
      upstream.on("error", drop).on("close", drop);
      client.pipe(upstream).pipe(client);
    });
    next.listen(port, "127.0.0.1");
    await once(next, "listening");
    server = next;
  }

  async function stop(): Promise<void> {
    const current = server;
    if (current === undefined) return;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    current.close();
    await once(current, "close");
  }

  if (options.listening !== false) await start();
  return {
    port,
    get listening() {
      return server !== undefined;
    },
    start,
    stop,
    close: stop,
  };
}

/** A relay to the PostgreSQL server `url` names, and `url` rewritten to reach it through the relay. */
export async function relayToPostgres(url: string): Promise<{ proxy: TcpProxy; url: string }> {
  const real = new URL(url);
  const proxy = await createTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
  const proxied = new URL(url);
  proxied.host = `127.0.0.1:${proxy.port}`;
  return { proxy, url: proxied.toString() };
}
