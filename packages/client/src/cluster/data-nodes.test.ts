import { describe, expect, it } from 'vitest';
import { IoTDBProtocolError } from '@iotdb/fast-serializer';
import type { ColumnarResult } from '../session/columnar.js';
import { queryableNodes } from './data-nodes.js';

/** SHOW DATANODES as toColumnar() gives it. */
function listing(rows: [status: string, address: string, port: number][]): ColumnarResult {
  return {
    columnNames: ['NodeID', 'Status', 'RpcAddress', 'RpcPort', 'DataRegionNum', 'SchemaRegionNum'],
    columnTypes: ['INT32', 'TEXT', 'TEXT', 'INT32', 'INT32', 'INT32'],
    timestamps: null,
    values: [
      Int32Array.from(rows, (_, i) => i + 1),
      rows.map((r) => r[0]),
      rows.map((r) => r[1]),
      Int32Array.from(rows, (r) => r[2]),
      new Int32Array(rows.length),
      new Int32Array(rows.length),
    ],
    nulls: [null, null, null, null, null, null],
    rawText: [null, null, null, null, null, null],
    rowCount: rows.length,
  };
}

/** Asked through the loopback address: every address listed is one to keep. */
const LOCAL = { host: '127.0.0.1', port: 6667 };

describe('queryableNodes', () => {
  it('keeps Running and ReadOnly nodes in the listed order, IPv6 too', () => {
    expect(
      queryableNodes(
        listing([
          ['Running', '10.0.0.2', 6668],
          ['ReadOnly', '::1', 6667],
        ]),
        LOCAL,
      ),
    ).toEqual([
      { host: '10.0.0.2', port: 6668 },
      { host: '::1', port: 6667 },
    ]);
  });

  it('leaves out nodes being removed or lost (Unknown), the wildcard address, and impossible ports', () => {
    const rows: [string, string, number][] = [
      ['Removing', '10.0.0.1', 6667],
      ['Unknown', '10.0.0.2', 6667],
      ['Running', '0.0.0.0', 6667],
      ['Running', '10.0.0.3', 0],
      ['Running', '', 6667],
      ['Running', '10.0.0.4', 6667],
    ];
    expect(queryableNodes(listing(rows), LOCAL)).toEqual([{ host: '10.0.0.4', port: 6667 }]);
  });

  it("leaves out loopback addresses when asked through another address: they would name the client's own machine", () => {
    const rows: [string, string, number][] = [
      ['Running', '127.0.0.1', 6667],
      ['Running', '127.0.1.1', 6668],
      ['Running', '::1', 6669],
      ['Running', 'localhost', 6670],
      ['Running', '10.0.0.4', 6667],
    ];
    expect(queryableNodes(listing(rows), { host: '10.0.0.1', port: 6667 })).toEqual([{ host: '10.0.0.4', port: 6667 }]);
    expect(queryableNodes(listing(rows), { host: '127.0.0.1', port: 6667 })).toHaveLength(5);
    expect(queryableNodes(listing(rows), { host: 'localhost', port: 6667 })).toHaveLength(5);
  });

  it('a listing without the columns it reads is an IoTDBProtocolError naming the one missing', () => {
    const bad = { ...listing([]), columnNames: ['NodeID', 'Status', 'Address', 'RpcPort', 'a', 'b'] };
    expect(() => queryableNodes(bad, LOCAL)).toThrow(IoTDBProtocolError);
    expect(() => queryableNodes(bad, LOCAL)).toThrow(/RpcAddress/);
  });
});
