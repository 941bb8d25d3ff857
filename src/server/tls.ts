/**
 * TLS for the listener, as mongod's `net.tls` options describe it: the mode, the server's
 * certificate and key (one PEM file), the CA that client certificates must chain to, and whether
 * clients may come without a certificate or with an invalid one. `loadTlsConfig` reads and checks
 * the files once, at start-up, so that a bad file is one clear sentence then and never a failure
 * later; `checkPeer` applies mongod's rules to each client's certificate after the handshake.
 *
 * Modes (mongod's `net.tls.mode`): `disabled` (plain only), `allowTLS` and `preferTLS` (plain and
 * TLS on the same port: they differ only for connections a server makes, and Mayfly makes none),
 * `requireTLS` (TLS only; a plain connection is closed unanswered). A TLS client speaks first
 * with a handshake record (bytes 0x16 0x03, then the record's length); a MongoDB message starts
 * with its length, a little-endian int32, which can begin with the same two bytes (a 790-byte
 * message does), so `classifyFirstBytes` also reads the message header's opCode (bytes 12-15):
 * a known opcode there is a MongoDB message, anything else a TLS record.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type tls from 'node:tls';
import type { Document } from '../bson/library.js';
import { OpCode } from '../wire/constants.js';

/** The values of `net.tls.mode`. */
export const TlsModes = ['disabled', 'allowTLS', 'preferTLS', 'requireTLS'] as const;
/** One of `TlsModes`. */
export type TlsMode = (typeof TlsModes)[number];

/** The first byte of a TLS handshake record (ContentType handshake, RFC 8446 §5.1). */
export const TLS_HANDSHAKE_RECORD_BYTE = 0x16;

/** What the first bytes of a connection are, or 'more' while too few have arrived to tell. */
export type FirstBytes = 'tls' | 'plain' | 'more';

const MONGODB_OPCODES: ReadonlySet<number> = new Set(Object.values(OpCode));

/** Whether a connection that sent `bytes` (so far) speaks TLS or plain MongoDB messages. */
export function classifyFirstBytes(bytes: Buffer): FirstBytes {
  if (bytes.length === 0) return 'more';
  if (bytes[0] !== TLS_HANDSHAKE_RECORD_BYTE) return 'plain';
  if (bytes.length < 2) return 'more';
  if (bytes[1] !== 0x03) return 'plain';
  if (bytes.length < 16) return 'more';
  return MONGODB_OPCODES.has(bytes.readInt32LE(12)) ? 'plain' : 'tls';
}

/** TLS options of a server (the embedding API's `tls`, the CLI's `--tls-*`). */
export interface TlsOptions {
  /** Default 'disabled'; any other mode needs `certificateKeyFile`. */
  mode?: TlsMode;
  /** PEM file with the server's certificate (and chain) and its private key. */
  certificateKeyFile?: string;
  /** Password of an encrypted private key in `certificateKeyFile`. */
  certificateKeyFilePassword?: string;
  /** PEM file of the CA certificates client certificates must chain to; required with TLS, as in mongod 8. */
  caFile?: string;
  /** Accept clients that present no certificate (they cannot use MONGODB-X509). */
  allowConnectionsWithoutCertificates?: boolean;
  /** Accept clients whose certificate does not verify (they cannot use MONGODB-X509). */
  allowInvalidCertificates?: boolean;
}

/** The names of the TLS options. */
export const TLS_OPTION_NAMES = [
  'mode',
  'certificateKeyFile',
  'certificateKeyFilePassword',
  'caFile',
  'allowConnectionsWithoutCertificates',
  'allowInvalidCertificates',
] as const;
/** One TLS option name. */
export type TlsOptionName = (typeof TLS_OPTION_NAMES)[number];
/** How a caller names each option in its messages (`--tls-ca-file`, `option 'tls.caFile'`). */
export type TlsOptionLabels = Readonly<Record<TlsOptionName, string>>;

/** The labels of the embedding API. */
export const EMBEDDED_TLS_LABELS: TlsOptionLabels = Object.fromEntries(TLS_OPTION_NAMES.map((n) => [n, `option 'tls.${n}'`])) as TlsOptionLabels;

/** A TLS configuration that cannot work; the message says what to change. */
export class TlsConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TlsConfigError';
  }
}

