import { BufferPool } from '@iotdb/fast-serializer';

/**
 * Frames of at least this many bytes that arrive over several chunks are copied into memory from FRAME_POOL: a
 * query's replies (a fetch of 5,000 rows of 400 DOUBLE series is 16 MB). A new buffer for each made the collector run
 * for their memory alone ("external memory pressure"): 0.83 s of client CPU a read of 40 M values through
 * `batches()`, 0.59 s with the replies' memory used again (docs/PERFORMANCE.md, "A query's replies in reused
 * memory"). Smaller frames, and frames inside one chunk (handed out as views of it), are not pooled.
 */
export const POOLED_FRAME_BYTES = 1 << 20;

/**
 * Where big frames come from, process-wide: at most 64 MiB kept for reuse. Not the sessions' `bufferPool` (request
 * buffers, given back once written): a frame goes back only when nothing reads it any more, which for a query's
 * reply is once its data set has decoded all of it, and a reply read no further is left to the collector.
 */
export const FRAME_POOL = new BufferPool({
  minBufferSize: POOLED_FRAME_BYTES,
  maxBufferSize: 64 << 20,
  maxRetainedBytes: 64 << 20,
});

const RELEASE_FRAME = Symbol('releaseFrame');

/**
 * Settles the pooled buffer `backing` of a reply's frame once `result` is decoded from it: at once when the result
 * holds no view of the frame (`holdsViews` of its type), else it is handed to the result, for its reader to give back
 * (frameReleaseOf); a result nobody reads to the end leaves the buffer to the collector.
 */
export function settleFrame(result: unknown, backing: Buffer | undefined, holdsViews: boolean): void {
  if (backing === undefined) return;
  if (!holdsViews) {
    FRAME_POOL.release(backing);
    return;
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    FRAME_POOL.release(backing);
  };
  Object.defineProperty(result as object, RELEASE_FRAME, { value: release }); // a struct: only they hold views
}

/** What gives the frame of a reply holding views of it back to FRAME_POOL, once none of it is read any more; if pooled. */
export function frameReleaseOf(reply: object): (() => void) | undefined {
  return (reply as { [RELEASE_FRAME]?: () => void })[RELEASE_FRAME];
}
