/**
 * `dropConnections` (drop_connections.idl): closes the server's outgoing pooled connections to
 * the given `host:port`s. Mayfly opens no connections to other servers, so there is nothing to
 * drop once each entry parses as a `HostAndPort` (9 FailedToParse otherwise).
 */
import { CommandError } from '../../errors/command_error.js';
import { typeMismatch } from '../idl_errors.js';
import type { CommandDefinition } from '../types.js';

/** `HostAndPort::parse`: `host`, `host:port` or `[ipv6]:port`, the port within 1–65535. */
export function parseHostAndPort(text: string): { host: string; port: number | undefined } {
  const fail = (why: string) => new CommandError('FailedToParse', `${why} parsing HostAndPort from "${text}"`);
  let host: string;
  let portText: string | undefined;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) throw fail('Missing "]"');
    host = text.slice(1, close);
    const rest = text.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) throw fail('Extraneous characters after "]"');
      portText = rest.slice(1);
    }
  } else {
    const colon = text.lastIndexOf(':');
    host = colon < 0 ? text : text.slice(0, colon);
    portText = colon < 0 ? undefined : text.slice(colon + 1);
  }
  if (host === '') throw fail('Empty host component');
  if (portText === undefined) return { host, port: undefined };
  if (portText === '') throw fail('Empty port number');
  if (!/^-?[0-9]+$/.test(portText)) throw fail(`Port number ${portText} is not a number`);
  const port = Number(portText);
  if (port <= 0 || port > 65535) throw fail(`Port number ${port} out of range`);
  return { host, port };
}

/** The `dropConnections` command. */
export const dropConnections: CommandDefinition = {
  name: 'dropConnections',
  adminOnly: true,
  args: {
    hostAndPort: {
      type: 'array',
      required: true,
      parse(value, field, idl) {
        if (value === null) throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${field}' is missing but a required field`);
        if (!Array.isArray(value)) throw typeMismatch(`${idl}.${field}`, value, ['array']);
        value.forEach((item, i) => {
          if (item !== null && typeof item !== 'string') throw typeMismatch(`${idl}.${field}.${i}`, item, ['string']);
        });
      },
    },
  },
  help: 'Drop outgoing connections to a specific list of hosts',
  run(_ctx, cmd) {
    for (const item of cmd.hostAndPort as unknown[]) if (typeof item === 'string') parseHostAndPort(item);
    return {};
  },
};
