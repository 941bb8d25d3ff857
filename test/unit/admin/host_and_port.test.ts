/** `parseHostAndPort` (dropConnections): mongod's HostAndPort::parse accepts and refuses these. */
import { describe, expect, it } from 'vitest';
import { parseHostAndPort } from '../../../src/commands/admin/drop_connections.js';
import { CommandError } from '../../../src/errors/command_error.js';

const ACCEPTED: ReadonlyArray<[string, { host: string; port: number | undefined }]> = [
  ['host', { host: 'host', port: undefined }],
  ['host.invalid:27017', { host: 'host.invalid', port: 27017 }],
  ['192.168.1.1:1', { host: '192.168.1.1', port: 1 }],
  ['[::1]:65535', { host: '::1', port: 65535 }],
  ['[::1]', { host: '::1', port: undefined }],
];

const REFUSED: ReadonlyArray<[string, string]> = [
  ['', 'Empty host component parsing HostAndPort from ""'],
  [':27017', 'Empty host component parsing HostAndPort from ":27017"'],
  ['host:', 'Empty port number parsing HostAndPort from "host:"'],
  ['host:0', 'Port number 0 out of range parsing HostAndPort from "host:0"'],
  ['host:65536', 'Port number 65536 out of range parsing HostAndPort from "host:65536"'],
  ['host:-1', 'Port number -1 out of range parsing HostAndPort from "host:-1"'],
  ['host:abc', 'Port number abc is not a number parsing HostAndPort from "host:abc"'],
  ['host:port:extra', 'Port number extra is not a number parsing HostAndPort from "host:port:extra"'],
  ['[::1', 'Missing "]" parsing HostAndPort from "[::1"'],
];

describe('parseHostAndPort', () => {
  it.each(ACCEPTED)('accepts %j', (text, parsed) => {
    expect(parseHostAndPort(text)).toEqual(parsed);
  });
  it.each(REFUSED)('refuses %j with 9 FailedToParse', (text, message) => {
    let error: unknown;
    try {
      parseHostAndPort(text);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CommandError);
    expect([(error as CommandError).code, (error as CommandError).message]).toEqual([9, message]);
  });
});
