import { vi, type MockInstance } from 'vitest';
import type { PreparedTablet } from '@iotdb/fast-serializer';
import { RpcConnection } from '../connection/rpc-connection.js';
import { BaseSession } from '../session/base-session.js';
import type { NodeSession } from '../session/node-session.js';
import { Session } from '../session/session.js';

/** What a test reads of one request: the connection it went out on, and what it carried. */
export type SpiedCall = [connection: RpcConnection, sessionIdOrRequest: unknown, payload?: unknown];

export interface RpcSpy {
  readonly mock: { readonly calls: SpiedCall[]; readonly results: { value: unknown }[] };
  mockClear(): void;
  mockRestore(): void;
}

type Watched =
  | 'insertTablet'
  | 'insertTablets'
  | 'insertRecords'
  | 'executeQueryStatementV2'
  | 'executeFastLastDataQueryForOneDeviceV2'
  | 'executeRawDataQueryV2'
  | 'executeLastDataQueryV2'
  | 'executeAggregationQueryV2'
  | 'fetchResultsV2'
  | 'closeOperation';

/**
 * Records the requests of one kind that sessions send, as [connection, sessionId, tablet(s)] for
 * tablet writes, [connection, { prefixPaths }] for insertRecords and [connection, request] for the
 * rest; `results` are the replies' promises. Test-only: it spies on the session's send methods (tablet writes) or
 * on RpcConnection.call.
 */
export function spyRpc(method: Watched): RpcSpy {
  const proto = (method === 'insertTablet' ? BaseSession.prototype : Session.prototype) as unknown as Record<
    string,
    (...a: never[]) => unknown
  >;
  if (method === 'insertTablet' || method === 'insertTablets') {
    const spy = vi.spyOn(proto, method === 'insertTablet' ? 'sendTablet' : 'sendTablets') as unknown as MockInstance<
      (ns: NodeSession, p: PreparedTablet | PreparedTablet[], m?: string) => unknown
    >;
    return view(spy, (args) =>
      args[2] === undefined || args[2] === method ? [args[0].connection, args[0].sessionId, args[1]] : null,
    );
  }
  if (method === 'insertRecords') {
    const spy = vi.spyOn(proto, 'sendRecords') as unknown as MockInstance<
      (ns: NodeSession, g: { deviceId: string }[], m?: string) => unknown
    >;
    return view(spy, (args) =>
      args[2] === undefined || args[2] === method
        ? [args[0].connection, { prefixPaths: args[1].map((r) => r.deviceId) }]
        : null,
    );
  }
  const spy = vi.spyOn(RpcConnection.prototype, 'call') as unknown as MockInstance<
    (m: string, req: unknown) => unknown
  >;
  return view(spy, (args, self) => (args[0] === method ? [self as RpcConnection, args[1]] : null));
}

function view<A extends unknown[]>(
  spy: MockInstance<(...a: A) => unknown>,
  pick: (args: A, self: unknown) => SpiedCall | null,
): RpcSpy {
  const picked = () =>
    spy.mock.calls.flatMap((args, i) => {
      const c = pick(args, spy.mock.contexts[i]);
      return c === null ? [] : [{ call: c, result: spy.mock.results[i] }];
    });
  return {
    mock: {
      get calls() {
        return picked().map((x) => x.call);
      },
      get results() {
        return picked().map((x) => x.result);
      },
    },
    mockClear: () => spy.mockClear(),
    mockRestore: () => spy.mockRestore(),
  };
}
