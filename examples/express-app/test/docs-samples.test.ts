import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The docs promise that every TypeScript sample is quoted from a file that runs (an example or a
 * test). Each ```ts block must follow a `<!-- from: path -->` line naming that file, and its lines
 * must appear in the file in the same order (indentation aside; a `// …` line marks an elision).
 * The repository README is checked too. docs/architecture.md is left out: its blocks are the
 * modules' contract signatures, not samples.
 * (The check lives here because the `examples` test project is the one that reaches docs/.)
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const CODE = new Set(['ts', 'typescript', 'js', 'javascript']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'api' ? [] : markdownFiles(path);
    return name.endsWith('.md') && name !== 'architecture.md' ? [path] : [];
  });
}

interface Sample {
  readonly doc: string;
  readonly line: number;
  readonly source: string | undefined;
  readonly lines: readonly string[];
}

function samples(doc: string): Sample[] {
  const text = readFileSync(doc, 'utf8').split('\n');
  const found: Sample[] = [];
  for (let i = 0; i < text.length; i++) {
    const fence = /^```(\w+)\s*$/.exec(text[i] ?? '');
    if (fence === null) continue;
    const end = text.findIndex((line, j) => j > i && line.startsWith('```'));
    if (CODE.has(fence[1] ?? '')) {
      const before = text.slice(0, i).reverse().find((line) => line.trim() !== '') ?? '';
      found.push({
        doc: relative(root, doc),
        line: i + 1,
        source: /<!--\s*from:\s*(\S+)\s*-->/.exec(before)?.[1],
        lines: text.slice(i + 1, end),
      });
    }
    i = end;
  }
  return found;
}

const docs = [
  join(root, 'README.md'),
  ...markdownFiles(join(root, 'docs')),
  ...['express-app', 'koa-app', 'sqlite-store'].map((name) => join(root, 'examples', name, 'README.md')),
];
const all = docs.flatMap(samples);

describe('code samples in the docs', () => {
  it('exist (the check below is not vacuous)', () => {
    expect(all.length).toBeGreaterThan(10);
  });

  it.each(all.map((sample) => [`${sample.doc}:${sample.line}`, sample] as const))('%s is quoted from a real file', (_where, sample) => {
    expect(sample.source, 'a <!-- from: path --> line must precede the sample').toBeDefined();
    const source = readFileSync(join(root, sample.source ?? ''), 'utf8').split('\n').map((line) => line.trim());
    let at = 0;
    for (const line of sample.lines.map((l) => l.trim())) {
      if (line === '' || line === '// …') continue;
      const next = source.indexOf(line, at);
      expect(next, `"${line}" is not in ${sample.source} (after line ${at})`).toBeGreaterThanOrEqual(0);
      at = next + 1;
    }
  });
});

describe('links in the docs', () => {
  const links = docs.flatMap((doc) =>
    [...readFileSync(doc, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => (match[1] ?? '').split('#')[0] ?? '')
      .filter((target) => target !== '' && !/^[a-z]+:/i.test(target))
      .map((target) => [`${relative(root, doc)} → ${target}`, join(dirname(doc), target)] as const),
  );

  it.each(links)('%s exists', (_link, target) => {
    expect(() => statSync(target)).not.toThrow();
  });
});
