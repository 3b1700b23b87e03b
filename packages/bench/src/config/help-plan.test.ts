import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, COMMANDS, commandHelp } from './argv.js';
import { KNOB_KEYS, KNOBS, TOTAL_POINTS } from './knobs.js';
import { describePlan, helpText, resolveConfig } from './resolve.js';

describe('helpText', () => {
  const help = helpText();

  it('lists every knob: flag, config-file key, environment variable, default and description', () => {
    for (const key of KNOB_KEYS) {
      const k = KNOBS[key];
      const usage = k.arg === undefined ? k.flag : `${k.flag} ${k.arg}`;
      expect(help, key).toContain(`  ${usage} `);
      expect(help, key).toContain(`[${key}] env ${k.env}, default ${k.defaultText}\n      ${k.description}\n`);
    }
    expect(help).toContain(`${TOTAL_POINTS.flag} N`);
    expect(help).toContain(`env ${TOTAL_POINTS.env}`);
    expect(help).toContain('--config FILE');
    expect(help).toContain('--help, -h');
  });

  it("says how the sessions log in, though no knob sets it: a deployment's user, the password in no result file", () => {
    expect(help).toContain(
      "The sessions (ours, the Java client's) log in as IOTDB_USER / IOTDB_PASSWORD, default\n" +
        'root / root: from the environment only, so that the password is in no result file.',
    );
    // the commands that reach a server say so in their own --help
    for (const name of ['persist', 'read-compare'] as const) expect(commandHelp(name), name).toContain('IOTDB_USER');
  });

  it('lists the commands, each with its usage and what it does, as its own --help says them', () => {
    for (const name of COMMAND_NAMES) {
      expect(help, name).toContain(`  ${COMMANDS[name].usage}\n      ${COMMANDS[name].about}\n`);
      expect(commandHelp(name)).toBe(`usage: ${COMMANDS[name].usage}\n\n${COMMANDS[name].about}`);
    }
    expect(help).toMatch(/^ {7}iotdb-bench compare\|merge\|persist\|read-compare \.\.\./m);
  });

  it('every flag is the kebab-case of its field and every env variable is distinct', () => {
    for (const key of KNOB_KEYS)
      expect(KNOBS[key].flag).toBe(`--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    const envs = [...KNOB_KEYS.map((k) => KNOBS[k].env), TOTAL_POINTS.env];
    expect(new Set(envs).size).toBe(envs.length);
  });
});

describe('describePlan', () => {
  it('shows every knob with its value', () => {
    const c = resolveConfig(['--workers', '4', '--out', 'r.json'], {}).config;
    const plan = describePlan(c);
    for (const key of KNOB_KEYS) expect(plan, key).toMatch(new RegExp(`^  ${key} +\\S`, 'm'));
    expect(plan).toMatch(/^ {2}out +r\.json$/m);
    expect(plan).toMatch(/^ {2}host +none: the first of --node-urls, or with neither, start a local IoTDB/m);
    expect(plan).toMatch(/^ {2}typeProportions +1:1:1:1:1:1 \(BOOLEAN 16\.7 %, INT32 16\.7 %/m);
  });

  it('derives the totals: points per round, total points, tablets per write, devices per worker', () => {
    const c = resolveConfig(
      [
        '--workers',
        '3',
        '--clients',
        '2',
        '--loop',
        '4',
        '--warmup-rounds',
        '1',
        '--method',
        'insertTablets',
        '--tablets-per-request',
        '5',
      ],
      {},
    ).config;
    const plan = describePlan(c);
    expect(plan).toMatch(/^ {2}points per round +2,500,000 \(100 devices x 50 sensors x 500 rows\)$/m);
    expect(plan).toMatch(/^ {2}total points +10,000,000 \(4 rounds\)$/m);
    expect(plan).toMatch(/^ {2}warm-up points +2,500,000 \(1 round, untimed\)$/m);
    expect(plan).toMatch(/^ {2}tablets per write +insertTablets: 5$/m);
    expect(plan).toMatch(/^ {2}devices per worker +33-34 \(100 devices over 3 workers\)$/m);
    expect(plan).toMatch(/^ {2}devices per client +17 \(2 clients per worker, 6 in all\)$/m);
  });

  it("notes compare runs, caps tablets per write at a client's devices, and the rate limit", () => {
    const c = resolveConfig(
      ['--devices', '8', '--workers', '2', '--compare', 'insertTablet,insertRecords', '--rate-limit', '1000000'],
      {},
    ).config;
    const plan = describePlan(c);
    expect(plan).toMatch(
      /^ {2}tablets per write +insertTablet: 1; insertRecords: none: 2,000 records of 4 devices \(tabletsPerRequest 10, but a client has 4 devices\)$/m,
    );
    expect(plan).toMatch(/^ {2}runs +one per method: insertTablet, insertRecords$/m);
    expect(plan).toMatch(/^ {2}duration at limit +at least 2 s at 1,000,000 points\/s$/m);
  });

  it('says a run of queries only writes nothing, keeps the database and which rows its queries range over', () => {
    const c = resolveConfig(
      ['--devices', '10', '--loop', '20', '--warmup-rounds', '1', '--operation-proportion', '0:1:1:0:0:0:0:0:0:0:0'],
      {},
    ).config;
    const plan = describePlan(c);
    expect(plan).toMatch(/^ {2}total points +[\d,]+ \(20 rounds; queries only: none of it is written\)$/m);
    expect(plan).toMatch(
      /^ {2}reads only +nothing written, the database kept; queries read the 10,500 rows per device a write run with these knobs stored$/m,
    );
    expect(plan).toMatch(/^ {2}warm-up points +none \(queries only: the write run wrote the 1 warm-up round\)$/m);
    expect(plan).toMatch(/^ {2}warm-up queries +2 per client \(2 query types x 1 round\), untimed$/m);
  });

  it("says how many queries a mixed run's warm-up runs, and none without warm-up rounds", () => {
    const mixed = ['--devices', '10', '--operation-proportion', '1:1:1:1:0:0:0:0:0:0:0', '--warmup-rounds', '2'];
    expect(describePlan(resolveConfig(mixed, {}).config)).toMatch(
      /^ {2}warm-up queries +6 per client \(3 query types x 2 rounds\), untimed$/m,
    );
    const cold = describePlan(resolveConfig([...mixed, '--warmup-rounds', '0'], {}).config);
    expect(cold).toMatch(/^ {2}warm-up queries +none \(no warm-up rounds: the first timed queries run cold\)$/m);
    expect(describePlan(resolveConfig(['--devices', '10'], {}).config)).not.toContain('warm-up queries');
  });

  it("gives a mixed run's rate limit as the writes' pace, not the total's duration (it writes a share of it)", () => {
    const mixed = ['--devices', '10', '--rate-limit', '1000', '--operation-proportion', '1:1:0:0:0:0:0:0:0:0:0'];
    const plan = describePlan(resolveConfig(mixed, {}).config);
    expect(plan).toMatch(/^ {2}rate limit +writes paced at 1,000 points\/s over all workers$/m);
    expect(plan).not.toContain('duration at limit');
  });

  it('gives an open loop its rate, and a sweep its rates in turn, a run each', () => {
    const one = describePlan(resolveConfig(['--target-rate', '2000'], {}).config);
    expect(one).toMatch(/^ {2}open loop +2,000 operations\/s over all clients on a fixed schedule; latency from/m);
    const sweep = describePlan(resolveConfig(['--sweep-rates', '100,400,1000'], {}).config);
    expect(sweep).toMatch(
      /^ {2}open loop +100, 400 and 1,000 operations\/s over all clients on a fixed schedule \(a run at each rate in turn, labelled <label>@<rate>\/s; then each operation's p99 by rate\); latency from/m,
    );
    expect(describePlan(resolveConfig([], {}).config)).not.toContain('open loop');
  });

  it("describes a query file's statements, not writes it will not make", () => {
    const c = resolveConfig(['--query-file', 'q.yaml', '--warmup-rounds', '2', '--target-rate', '50'], {}).config;
    const statements = [
      {
        label: 'day',
        sql: 'SELECT s0 FROM root.bench.d000',
        concurrency: 4,
        repetitions: 25,
        model: 'tree' as const,
        database: 'bench',
        line: 1,
      },
      {
        label: 'flush',
        sql: 'FLUSH',
        concurrency: 1,
        repetitions: 1,
        model: 'table' as const,
        database: 'db',
        line: 5,
      },
    ];
    const plan = describePlan(c, statements);
    expect(plan).toMatch(/^ {2}statements +2 statements in turn, instead of the writes \(nothing written\)$/m);
    expect(plan).toMatch(
      /^ {2}1\. day +4 sessions x 25 reads, 2 untimed reads first \(tree model, line 1\): SELECT s0 FROM root\.bench\.d000$/m,
    );
    // a statement that changes something is not run an extra time
    expect(plan).toMatch(/^ {2}2\. flush +1 session x 1 read \(table model, database db, line 5\): FLUSH$/m);
    expect(plan).toMatch(/^ {2}open loop +each statement's reads at 50\/s over its sessions/m);
    expect(plan).not.toContain('total points');
  });
});
