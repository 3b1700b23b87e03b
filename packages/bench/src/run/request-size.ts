/**
 * How many bytes one write of the run carries, and the note a run whose writes are large enough to stop a server gets
 * before it starts.
 */
import type { TSDataType } from '@iotdb/client';
import { fixedWidth } from '@iotdb/fast-serializer';
import type { BenchConfig } from '../types.js';
import { groupSize } from './device-shares.js';
import { sensorTypes } from '../workload/schema.js';

/** The bytes of one value of `type` on the wire (text: its length and stringLength ASCII bytes). */
function valueBytes(type: TSDataType, stringLength: number): number {
  return fixedWidth(type) || 4 + stringLength;
}

/** About how many bytes one write call carries: its devices' rows, each a time and a value of every sensor. */
export function writeRequestBytes(c: BenchConfig): number {
  const row = sensorTypes(c).reduce<number>((bytes, t) => bytes + valueBytes(t, c.stringLength), 8);
  return c.batchSize * row * Math.min(groupSize(c), c.deviceCount);
}

/** The knobs a write's size is the product of, as the notes name them. */
export function writeSizeKnobs(c: BenchConfig): string {
  return `(--batch-size x --sensors${groupSize(c) > 1 ? ' x --tablets-per-request' : ''})`;
}

/** Writes this large get the note (the server's own limit depends on its heap; 40 MB was answered at 2 GiB). */
const LARGE_WRITE = 32 * 1024 * 1024;

/**
 * IoTDB 2.0.1-beta never answers a write whose write-ahead log entry is over its WAL queue's memory, and holds later
 * writes behind it until the DataNode restarts (measured with a 2 GiB heap: a 40 MB tablet answered, a 50 MB one
 * never). A run whose writes come near that is told so before it starts.
 */
export function largeWriteNote(c: BenchConfig): string | undefined {
  // the writer's requests stay within its maxBytes; nothing of --server-noop's or --dry-run-send's is logged
  if (c.method === 'writer' || c.serverNoop || c.dryRunSend) return undefined;
  const bytes = writeRequestBytes(c);
  if (bytes <= LARGE_WRITE) return undefined;
  const mb = (bytes / 1e6).toFixed(0);
  return `note: each write carries about ${mb} MB ${writeSizeKnobs(c)}: IoTDB 2.0.1-beta never answers a write whose log entry is over its write-ahead log queue's memory (with a 2 GiB DataNode heap a 40 MB tablet was answered, a 50 MB one never) and holds later writes behind it until the DataNode restarts; lower --batch-size if the server's heap is not known to be large`;
}