/** A checked TLS configuration. */
export interface TlsConfig {
  readonly mode: Exclude<TlsMode, 'disabled'>;
  /** Options of the `tls.Server` that takes each TLS connection. */
  readonly serverOptions: tls.TlsOptions;
  readonly allowConnectionsWithoutCertificates: boolean;
  readonly allowInvalidCertificates: boolean;
  /** The server certificate's expiry. */
  readonly certificateExpiresAt: Date;
  /** `net.tls` as getCmdLineOpts reports it (the password redacted, as mongod does). */
  readonly cmdLine: Document;
}

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function readPem(file: string, label: string, what: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'is not readable (permission denied)' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code ?? String(err)})`;
    throw new TlsConfigError(`${label}: ${file} ${why}; give the path of a PEM file with ${what}`);
  }
  return text;
}

function certificatesIn(text: string, file: string, label: string, what: string): X509Certificate[] {
  const blocks = text.match(CERTIFICATE_BLOCK) ?? [];
  if (blocks.length === 0) throw new TlsConfigError(`${label}: ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----); give a PEM file with ${what}`);
  return blocks.map((block) => {
    try {
      return new X509Certificate(block);
    } catch (err) {
      throw new TlsConfigError(`${label}: a certificate in ${file} cannot be read (${err instanceof Error ? err.message : String(err)})`);
    }
  });
}

function isBool(value: unknown): value is boolean | undefined {
  return value === undefined || typeof value === 'boolean';
}

/**
 * Checks `options` and reads their files; null when TLS is disabled. `labels` name the options in
 * the messages; `nowMs` (the server clock) dates the server certificate. Throws `TlsConfigError`.
 */
export function loadTlsConfig(options: TlsOptions, labels: TlsOptionLabels, nowMs: number): TlsConfig | null {
  const mode = options.mode ?? 'disabled';
  if (!(TlsModes as readonly string[]).includes(mode)) {
    throw new TlsConfigError(`${labels.mode} must be one of ${TlsModes.map((m) => `'${m}'`).join(', ')}, not ${JSON.stringify(mode)}`);
  }
  for (const name of ['certificateKeyFile', 'certificateKeyFilePassword', 'caFile'] as const) {
    const value = options[name];
    if (value !== undefined && (typeof value !== 'string' || value === '')) throw new TlsConfigError(`${labels[name]} must be a non-empty string`);
  }
  for (const name of ['allowConnectionsWithoutCertificates', 'allowInvalidCertificates'] as const) {
    if (!isBool(options[name])) throw new TlsConfigError(`${labels[name]} must be true or false`);
  }
  if (mode === 'disabled') {
    const given = TLS_OPTION_NAMES.filter((n) => n !== 'mode' && options[n] !== undefined && options[n] !== false);
    // mongod: "need to enable TLS via the tlsMode flag when using TLS configuration parameters".
    if (given.length > 0) throw new TlsConfigError(`${labels[given[0]!]} needs TLS turned on: give ${labels.mode} requireTLS (or allowTLS, preferTLS)`);
    return null;
  }
  const keyFile = options.certificateKeyFile;
  if (keyFile === undefined) throw new TlsConfigError(`${labels.mode} ${mode} needs the server's certificate and key: give ${labels.certificateKeyFile} <PEM file>`);
  const what = 'the certificate and the private key';
  const keyText = readPem(keyFile, labels.certificateKeyFile, what);
  const [leaf] = certificatesIn(keyText, keyFile, labels.certificateKeyFile, what);
  if (!/-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----/.test(keyText)) {
    throw new TlsConfigError(`${labels.certificateKeyFile}: ${keyFile} holds no private key (-----BEGIN PRIVATE KEY-----); put the key and the certificate in one PEM file`);
  }
  const passphrase = options.certificateKeyFilePassword;
  if (passphrase === undefined && /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(keyText)) {
    throw new TlsConfigError(`${labels.certificateKeyFile}: the private key in ${keyFile} is encrypted; give its password with ${labels.certificateKeyFilePassword}`);
  }
  let key;
  try {
    key = createPrivateKey(passphrase === undefined ? { key: keyText, format: 'pem' } : { key: keyText, format: 'pem', passphrase });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_MISSING_PASSPHRASE') throw new TlsConfigError(`${labels.certificateKeyFile}: the private key in ${keyFile} is encrypted; give its password with ${labels.certificateKeyFilePassword}`);
    if (passphrase !== undefined) throw new TlsConfigError(`${labels.certificateKeyFilePassword}: the private key in ${keyFile} cannot be decrypted with the password given`);
    throw new TlsConfigError(`${labels.certificateKeyFile}: the private key in ${keyFile} cannot be read (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!leaf!.checkPrivateKey(key)) throw new TlsConfigError(`${labels.certificateKeyFile}: the private key in ${keyFile} is not the key of its (first) certificate`);
  const notBefore = Date.parse(leaf!.validFrom);
  const notAfter = Date.parse(leaf!.validTo);
  if (nowMs < notBefore || nowMs > notAfter) {
    // mongod: "The provided SSL certificate is expired or not yet valid."
    throw new TlsConfigError(`${labels.certificateKeyFile}: the certificate in ${keyFile} is expired or not yet valid (valid from ${leaf!.validFrom} to ${leaf!.validTo})`);
  }
  if (options.caFile === undefined) {
    // mongod 8 (SERVER-72839): "The use of TLS without specifying a chain of trust is no longer supported".
    throw new TlsConfigError(
      `${labels.mode} ${mode} needs a chain of trust for client certificates: give ${labels.caFile} <PEM file> (the CA that signs your client certificates; if clients have none, also give ${labels.allowConnectionsWithoutCertificates})`,
    );
  }
  const caWhat = 'the CA certificates that client certificates chain to';
  const ca = readPem(options.caFile, labels.caFile, caWhat);
  certificatesIn(ca, options.caFile, labels.caFile, caWhat);
  const serverOptions: tls.TlsOptions = {
    key: keyText,
    cert: keyText,
    ...(passphrase === undefined ? {} : { passphrase }),
    ca,
    // mongod asks every client for a certificate and judges it itself (checkPeer).
    requestCert: true,
    rejectUnauthorized: false,
  };
  return {
    mode,
    serverOptions,
    allowConnectionsWithoutCertificates: options.allowConnectionsWithoutCertificates === true,
    allowInvalidCertificates: options.allowInvalidCertificates === true,
    certificateExpiresAt: new Date(notAfter),
    cmdLine: tlsCmdLine(options)!,
  };
}

/** `net.tls` of getCmdLineOpts for `options` (the password redacted, as mongod does); undefined when disabled. */
export function tlsCmdLine(options: TlsOptions): Document | undefined {
  if (options.mode === undefined || options.mode === 'disabled') return undefined;
  const cmdLine: Document = { mode: options.mode };
  if (options.certificateKeyFile !== undefined) cmdLine.certificateKeyFile = options.certificateKeyFile;
  if (options.certificateKeyFilePassword !== undefined) cmdLine.certificateKeyFilePassword = '<password>';
  if (options.caFile !== undefined) cmdLine.CAFile = options.caFile;
  if (options.allowConnectionsWithoutCertificates === true) cmdLine.allowConnectionsWithoutCertificates = true;
  if (options.allowInvalidCertificates === true) cmdLine.allowInvalidCertificates = true;
  return cmdLine;
}

/** What `checkPeer` decides about a client after its handshake. */
export type PeerVerdict =
  /** Accepted; `certificate` is the DER of a verified client certificate, or null. */
  | { readonly accept: true; readonly certificate: Buffer | null; readonly warning?: string }
  /** Refused: the connection is closed; `reason` is mongod's log text. */
  | { readonly accept: false; readonly reason: string };

/**
 * mongod's rules for the client certificate of a finished handshake: none presented is refused
 * unless `allowConnectionsWithoutCertificates`; one that does not verify is refused unless
 * `allowInvalidCertificates`, and then gives no subject (so no MONGODB-X509).
 */
export function checkPeer(socket: tls.TLSSocket, config: TlsConfig): PeerVerdict {
  const peer = socket.getPeerCertificate(false) as Partial<tls.PeerCertificate> | null;
  const presented = peer !== null && peer.raw !== undefined && peer.raw.length > 0;
  if (!presented) {
    if (config.allowConnectionsWithoutCertificates) return { accept: true, certificate: null };
    return { accept: false, reason: 'no SSL certificate provided by peer; connection rejected' };
  }
  if (!socket.authorized) {
    const why = socket.authorizationError instanceof Error ? socket.authorizationError.message : String(socket.authorizationError);
    if (config.allowInvalidCertificates) return { accept: true, certificate: null, warning: `SSL peer certificate validation failed: ${why}` };
    return { accept: false, reason: `SSL peer certificate validation failed: ${why}` };
  }
  return { accept: true, certificate: peer.raw! };
}
