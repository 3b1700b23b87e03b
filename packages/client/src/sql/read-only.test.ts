import { describe, expect, it } from 'vitest';
import { isReadOnlySql } from './read-only.js';

describe('isReadOnlySql', () => {
  it.each([
    'SELECT * FROM root.sg.d1',
    'select count(*) from t where time > 1',
    '  \n\tSHOW DATABASES',
    '/* a comment */ DESCRIBE t',
    '-- why\n-- and why not\nDESC t',
    'COUNT TIMESERIES root.**',
    'LIST USER',
    'EXPLAIN SELECT * FROM t',
    'WITH x AS (SELECT * FROM t) SELECT * FROM x',
  ])('a read: %j', (sql) => expect(isReadOnlySql(sql)).toBe(true));

  it.each([
    'SELECT s INTO root.sg.copy(s) FROM root.sg.d1',
    "SELECT * FROM t WHERE note = 'into'",
    'INSERT INTO root.sg.d1(time, s) VALUES (1, 1)',
    'CREATE DATABASE root.x',
    'DELETE FROM root.sg.d1.s',
    'FLUSH',
    'SELECTED',
    '/* SELECT */ DROP DATABASE x',
    '-- SELECT\nDROP DATABASE x',
    '/* never closed SELECT',
    '',
  ])('may write: %j', (sql) => expect(isReadOnlySql(sql)).toBe(false));
});
