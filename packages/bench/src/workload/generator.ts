import {
  MAX_I32,
  TSDataType,
  type CellValue,
  type ColumnInput,
  type RecordInput,
  type TableTablet,
  type Tablet,
} from '@iotdb/client';
import { INT64_MAX } from '@iotdb/fast-serializer';
import type { BenchConfig } from '../types.js';
import { DEVICE_TAG, TABLE_NAME, deviceName, sensorTypes } from './schema.js';
import { DATES, hash32, textTable, unit } from './values.js';

/** Row 0 of every device is the untimed schema warm-up row; rounds start at row 1 (as the Java anchor). */
export const FIRST_ROW = 1;
const T0_MS = 1_700_000_000_000;
export const PRECISION_FACTOR = { ms: 1, us: 1_000, ns: 1_000_000 } as const;
/** The most rows a device's writes can have after row 0: a row's index is an int32 (the pattern formulas' integers). */
export const MAX_DEVICE_ROWS = MAX_I32 - FIRST_ROW;
/** The latest time written, by precision: ms and us times are numbers (exact to 2^53 - 1), ns times int64. */
export const MAX_TIME = {
  ms: BigInt(Number.MAX_SAFE_INTEGER),
  us: BigInt(Number.MAX_SAFE_INTEGER),
  ns: INT64_MAX,
};

/** The timestamp of a device's global row g, in the configured precision (exact beyond 2^53 for ns). */
export function rowTime(c: BenchConfig, g: number): bigint {
  return BigInt(T0_MS + g * c.timeStep) * BigInt(PRECISION_FACTOR[c.precision]);
}

type Column = Float32Array | Float64Array | Int32Array | CellValue[];

/**
 * Makes the benchmark's batches into arrays allocated once per generator (one per client) and refilled:
 * memory stays flat however many points are written. Numeric columns are typed arrays unless nulls
 * are asked for (typed arrays cannot hold them). Everything is a pure function of (config, device,
 * round): the same seed gives the same data.
 *
 * Disorder: rounds come in blocks of 2 x outOfOrderRange; a row of the first half trades places with
 * the row at the same position outOfOrderRange rounds later when unit(...) < outOfOrderRatio. Every
 * row is still written exactly once (verify stays exact), but some arrive after later times did.
 */
export class BatchGenerator {
  readonly types: TSDataType[];
  readonly measurements: string[];
  readonly #c: BenchConfig;
  readonly #rows: number;
  readonly #totalRounds: number;
  readonly #text: string[];
  readonly #blobs: Buffer[];
  readonly #timestamps: Float64Array | BigInt64Array;
  readonly #columns: Column[];
  readonly #tags: string[];
  /** row indexes of the current batch: int32, so that the pattern formulas use integer arithmetic (float % is slow) */
  readonly #rowIndex: Int32Array;

