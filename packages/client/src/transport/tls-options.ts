import type { ConnectionOptions } from 'node:tls';
import type { TcpSocketConnectOpts } from 'node:net';
import { IoTDBValidationError, KnownKeys, describeValue, nearestName } from '@iotdb/fast-serializer';

/** Where a connection goes: each node's host and port are the session's, so these are not TLS options here. */
const ENDPOINT_KEYS: ReadonlySet<string> = new Set(['host', 'port', 'path', 'socket']);

/**
 * Node's `tls.ConnectionOptions` but where to connect (`host`, `port`, `path`, `socket`: the session's). The names are
 * spelt out here and in ENDPOINT_KEYS: a type derived from that const would send the API docs to a private name.
 */
export type TlsOptions = Omit<ConnectionOptions, 'host' | 'port' | 'path' | 'socket'>;

/** tls.connect's options in @types/node (the list fails to compile when it gains one), and the net ones it passes on. */
// prettier-ignore
const NODE_TLS_KEYS = KnownKeys.of<ConnectionOptions & Omit<TcpSocketConnectOpts, keyof ConnectionOptions>>('tls')(
  'host', 'port', 'path', 'socket', 'checkServerIdentity', 'servername', 'session', 'minDHSize', 'lookup', 'timeout',
  'pskCallback', 'secureContext', 'enableTrace', 'requestCert', 'ALPNProtocols', 'SNICallback', 'rejectUnauthorized',
  // the secure context's
  'ALPNCallback', 'allowPartialTrustChain', 'ca', 'cert', 'sigalgs', 'ciphers', 'clientCertEngine', 'crl', 'dhparam',
  'ecdhCurve', 'honorCipherOrder', 'key', 'privateKeyEngine', 'privateKeyIdentifier', 'maxVersion', 'minVersion',
  'passphrase', 'pfx', 'secureOptions', 'secureProtocol', 'sessionIdContext', 'ticketKeys', 'sessionTimeout',
  // net.connect's, which tls.connect passes on
  'localAddress', 'localPort', 'hints', 'family', 'noDelay', 'keepAlive', 'keepAliveInitialDelay', 'autoSelectFamily',
  'autoSelectFamilyAttemptTimeout', 'onread',
);

/**
 * Node takes any key in tls.connect's options and ignores those it does not know, so a misspelt one goes unsaid:
 * `minversion: 'TLSv1.3'` lets TLS 1.2 in, `serverName` checks the certificate against the host instead. A key within
 * two edits of one of Node's is refused naming it (one of three letters or fewer only when it is one of Node's but
 * for case: `CA`); a key far from all of them may be a later Node's, and is passed on.
 */
export function checkTlsOptions(options: unknown): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new IoTDBValidationError('tls', `needs tls.ConnectionOptions, got ${describeValue(options)}`);
  for (const key of Object.keys(options)) {
    if (ENDPOINT_KEYS.has(key)) {
      throw new IoTDBValidationError(
        `tls.${key}`,
        "each node's host and port are the session's (host, port, nodeUrls); the name the server's certificate " +
          'must have is servername',
      );
    }
    if (NODE_TLS_KEYS.has(key)) continue;
    const near = nearestName(key, NODE_TLS_KEYS.known);
    if (near === undefined || (key.length <= 3 && near.toLowerCase() !== key.toLowerCase())) continue;
    throw new IoTDBValidationError(
      `tls.${key}`,
      `not one of Node's TLS options, which ignores it (did you mean ${near}?)`,
    );
  }
}
