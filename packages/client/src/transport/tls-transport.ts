import type { TcpNetConnectOpts } from 'node:net';
import { connect } from 'node:tls';
import { endpointKey, type Endpoint } from '../cluster/endpoint.js';
import { IoTDBConnectionError, failureOf } from '../errors.js';
import { KEEP_ALIVE_DELAY_MS, whenReady } from './socket-stream.js';
import { checkTlsOptions, type TlsOptions } from './tls-options.js';
import type { ConnectOptions, StreamEvents, Transport, TransportStream } from './transport.js';

/** OpenSSL and Node error codes of a handshake or certificate that failed. */
const TLS_FAILURE = /^(ERR_SSL|ERR_TLS|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/;

/** Node's codes of a certificate chain that does not lead to a CA the client trusts (a self-signed server's). */
const UNTRUSTED =
  /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_UNTRUSTED)/;
const UNTRUSTED_HINT =
  ": the server's certificate is not signed by a CA this client trusts; give the server's CA certificate (PEM) as tls: { ca }";

/**
 * TLS over TCP with Node's own options (`ca`, `cert`, `key`, `servername`, `rejectUnauthorized`, ...):
 * the server's certificate is verified unless `rejectUnauthorized: false` says otherwise. The stream
 * opens only once the handshake is done, so `connectTimeoutMs` covers it: a TLS client that reached a
 * plaintext port (whose server reads the ClientHello as a huge frame length and waits) times out, and a
 * certificate that does not verify fails at once with reason 'tls'.
 */
export function tlsTransport(tlsOptions: TlsOptions = {}): Transport {
  checkTlsOptions(tlsOptions);
  return {
    connect(endpoint: Endpoint, events: StreamEvents, options: ConnectOptions): Promise<TransportStream> {
      if (options.signal?.aborted) return Promise.reject(options.signal.reason);
      const key = endpointKey(endpoint);
      const socket = connect({ ...tlsOptions, host: endpoint.host, port: endpoint.port });
      socket.setNoDelay(true);
      // the keep-alive the options give (net.connect's, which tls.connect passes on), if they give one
      const { keepAlive, keepAliveInitialDelay } = tlsOptions as Pick<
        TcpNetConnectOpts,
        'keepAlive' | 'keepAliveInitialDelay'
      >;
      if (keepAlive !== false) socket.setKeepAlive(true, keepAliveInitialDelay ?? KEEP_ALIVE_DELAY_MS);
      return whenReady(socket, 'secureConnect', key, events, options, (e) => {
        if (e === null)
          return new IoTDBConnectionError(
            'tls',
            key,
            'the server closed the connection during the TLS handshake',
            false,
          );
        const reason = TLS_FAILURE.test(e.code ?? '') ? 'tls' : failureOf(e);
        const hint = UNTRUSTED.test(e.code ?? '') ? UNTRUSTED_HINT : '';
        return new IoTDBConnectionError(reason, key, `cannot connect with TLS: ${e.message}${hint}`, false, {
          cause: e,
        });
      });
    },
  };
}
