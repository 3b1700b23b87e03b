import { KnownKeys } from '@iotdb/fast-serializer';
import { Writable } from 'node:stream';
import type { Writer } from './writer.js';
import { checkBoolean, checkedIfGiven } from '../config/checks.js';
import { checkCallOptions } from '../config/issues.js';

export interface WriterStreamOptions {
  /** rows the stream itself queues before its write() returns false. @default 1024 */
  highWaterMark?: number;
  /**
   * close the writer when the stream ends (else it is flushed and stays open), and when it fails: the rows it
   * accepted before the failure are sent before the stream is done (else they stay in the open writer). @default false
   */
  closeWriter?: boolean;
}

const STREAM_OPTION_KEYS: KnownKeys = KnownKeys.of<WriterStreamOptions>('options')('highWaterMark', 'closeWriter');

/** An object-mode Writable over a writer: each chunk is a row; it waits while the writer applies backpressure. */
export function writerStream<Row>(writer: Writer<Row>, options: WriterStreamOptions): Writable {
  checkCallOptions(options, STREAM_OPTION_KEYS);
  const highWaterMark = checkedIfGiven('highWaterMark', options.highWaterMark) ?? 1024;
  if (options.closeWriter !== undefined) checkBoolean('closeWriter', options.closeWriter);
  return new Writable({
    objectMode: true,
    highWaterMark,
    write(row: Row, _encoding, callback) {
      writer.write(row).then(() => callback(), callback);
    },
    final(callback) {
      (options.closeWriter === true ? writer.close() : writer.flush()).then(() => callback(), callback);
    },
    destroy(error, callback) {
      if (options.closeWriter !== true) return callback(error);
      writer.close().then(
        () => callback(error),
        (failed: unknown) => callback(bothFailures(error, failed)),
      );
    },
  });
}

/**
 * What a stream that owns its writer fails with: its own error; the writer's close() failure (rows the server
 * refused) when it had none; both, when they differ, so that neither is dropped.
 */
function bothFailures(error: Error | null, failed: unknown): Error {
  if (error === null || error === failed) return failed as Error;
  return new AggregateError([error, failed], `${error.message}; and closing the writer: ${String(failed)}`);
}
