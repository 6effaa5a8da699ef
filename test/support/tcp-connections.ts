/**
 * The server's side of one loopback TCP connection, read from /proc/net/tcp: whether the server
 * has read what the client sent (its receive queue is empty) or closed its socket, so a test can
 * wait for either instead of sleeping.
 */
import { readFileSync } from 'node:fs';

export interface ServerSide {
  /** Kernel TCP state: '01' established, '08' close-wait (the client closed, the server not yet). */
  state: string;
  /** Bytes received and not yet read by the server. */
  unread: number;
}

/** The server's end of the IPv4 connection between `serverPort` and the client's `clientPort`; null once gone. */
export function serverSide(serverPort: number, clientPort: number): ServerSide | null {
  const hex = (port: number) => `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const [, local, remote, state, queues] = line.trim().split(/\s+/);
    if (local?.endsWith(hex(serverPort)) && remote?.endsWith(hex(clientPort)))
      return { state: state!, unread: Number.parseInt(queues!.split(':')[1]!, 16) };
  }
  return null;
}

/** True once the server has closed its end (gone, or past close-wait). */
export function serverClosed(serverPort: number, clientPort: number): boolean {
  const side = serverSide(serverPort, clientPort);
  return side === null || (side.state !== '01' && side.state !== '08');
}
