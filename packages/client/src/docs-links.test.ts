import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The project's markdown stays usable: every relative link and #anchor points at something that exists, every
// table row has as many cells as its header, and no path leads outside the repository (it must stand alone).

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** README, CONTRIBUTING, the guides in docs/ (not the generated docs/api/), the packages' READMEs and CHANGELOGs. */
function markdownFiles(): string[] {
  const inDir = (dir: string) =>
    existsSync(join(ROOT, dir))
      ? readdirSync(join(ROOT, dir))
          .filter((name) => name.endsWith('.md'))
          .map((name) => join(dir, name))
      : [];
  const packages = readdirSync(join(ROOT, 'packages')).map((name) => join('packages', name));
  return [...inDir('.'), ...inDir('docs'), ...inDir('examples'), ...packages.flatMap(inDir)];
}

/** The text outside fenced code blocks, line numbers kept (fenced lines become empty). */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    return fenced || line.trimStart().startsWith('```') ? '' : line;
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const headings = prose(markdown).filter((line) => /^#{1,6}\s/.test(line));
  return new Set(headings.map((line) => slug(line.replace(/^#+\s/, ''))));
}

/** Problems with the links of one file: `file:line: target`. */
function brokenLinks(file: string, markdown: string): string[] {
  const problems: string[] = [];
  prose(markdown).forEach((line, i) => {
    for (const [, target] of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const linked = path === '' ? file : relative(ROOT, resolve(ROOT, dirname(file), path));
      const where = `${file}:${i + 1}: ${target}`;
      if (linked.startsWith('..')) problems.push(`${where} (outside the repository)`);
      else if (!existsSync(join(ROOT, linked))) problems.push(`${where} (no such file)`);
      else if (
        anchor !== undefined &&
        linked.endsWith('.md') &&
        !anchorsOf(path === '' ? markdown : readFileSync(join(ROOT, linked), 'utf8')).has(anchor)
      ) {
        problems.push(`${where} (no such heading)`);
      }
    }
  });
  return problems;
}

/** Rows whose cell count differs from their table's header, and table rows with no header above them. */
function brokenTables(file: string, markdown: string): string[] {
  const lines = prose(markdown);
  const cells = (row: string) =>
    row
      .trim()
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split(/(?<!\\)\|/).length;
  const problems: string[] = [];
  let width = 0;
  lines.forEach((line, i) => {
    if (!line.trimStart().startsWith('|')) return void (width = 0);
    if (width === 0) {
      if (!/^\s*\|?\s*:?-{3,}/.test(lines[i + 1] ?? ''))
        problems.push(`${file}:${i + 1}: a table row without a header`);
      else width = cells(line);
    } else if (cells(line) !== width) {
      problems.push(`${file}:${i + 1}: ${cells(line)} cells, the header has ${width}`);
    }
  });
  return problems;
}

/** Paths that lead out of the repository: `../x` that resolves nowhere inside it, and absolute /work/ paths. */
function outsidePaths(file: string, markdown: string): string[] {
  const problems: string[] = [];
  markdown.split('\n').forEach((line, i) => {
    for (const [path] of line.matchAll(/(?<![\w.])(?:\.\.\/)+[\w.-]+(?:\/[\w.-]+)*/g)) {
      const fromFile = relative(ROOT, resolve(ROOT, dirname(file), path));
      const fromRoot = relative(ROOT, resolve(ROOT, path));
      const inside = [fromFile, fromRoot].some((p) => !p.startsWith('..') && existsSync(join(ROOT, p)));
      if (!inside) problems.push(`${file}:${i + 1}: ${path}`);
    }
    for (const [path] of line.matchAll(/(?<![\w.])\/work\/[\w./-]*/g)) problems.push(`${file}:${i + 1}: ${path}`);
  });
  return problems;
}

describe('the markdown of the repository', () => {
  const files = markdownFiles();
  const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

  it('finds the documents', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/USER_GUIDE.md', 'docs/API.md']));
  });

  it('links only to files and headings that exist', () => {
    expect(files.flatMap((file) => brokenLinks(file, read(file)))).toEqual([]);
  });

  it('has tables whose rows match their headers', () => {
    expect(files.flatMap((file) => brokenTables(file, read(file)))).toEqual([]);
  });

  it("lists every example in the README and the user's guide", () => {
    const examples = readdirSync(join(ROOT, 'examples')).filter((name) => name.endsWith('.mjs'));
    expect(examples.length).toBeGreaterThan(0);
    for (const [doc, prefix] of [
      ['README.md', 'examples/'],
      ['docs/USER_GUIDE.md', '../examples/'],
    ] as const) {
      expect(
        examples.filter((name) => !read(doc).includes(`](${prefix}${name})`)),
        doc,
      ).toEqual([]);
    }
  });

  it('points at no path outside the repository', () => {
    expect(files.flatMap((file) => outsidePaths(file, read(file)))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('catch a missing file, a missing heading and a link out of the repository', () => {
    const md =
      '[a](docs/NOPE.md) [b](docs/USER_GUIDE.md#no-such-part) [c](../outside.md) [d](#two-words) [e](https://x.org)';
    expect(brokenLinks('README.md', `# Two words\n${md}`)).toEqual([
      'README.md:2: docs/NOPE.md (no such file)',
      'README.md:2: docs/USER_GUIDE.md#no-such-part (no such heading)',
      'README.md:2: ../outside.md (outside the repository)',
    ]);
  });

  it('catch a row that does not fit its table, and a row without a header', () => {
    const md = '| a | b |\n|---|---|\n| 1 | 2 |\n| 1 | 2 | 3 |\n| `x \\| y` | 2 |\n\ntext\n| orphan | row |';
    expect(brokenTables('X.md', md)).toEqual([
      'X.md:4: 3 cells, the header has 2',
      'X.md:8: a table row without a header',
    ]);
  });

  it('catch paths outside the repository, and accept paths inside it', () => {
    const md = 'see ../shared/java-anchor/Bench.java and /work/main/x, not ../examples/writer-csv.mjs';
    expect(outsidePaths('docs/X.md', md)).toEqual([
      'docs/X.md:1: ../shared/java-anchor/Bench.java',
      'docs/X.md:1: /work/main/x',
    ]);
  });

  it('make GitHub anchors', () => {
    expect(slug('Batching writer: rows in, tablets out')).toBe('batching-writer-rows-in-tablets-out');
    expect(slug('Clusters: failover, redirection, retries')).toBe('clusters-failover-redirection-retries');
  });
});