  constructor(c: BenchConfig, rows = c.batchSize) {
    this.#c = c;
    this.#rows = rows;
    this.#totalRounds = c.warmupRounds + c.loop;
    this.types = sensorTypes(c);
    this.measurements = this.types.map((_, s) => `s${s}`);
    this.#text = textTable(c.stringLength, c.values === 'random', c.seed);
    this.#blobs = this.#text.map((t) => Buffer.from(t));
    this.#timestamps = c.precision === 'ns' ? new BigInt64Array(rows) : new Float64Array(rows);
    if (this.#totalRounds * rows > MAX_DEVICE_ROWS) throw new RangeError(`more than ${MAX_DEVICE_ROWS} rows a device`);
    this.#rowIndex = new Int32Array(rows);
    this.#tags = new Array<string>(rows).fill('');
    const typed = c.nullRatio === 0;
    this.#columns = this.types.map((t): Column => {
      if (typed && t === TSDataType.FLOAT) return new Float32Array(rows);
      if (typed && (t === TSDataType.DOUBLE || t === TSDataType.INT64 || t === TSDataType.TIMESTAMP))
        return new Float64Array(rows);
      if (typed && t === TSDataType.INT32) return new Int32Array(rows);
      return new Array<CellValue>(rows).fill(null);
    });
  }

  /** Points (non-null cells) of the last fill. */
  points = 0;

  /** The tree tablet of device d for `round` (0-based over warm-up and timed rounds); -1 is the warm-up row. */
  tree(d: number, round: number): Tablet {
    const rows = this.#fill(d, round);
    return {
      deviceId: deviceName(this.#c, d),
      measurements: this.measurements,
      dataTypes: this.types,
      timestamps: this.#view(this.#timestamps, rows),
      columns: this.#columns.map((col) => this.#view(col, rows) as ColumnInput),
      isAligned: this.#c.model === 'aligned',
    };
  }

  /** The table tablet (table `t`, TAG device_id, FIELD s0..) of device d for `round`. */
  table(d: number, round: number): TableTablet {
    const rows = this.#fill(d, round);
    const name = deviceName(this.#c, d);
    for (let r = 0; r < rows; r++) this.#tags[r] = name;
    return {
      tableName: TABLE_NAME,
      columnNames: [DEVICE_TAG, ...this.measurements],
      dataTypes: [TSDataType.STRING, ...this.types],
      columnCategories: ['TAG', ...this.measurements.map(() => 'FIELD' as const)],
      timestamps: this.#view(this.#timestamps, rows),
      columns: [this.#view(this.#tags, rows), ...this.#columns.map((col) => this.#view(col, rows) as ColumnInput)],
    };
  }

  /** The same rows as records (insertRecords), one per row. */
  records(d: number, round: number): RecordInput[] {
    const rows = this.#fill(d, round);
    const deviceId = deviceName(this.#c, d);
    const out = new Array<RecordInput>(rows);
    for (let r = 0; r < rows; r++) {
      out[r] = {
        deviceId,
        timestamp: this.#timestamps[r],
        measurements: this.measurements,
        dataTypes: this.types,
        values: this.#columns.map((col) => col[r]),
        isAligned: this.#c.model === 'aligned',
      };
    }
    return out;
  }

  /** The reused array itself for a full batch (no copy); a short copy for the 1-row warm-up. */
  #view<T extends { length: number; slice(a: number, b: number): T }>(a: T, rows: number): T {
    return rows === a.length ? a : a.slice(0, rows);
  }

  /** The global row index of position i in `round` for device d, disorder applied. */
  rowOf(d: number, round: number, i: number): number {
    const { outOfOrderRatio: ratio, outOfOrderRange: range } = this.#c;
    let src = round;
    if (ratio > 0 && range > 0) {
      const inFirstHalf = round % (2 * range) < range;
      const first = inFirstHalf ? round : round - range;
      if (first + range < this.#totalRounds && unit(d, first, i, this.#c.seed) < ratio)
        src = inFirstHalf ? round + range : round - range;
    }
    return FIRST_ROW + src * this.#rows + i;
  }

  #fill(d: number, round: number): number {
    const c = this.#c;
    const rows = round < 0 ? 1 : this.#rows;
    const factor = PRECISION_FACTOR[c.precision];
    for (let i = 0; i < rows; i++) {
      const g = round < 0 ? 0 : this.rowOf(d, round, i);
      this.#rowIndex[i] = g;
      const t = (T0_MS + g * c.timeStep) * factor;
      if (this.#timestamps instanceof BigInt64Array) this.#timestamps[i] = rowTime(c, g);
      else this.#timestamps[i] = t;
    }
    let nulls = 0;
    for (let s = 0; s < this.types.length; s++) nulls += this.#fillColumn(s, d, rows);
    this.points = rows * this.types.length - nulls;
    return rows;
  }

  /**
   * Fills sensor s's column for the rows in #rowIndex; returns how many cells are null. Pattern values
   * run one tight loop per type (the type switch outside the row loop), which keeps generation a small
   * share of the client's CPU.
   */
  #fillColumn(s: number, d: number, rows: number): number {
    const c = this.#c;
    const col = this.#columns[s];
    const cells = col as CellValue[];
    const idx = this.#rowIndex;
    const seed = c.seed;
    const fill: ColumnFill = { col, idx, rows, s, d, seed, text: this.#text, blobs: this.#blobs };
    if (c.values === 'random') fillRandom(this.types[s], fill);
    else fillPattern(this.types[s], fill);
    if (c.nullRatio === 0) return 0;
    let nulls = 0;
    for (let i = 0; i < rows; i++) {
      if (unit(idx[i], s + 1000, d, seed) < c.nullRatio) {
        cells[i] = null;
        nulls++;
      }
    }
    return nulls;
  }
}

/** One column's fill: its cells, the indexes of its rows, its sensor and device, the seed, the pools of values. */
interface ColumnFill {
  readonly col: Column;
  readonly idx: Int32Array;
  readonly rows: number;
  readonly s: number;
  readonly d: number;
  readonly seed: number;
  readonly text: string[];
  readonly blobs: Buffer[];
}

/** "pattern" values, the Java anchor's formulas; one tight loop per type. */
function fillPattern(type: TSDataType, fill: ColumnFill): void {
  const { col, idx, rows, s, d, text, blobs } = fill;
  const cells = col as CellValue[];
  switch (type) {
    case TSDataType.BOOLEAN:
      for (let i = 0; i < rows; i++) cells[i] = ((idx[i] + s) & 1) === 0;
      return;
    case TSDataType.INT32:
      for (let i = 0; i < rows; i++) col[i] = (idx[i] % 10000) + s;
      return;
    case TSDataType.INT64:
      for (let i = 0; i < rows; i++) col[i] = idx[i] * 10 + d;
      return;
    case TSDataType.FLOAT:
      for (let i = 0; i < rows; i++) col[i] = (idx[i] % 1000) * 0.5 + s;
      return;
    case TSDataType.DOUBLE:
      for (let i = 0; i < rows; i++) col[i] = (idx[i] % 3600) * 0.25 + d;
      return;
    case TSDataType.TIMESTAMP:
      for (let i = 0; i < rows; i++) col[i] = T0_MS + idx[i];
      return;
    case TSDataType.DATE:
      for (let i = 0; i < rows; i++) cells[i] = DATES[(idx[i] + s) % DATES.length];
      return;
    case TSDataType.BLOB:
      for (let i = 0; i < rows; i++) cells[i] = blobs[(idx[i] + s) % 100];
      return;
    default: // TEXT, STRING
      for (let i = 0; i < rows; i++) cells[i] = text[(idx[i] + s) % 100];
  }
}

/** "random" values from the hash of (row, sensor, device, seed). */
function fillRandom(type: TSDataType, fill: ColumnFill): void {
  const { col, idx, rows, s, d, seed, text, blobs } = fill;
  const cells = col as CellValue[];
  for (let i = 0; i < rows; i++) {
    const h = hash32(idx[i], s, d, seed);
    switch (type) {
      case TSDataType.BOOLEAN:
        cells[i] = (h & 1) === 0;
        break;
      case TSDataType.INT32:
        col[i] = h | 0;
        break;
      case TSDataType.INT64:
        col[i] = (hash32(h, s, d, seed) % 2097152) * 4294967296 + h - 2 ** 52;
        break;
      case TSDataType.FLOAT:
        col[i] = (h & 0xfffff) / 1000;
        break;
      case TSDataType.DOUBLE:
        col[i] = (h / 4294967296) * 1000;
        break;
      case TSDataType.TIMESTAMP:
        col[i] = T0_MS + (h % 1_000_000);
        break;
      case TSDataType.DATE:
        cells[i] = DATES[h % DATES.length];
        break;
      case TSDataType.BLOB:
        cells[i] = blobs[h % 100];
        break;
      default:
        cells[i] = text[h % 100];
    }
  }
}
