import { Writable } from 'node:stream';
import type { Writer } from './writer.js';

export interface WriterStreamOptions {
  /** rows the stream itself queues before its write() returns false. @default 1024 */
  highWaterMark?: number;
  /** close the writer when the stream ends (else it is flushed and stays open). @default false */
  closeWriter?: boolean;
}

/** An object-mode Writable over a writer: each chunk is a row; it waits while the writer applies backpressure. */
export function writerStream<Row>(writer: Writer<Row>, options: WriterStreamOptions): Writable {
  return new Writable({
    objectMode: true,
    highWaterMark: options.highWaterMark ?? 1024,
    write(row: Row, _encoding, callback) {
      writer.write(row).then(() => callback(), callback);
    },
    final(callback) {
      (options.closeWriter === true ? writer.close() : writer.flush()).then(() => callback(), callback);
    },
  });
}
