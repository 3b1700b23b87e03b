import { IoTDBValidationError } from '@iotdb/fast-serializer';

/** A DataNode's client RPC address. */
export interface Endpoint {
  readonly host: string;
  readonly port: number;
}

/** 'host:port' ('[::1]:6667' for IPv6), the key of an endpoint in caches and error messages. */
export function endpointKey(e: Endpoint): string {
  return e.host.includes(':') ? `[${e.host}]:${e.port}` : `${e.host}:${e.port}`;
}

export function parseEndpoint(url: string, field: string): Endpoint {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(String(url).trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port < 1 || port > 65535)
    throw new IoTDBValidationError(field, `needs 'host:port', got ${JSON.stringify(url)}`);
  return { host: m[1] ?? m[2], port };
}
